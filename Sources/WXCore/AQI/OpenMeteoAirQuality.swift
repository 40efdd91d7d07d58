import WXFeed

/// Current air quality from Open-Meteo's air-quality API for catalogue cities, as readings
/// for the AQI history: US AQI (the value charted), European AQI and PM2.5 beside it.
///
/// Same batching, concurrency, matching by position and all-or-nothing rule as
/// ``OpenMeteoProvider``; a location whose US AQI is null gives no reading.
package struct OpenMeteoAirQuality: Sendable {
  package static let defaultURL = "https://air-quality-api.open-meteo.com/v1/air-quality"
  package let config: ProviderConfig
  package let cities: [City]
  /// The cities' regions where known (by position): they tell apart two places of one name
  /// in one country.
  package let regions: [String?]
  /// What an answer's location keeps (``OpenMeteoStream``).
  static let shape = OpenMeteoStream.Shape.object([
    ("utc_offset_seconds", .scalar),
    ("current", .object([("time", .scalar), ("us_aqi", .scalar), ("european_aqi", .scalar), ("pm2_5", .scalar)])),
  ])

  package init(config: ProviderConfig, cities: [City], regions: [String?]) {
    precondition(regions.count == cities.count)
    self.config = config
    self.cities = cities
    self.regions = regions
  }

  /// The name each city's readings are recorded under: "Name, Country", whatever else this
  /// sync fetches (a bare name, kept when no other city had it, was read as the feed's, of
  /// any country: Paris, Texas's readings were `wx aqi show paris`'s until a second Paris was
  /// synced, and then moved to a new name); "Name, Region, Country" when another city has its
  /// name in its country too (two favourite Springfields of the United States), and its id
  /// after that when the region does not tell them apart either.
  static func names(_ cities: [City], regions: [String?]) -> [String] {
    var byCountry: [String: Int] = [:]
    var byRegion: [String: Int] = [:]
    func keys(_ i: Int) -> (String, String) {
      let country = Fold.string(cities[i].name) + "\u{0}" + Fold.string(cities[i].country)
      return (country, country + "\u{0}" + Fold.string(regions[i] ?? ""))
    }
    for i in cities.indices {
      let (c, r) = keys(i)
      byCountry[c, default: 0] += 1
      byRegion[r, default: 0] += 1
    }
    return cities.indices.map { i in
      let city = cities[i]
      let (c, r) = keys(i)
      guard byCountry[c]! > 1 else { return "\(city.name), \(city.country)" }
      guard let region = regions[i], byRegion[r]! == 1 else { return "\(city.name), \(city.country), id \(city.id)" }
      return "\(city.name), \(region), \(city.country)"
    }
  }

  /// A name ``names(_:regions:)`` gave with an id ("Name, Country, id N", read in any case and
  /// spacing, as a person types it back): what comes before the id, and N; nil for others.
  package static func withID(_ name: String) -> (head: String, id: Int)? {
    guard let m = name.firstMatch(of: /^(.*),\s*[iI][dD]\s*(\d+)\s*$/), let id = Int(m.2) else { return nil }
    return (String(m.1), id)
  }

  /// One reading per city with a US AQI, under its name as ``names(_:regions:)`` gives it,
  /// so the histories of cities that share a name stay apart.
  package func fetch() async throws(SyncError) -> [AQIReading] {
    try Fetcher.validate(url: config.url)
    if cities.isEmpty { throw .noRecords(url: Redact.url(config.url)) }
    let (config, cities) = (self.config, self.cities)
    let batches = OpenMeteoProvider.batched(cities)
    let names = Self.names(cities, regions: regions)
    let batchSize = OpenMeteoProvider.batchSize
    let results = try await Fetcher.inParallel(batches.count, limit: OpenMeteoProvider.maxInFlight, url: config.url) {
      (b: Int) async throws(SyncError) -> [AQIReading] in
      let asked = batches[b]
      let url = OpenMeteoProvider.url(config.url, asked, query: "current=us_aqi,european_aqi,pm2_5,pm10")
      let shown = "\(config.url) (batch \(b + 1) of \(batches.count))"
      return try await Fetcher.onWorker { () throws(SyncError) -> [AQIReading] in
        var out: [AQIReading] = []
        try OpenMeteoProvider.locations(url, shown: shown, config: config, count: asked.count, shape: Self.shape) {
          (i, item) throws(PayloadError) in
          let city = asked[i]
          let label = "location \(Redact.quoted(city.name, limit: 200))"
          guard let current = item["current"], case .object = current else {
            throw PayloadError("\(label) has no \"current\" object")
          }
          // Its own time (the forecast's rules): a local time less the offset, never nil.
          let time = try OpenMeteoDecoder.observation(item, current, label: label).epochSeconds!
          guard let us = try OpenMeteoDecoder.number(current["us_aqi"], "\(label) us_aqi", AQIFrame.accepted) else { return }
          let name = names[b * batchSize + i]
          var reading = AQIReading(
            city: name, aqi: us, scale: .us,
            european: try OpenMeteoDecoder.number(current["european_aqi"], "\(label) european_aqi", 0...1000),
            pm25: try OpenMeteoDecoder.number(current["pm2_5"], "\(label) pm2_5", 0...10_000))
          reading.time = time
          out.append(reading)
        }
        return out
      }
    }
    return results.flatMap { $0 }
  }
}
