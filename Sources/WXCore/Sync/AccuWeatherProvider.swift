import WXFeed

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
    var id: Int
    var name: String
    /// Empty when AccuWeather names none: unknown, never "Unknown".
    var country: String
    /// nil when AccuWeather gives none: unknown, never 0,0.
    var latitude: Double?
    var longitude: Double?
  }

  /// The next hour's temperature and what it is like (`IconPhrase`).
  struct Hour: Sendable {
    var celsius: Double
    var phrase: String
    /// The hour's own time (`EpochDateTime`, seconds since the epoch), when sent.
    var time: Int64? = nil
  }

  /// Every text the server sends (a reason, a header, a field, where it redirects) is
  /// searched for the key, as sent and percent-encoded, and shown without it.
  package func fetch() async throws(SyncError) -> [City] {
    let secrets = config.apiKey.map { [$0] } ?? []
    do throws(SyncError) {
      return try await fetch(hiding: secrets)
    } catch {
      throw error.hiding(secrets)
    }
  }

  private func fetch(hiding secrets: [String]) async throws(SyncError) -> [City] {
    try Fetcher.validate(url: base)
    guard let apiKey = config.apiKey else { throw .missingKey(provider: name) }
    let key = Redact.percentEncoded(apiKey)
    let config = self.config
    let base = self.base
    let top = try await Fetcher.get(config.url(path: "/locations/v1/topcities/50", query: "apikey=\(key)"), config: config)
    let locations = Array(
      try Self.decodeLocations(top, url: config.url(path: "/locations/v1/topcities/50", query: ""), hiding: secrets)
        .prefix(config.count))
    let hours = try await Fetcher.inParallel(locations.count, limit: Self.maxConcurrent, url: base) {
      (i: Int) async throws(SyncError) -> Hour in
      let loc = locations[i]
      let url = config.url(path: "/forecasts/v1/hourly/1hour/\(loc.key)", query: "apikey=\(key)")
      do throws(SyncError) {
        return try Self.decodeHour(try await Fetcher.get(url, config: config), url: url, city: loc.name, hiding: secrets)
      } catch {
        throw CityFailure(city: loc.name, error: error).asSyncError
      }
    }
    return locations.enumerated().map { (i, loc) in
      var city = City(
        id: loc.id, name: loc.name, country: loc.country, latitude: loc.latitude ?? City.unknownCoordinate,
        longitude: loc.longitude ?? City.unknownCoordinate, temperatureC: hours[i].celsius, description: hours[i].phrase,
        humidity: nil, windKmh: nil, forecast: [])
      // The hour AccuWeather forecast for, when it says; else the sync's time (SyncService).
      if let time = hours[i].time { city.provenance = Provenance(source: .accuweather, observedAt: time) }
      return city
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

  /// The locations, in AccuWeather's order. Keys follow freetestapi's rules for ids: a whole
  /// number from 1 to below 10^15 (a city is looked up by its id as typed), else bad data;
  /// a key seen before is the same location, kept once. A location without a country or
  /// coordinates has them unknown.
  static func decodeLocations(_ body: [UInt8], url: String, hiding secrets: [String] = []) throws(SyncError) -> [Location] {
    guard case .array(let items)? = try? JSON.parse(body) else {
      throw .badPayload(url: url, reason: "expected a JSON array of locations")
    }
    var out: [Location] = []
    var seen = Set<Int>()
    for (n, item) in items.enumerated() {
      guard case .string(let key)? = item["Key"], !key.isEmpty, case .string(let rawName)? = item["EnglishName"]
      else { throw .badPayload(url: url, reason: "location \(n + 1) lacks \"Key\" or \"EnglishName\"") }
      guard key.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let number = Double(key),
        FreeTestAPIDecoder.Limits.isID(number)
      else {
        throw .badPayload(
          url: url,
          reason: "location \(n + 1): \"Key\" must be a whole number from 1 to 999999999999999, found "
            + Redact.quoted(key))
      }
      let id = Int(number)
      guard seen.insert(id).inserted else { continue }
      var rawCountry = ""
      if case .string(let c)? = item["Country"]?["EnglishName"] ?? item["Country"]?["LocalizedName"] { rawCountry = c }
      let name: String
      let country: String
      do throws(StoredText.TooLong) {
        name = Redact.hiding(secrets, in: try StoredText.clean(rawName))
        country = Redact.hiding(secrets, in: try StoredText.clean(rawCountry))
      } catch {
        throw .badPayload(
          url: url, reason: "location \(n + 1): a name has \(error.scalars) characters, more than \(StoredText.maxScalars)")
      }
      guard Fold.hasKey(name) else {
        throw .badPayload(url: url, reason: "location \(n + 1): \"EnglishName\" has no letters")
      }
      var lat: Double?
      var lon: Double?
      if case .number(let a, _)? = item["GeoPosition"]?["Latitude"], case .number(let b, _)? = item["GeoPosition"]?["Longitude"] {
        guard (-90...90).contains(a), (-180...180).contains(b) else {
          throw .badPayload(
            url: url, reason: "location \(n + 1): GeoPosition \(JSONWriter.number(a)), \(JSONWriter.number(b)) is off the globe")
        }
        lat = a
        lon = b
      }
      out.append(Location(key: key, id: id, name: name, country: country, latitude: lat, longitude: lon))
    }
    if out.isEmpty { throw .noRecords(url: url) }
    return out
  }

  /// The first hour's temperature (in °C) and `IconPhrase` (empty when absent).
  static func decodeHour(_ body: [UInt8], url: String, city: String, hiding secrets: [String] = []) throws(SyncError) -> Hour {
    guard case .array(let hours)? = try? JSON.parse(body), let first = hours.first,
      case .number(let value, _)? = first["Temperature"]?["Value"], case .string(let unit)? = first["Temperature"]?["Unit"]
    else { throw .badPayload(url: url, reason: "no Temperature.Value/Unit in the hourly forecast") }
    let celsius: Double
    switch unit.uppercased() {
    case "C": celsius = value
    case "F": celsius = ((value - 32) * 5 / 9 * 10).rounded() / 10
    default: throw .badPayload(url: url, reason: "unknown temperature unit \(Redact.quoted(unit, limit: 16))")
    }
    // The range the freetestapi decoder accepts too.
    guard (-100...70).contains(celsius) else {
      throw .badPayload(url: url, reason: "temperature \(JSONWriter.number(value)) °\(unit.uppercased()) is outside -100…70 °C")
    }
    var phrase = ""
    if case .string(let raw)? = first["IconPhrase"] {
      do throws(StoredText.TooLong) {
        phrase = Redact.hiding(secrets, in: try StoredText.clean(raw))
      } catch {
        throw .badPayload(url: url, reason: "\"IconPhrase\" has \(error.scalars) characters, more than \(StoredText.maxScalars)")
      }
    }
    var time: Int64? = nil
    if case .number(let t, true)? = first["EpochDateTime"], t > 0, t < 253_402_300_800 { time = Int64(t) }
    return Hour(celsius: celsius, phrase: phrase, time: time)
  }
}
