import WXFeed

/// Real weather from Open-Meteo for the cities of a ``RefreshPlan``, by coordinates.
///
/// The plan's cities are asked for in batches of ``batchSize`` locations a request, at most
/// ``maxInFlight`` requests at a time; answers are matched to cities by position in their
/// batch. Then the catalogue the plan was made from is read again a record block at a time,
/// each city handed on as it was or with its new weather, and the plan's new places after
/// them: only the fetched cities are held. All or nothing: a batch that fails fails the
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
  package let plan: RefreshPlan
  package var name: String { "open-meteo" }

  package init(config: ProviderConfig, plan: RefreshPlan) {
    self.config = config
    self.plan = plan
  }

  /// `items` cut into batches of ``batchSize``, in order.
  package static func batched<T>(_ items: [T]) -> [[T]] {
    stride(from: 0, to: items.count, by: batchSize).map { Array(items[$0..<min(items.count, $0 + batchSize)]) }
  }

  /// Every city of the new catalogue, in order (tests; a sync streams them).
  package func fetch() async throws -> [City] {
    var out: [City] = []
    _ = try await stream { out.append($0) }
    return out
  }

  /// The catalogue's cities, each with its new weather where the plan fetched it, then the
  /// plan's new places.
  package func stream(into record: (City) throws -> Void) async throws -> Int {
    try Self.merge(try await weather(), plan: plan, into: record)
  }

  /// Hands on the cities of the catalogue `plan` was made from, read again a record block at
  /// a time, with `fetched` (the plan's cities with their new weather, in its order) in their
  /// places, then the plan's new places; returns how many. Throws
  /// ``SyncError/catalogueChanged`` when the catalogue is no longer the one planned from.
  static func merge(_ fetched: [City], plan: RefreshPlan, into record: (City) throws -> Void) throws -> Int {
    var replaced: [Int: City] = [:]
    var added: [City] = []
    for (c, city) in zip(plan.chosen, fetched) {
      if let p = c.position { replaced[p] = city } else { added.append(city) }
    }
    let catalogue = try Catalogue(path: plan.path)
    defer { catalogue.close() }
    guard catalogue.meta.generation == plan.basis.generation else { throw SyncError.catalogueChanged }
    let count = catalogue.meta.count
    for start in stride(from: 0, to: count, by: CatalogueKey.citiesPerBlock) {
      let page = try catalogue.page(order: .catalogue, offset: start, limit: CatalogueKey.citiesPerBlock)
      catalogue.forgetBlocks()
      for (k, city) in page.enumerated() { try record(replaced[start + k] ?? city) }
    }
    for city in added { try record(city) }
    return count + added.count
  }

  /// The plan's cities with their new weather, in the plan's order.
  package func weather() async throws(SyncError) -> [City] {
    try Fetcher.validate(url: config.url)
    let cities = plan.cities
    if cities.isEmpty { throw .noRecords(url: Redact.url(config.url)) }
    let batches = Self.batched(cities)
    let config = self.config
    let days = min(max(config.days, Self.days.lowerBound), Self.days.upperBound)
    let query =
      "current=\(OpenMeteoDecoder.current.joined(separator: ","))"
      + "&daily=\(OpenMeteoDecoder.daily.joined(separator: ","))&forecast_days=\(days)"
      + "&hourly=\(OpenMeteoDecoder.hourly.joined(separator: ","))&forecast_hours=\(Self.hours)"
    let results = try await Fetcher.inParallel(batches.count, limit: Self.maxInFlight, url: config.url) {
      (b: Int) async throws(SyncError) -> [City] in
      let asked = batches[b]
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
    return results.flatMap { $0 }
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
