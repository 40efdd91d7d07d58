import WXFeed

/// Real weather from Open-Meteo for the cities of the current catalogue, by coordinates.
///
/// The cities at ``refresh`` are asked for in batches of ``batchSize`` locations a request,
/// at most ``maxInFlight`` requests at a time; every other city is kept as it was. Answers are
/// matched to cities by position in their batch. All or nothing: a batch that fails fails the
/// sync, and nothing is published.
package struct OpenMeteoProvider: WeatherProvider {
  package static let defaultURL = "https://api.open-meteo.com/v1/forecast"
  package static let batchSize = 50
  package static let maxInFlight = 3
  /// Forecast days the API serves.
  package static let days = 1...16
  /// The hours asked for, from the current hour on.
  package static let hours = ForecastHour.maxHours

  package let config: ProviderConfig
  /// The catalogue's cities, in catalogue order.
  package let cities: [City]
  /// Positions in ``cities`` to refresh.
  package let refresh: [Int]
  package var name: String { "open-meteo" }

  package init(config: ProviderConfig, cities: [City], refresh: [Int]) {
    self.config = config
    self.cities = cities
    self.refresh = refresh
  }

  /// ``refresh`` cut into batches of positions.
  package var batches: [[Int]] { Self.batched(refresh) }

  /// `items` cut into batches of ``batchSize``, in order.
  package static func batched<T>(_ items: [T]) -> [[T]] {
    stride(from: 0, to: items.count, by: batchSize).map { Array(items[$0..<min(items.count, $0 + batchSize)]) }
  }

  package func fetch() async throws(SyncError) -> [City] {
    try Fetcher.validate(url: config.url)
    if refresh.isEmpty { throw .noRecords(url: Redact.url(config.url)) }
    let batches = self.batches
    let (config, cities) = (self.config, self.cities)
    let days = min(max(config.days, Self.days.lowerBound), Self.days.upperBound)
    let query =
      "current=\(OpenMeteoDecoder.current.joined(separator: ","))"
      + "&daily=\(OpenMeteoDecoder.daily.joined(separator: ","))&forecast_days=\(days)"
      + "&hourly=\(OpenMeteoDecoder.hourly.joined(separator: ","))&forecast_hours=\(Self.hours)"
    let results = try await Fetcher.inParallel(batches.count, limit: Self.maxInFlight, url: config.url) {
      (b: Int) async throws(SyncError) -> [City] in
      let asked = batches[b].map { cities[$0] }
      let url = Self.url(config.url, asked, query: query)
      let shown = "\(config.url) (batch \(b + 1) of \(batches.count))"
      let out = try await Fetcher.onWorker { () throws(SyncError) -> [City] in
        var out: [City] = []
        try Self.locations(url, shown: shown, config: config, count: asked.count, shape: OpenMeteoDecoder.shape) {
          (i, item) throws(PayloadError) in out.append(try OpenMeteoDecoder.city(asked[i], from: item, days: days))
        }
        return out
      }
      config.progress?(b + 1, out.count)
      return out
    }
    var out = cities
    for (batch, fetched) in zip(batches, results) {
      for (i, city) in zip(batch, fetched) { out[i] = city }
    }
    return out
  }

  /// One batch's answer streamed (``OpenMeteoStream``): each location of `shape` goes to
  /// `location` with its position as soon as it has arrived; the body is never held.
  package static func locations(
    _ url: String, shown: String, config: ProviderConfig, count: Int, shape: OpenMeteoStream.Shape,
    _ location: @escaping (Int, JSON) throws(PayloadError) -> Void
  ) throws(SyncError) {
    var stream = OpenMeteoStream(count: count, location: shape) { i, item in try location(i, item) }
    var failure: (any Error)?
    try Fetcher(config).stream(url, shown: shown) { chunk in
      do { try stream.feed(chunk) } catch { failure = error }
      return failure == nil
    }
    if failure == nil {
      do { try stream.finish() } catch { failure = error }
    }
    if let failure {
      throw .badPayload(url: shown, reason: (failure as? PayloadError)?.reason ?? "\(failure)")
    }
  }

  /// `base?latitude=a,b&longitude=c,d&timezone=auto&…`: coordinates in the order of `cities`.
  package static func url(_ base: String, _ cities: [City], query: String) -> String {
    let lat = cities.map { JSONWriter.number($0.latitude) }.joined(separator: ",")
    let lon = cities.map { JSONWriter.number($0.longitude) }.joined(separator: ",")
    return base + (base.contains("?") ? "&" : "?") + "latitude=\(lat)&longitude=\(lon)&timezone=auto&\(query)"
  }
}
