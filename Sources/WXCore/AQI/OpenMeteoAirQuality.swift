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
  /// What an answer's location keeps (``OpenMeteoStream``).
  static let shape = OpenMeteoStream.Shape.object([
    ("utc_offset_seconds", .scalar),
    ("current", .object([("time", .scalar), ("us_aqi", .scalar), ("european_aqi", .scalar), ("pm2_5", .scalar)])),
  ])

  package init(config: ProviderConfig, cities: [City]) {
    self.config = config
    self.cities = cities
  }

  /// One reading per city with a US AQI. A name shared by several of `cities` is
  /// recorded as "Name, Country" so their histories stay apart.
  package func fetch() async throws(SyncError) -> [AQIReading] {
    try Fetcher.validate(url: config.url)
    if cities.isEmpty { throw .noRecords(url: Redact.url(config.url)) }
    let (config, cities) = (self.config, self.cities)
    let batches = OpenMeteoProvider.batched(cities)
    var names: [String: Int] = [:]
    for c in cities { names[Fold.string(c.name), default: 0] += 1 }
    let shared = names
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
          let name = shared[Fold.string(city.name), default: 0] > 1 ? "\(city.name), \(city.country)" : city.name
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
