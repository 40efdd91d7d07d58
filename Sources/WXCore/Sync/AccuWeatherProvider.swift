/// AccuWeather's top cities with their next-hour temperature.
///
/// Two dependent calls: `GET {base}/locations/v1/topcities/50?apikey=K` (only `Key`,
/// `EnglishName` and the country's name are read), then for each kept city, concurrently
/// with at most ``maxConcurrent`` requests in flight, `GET
/// {base}/forecasts/v1/hourly/1hour/{Key}?apikey=K` (only `Temperature.Value` and
/// `Temperature.Unit`, converted to °C).
///
/// All or nothing: if any city's call fails the whole sync fails, naming the city, and the
/// catalogue is left as it was. A catalogue silently missing a city is worse than a clear
/// error and the previous, complete catalogue. The key never appears in messages.
package struct AccuWeatherProvider: WeatherProvider {
  package static let defaultURL = "https://dataservice.accuweather.com"
  package static let maxConcurrent = 4
  package let config: ProviderConfig
  package var name: String { "accuweather" }
  package var base: String { config.base }

  package init(config: ProviderConfig) {
    var config = config
    config.maxBytes = min(config.maxBytes, 16 << 20)
    self.config = config
  }

  struct Location: Sendable {
    var key: String
    var name: String
    var country: String
    var latitude: Double
    var longitude: Double
  }

  package func fetch() async throws(SyncError) -> [City] {
    try Fetcher.validate(url: base)
    guard let apiKey = config.apiKey else { throw .missingKey(provider: name) }
    let key = Self.encode(apiKey)
    let config = self.config
    let base = self.base
    let top = try await Fetcher.get(config.url(path: "/locations/v1/topcities/50", query: "apikey=\(key)"), config: config)
    let locations = Array(
      try Self.decodeLocations(top, url: config.url(path: "/locations/v1/topcities/50", query: "")).prefix(config.count))
    let temperatures = try await Fetcher.inParallel(locations.count, limit: Self.maxConcurrent, url: base) {
      (i: Int) async throws(SyncError) -> Double in
      let loc = locations[i]
      let url = config.url(path: "/forecasts/v1/hourly/1hour/\(Self.encode(loc.key))", query: "apikey=\(key)")
      do throws(SyncError) {
        return try Self.decodeTemperature(try await Fetcher.get(url, config: config), url: url, city: loc.name)
      } catch {
        throw CityFailure(city: loc.name, error: error).asSyncError
      }
    }
    return locations.enumerated().map { (i, loc) in
      City(
        id: Int(loc.key) ?? i + 1, name: loc.name, country: loc.country, latitude: loc.latitude,
        longitude: loc.longitude, temperatureC: temperatures[i], description: "", humidity: nil, windKmh: nil,
        forecast: [])
    }
  }

  /// A city's hourly call failed; the message names the city.
  struct CityFailure {
    var city: String
    var error: SyncError
    var asSyncError: SyncError {
      switch error {
      case .serverError(let url, let status): return .serverError(url: "\(url) (\(city))", status: status)
      case .badPayload(let url, let reason): return .badPayload(url: url, reason: "\(city): \(reason)")
      default: return error
      }
    }
  }

  static func decodeLocations(_ body: [UInt8], url: String) throws(SyncError) -> [Location] {
    guard case .array(let items)? = try? JSON.parse(body) else {
      throw .badPayload(url: url, reason: "expected a JSON array of locations")
    }
    var out: [Location] = []
    for (n, item) in items.enumerated() {
      guard case .string(let key)? = item["Key"], !key.isEmpty, case .string(let rawName)? = item["EnglishName"]
      else { throw .badPayload(url: url, reason: "location \(n + 1) lacks \"Key\" or \"EnglishName\"") }
      var rawCountry = ""
      if case .string(let c)? = item["Country"]?["EnglishName"] ?? item["Country"]?["LocalizedName"] { rawCountry = c }
      let name: String
      let country: String
      do throws(StoredText.TooLong) {
        name = try StoredText.clean(rawName)
        country = try StoredText.clean(rawCountry)
      } catch {
        throw .badPayload(url: url, reason: "location \(n + 1): a name has \(error.scalars) characters, more than \(StoredText.maxScalars)")
      }
      guard Fold.hasKey(name) else {
        throw .badPayload(url: url, reason: "location \(n + 1): \"EnglishName\" has no letters")
      }
      var lat = 0.0
      var lon = 0.0
      if case .number(let a, _)? = item["GeoPosition"]?["Latitude"], case .number(let b, _)? = item["GeoPosition"]?["Longitude"] {
        lat = a
        lon = b
      }
      guard (-90...90).contains(lat), (-180...180).contains(lon) else {
        throw .badPayload(url: url, reason: "location \(n + 1): GeoPosition \(JSONWriter.number(lat)), \(JSONWriter.number(lon)) is off the globe")
      }
      out.append(Location(key: key, name: name, country: country.isEmpty ? "Unknown" : country, latitude: lat, longitude: lon))
    }
    if out.isEmpty { throw .noRecords(url: url) }
    return out
  }

  static func decodeTemperature(_ body: [UInt8], url: String, city: String) throws(SyncError) -> Double {
    guard case .array(let hours)? = try? JSON.parse(body), let first = hours.first,
      case .number(let value, _)? = first["Temperature"]?["Value"], case .string(let unit)? = first["Temperature"]?["Unit"]
    else { throw .badPayload(url: url, reason: "no Temperature.Value/Unit in the hourly forecast") }
    let celsius: Double
    switch unit.uppercased() {
    case "C": celsius = value
    case "F": celsius = ((value - 32) * 5 / 9 * 10).rounded() / 10
    default: throw .badPayload(url: url, reason: "unknown temperature unit \(JSONWriter.quote(Redact.text(unit, limit: 16)))")
    }
    // The range the freetestapi decoder accepts too.
    guard (-100...70).contains(celsius) else {
      throw .badPayload(url: url, reason: "temperature \(JSONWriter.number(value)) °\(unit.uppercased()) is outside -100…70 °C")
    }
    return celsius
  }

  /// Percent-encodes everything but unreserved characters.
  static func encode(_ s: String) -> String {
    var out = ""
    for b in s.utf8 {
      switch b {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(UnicodeScalar(b))
      default:
        let h = String(b, radix: 16, uppercase: true)
        out += "%" + (h.count == 1 ? "0" + h : h)
      }
    }
    return out
  }
}
