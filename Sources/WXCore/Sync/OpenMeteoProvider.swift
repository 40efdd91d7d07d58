import WXFeed

/// Real weather from Open-Meteo for the cities of a ``RefreshPlan``, by coordinates: it only
/// fetches and decodes (it opens no store; ``Refresher`` merges and publishes).
///
/// The plan's cities are asked for in batches of ``batchSize`` locations a request, at most
/// ``maxInFlight`` requests at a time; answers are matched to cities by position in their
/// batch. All or nothing: a batch that fails fails the sync, and nothing is published.
package struct OpenMeteoProvider: Sendable {
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

  /// The fetched cities, encoded (``City/encoded()``) into a ``SpillBuffer`` as each batch
  /// arrives: in memory up to 1 MiB, then in a nameless temporary file beside the catalogue.
  /// A sync's memory does not grow with the places it fetches (12 KB a place as values).
  package final class Fetched {
    let buffer: SpillBuffer
    /// Each plan position's offset and length in ``buffer``.
    private(set) var spans: [(offset: Int, length: Int)]

    init(count: Int, directory: String) {
      buffer = SpillBuffer(directory: directory, spillAbove: 1 << 20)
      spans = Array(repeating: (0, 0), count: count)
    }

    func add(_ city: City, at index: Int) throws(StoreError) {
      let bytes = city.encoded()
      spans[index] = (try buffer.append(bytes), bytes.count)
    }

    package var count: Int { spans.count }

    /// The city fetched for plan position `index`.
    package func city(_ index: Int) throws -> City {
      var bytes: [UInt8] = []
      try buffer.read(at: spans[index].offset, length: spans[index].length, into: &bytes)
      var r = ByteReader(bytes)
      return try City(decoding: &r, version: CityRecord.version)
    }
  }

  /// The plan's cities with their new weather, in the plan's order, encoded as they arrive
  /// (``Fetched``).
  package func weather() async throws -> Fetched {
    try Fetcher.validate(url: config.url)
    // Batches are ranges of the plan, their cities taken when asked: no copy of the plan.
    let (plan, total) = (self.plan, self.plan.chosen.count)
    if total == 0 { throw SyncError.noRecords(url: Redact.url(config.url)) }
    let batches = stride(from: 0, to: total, by: Self.batchSize).map { $0..<min(total, $0 + Self.batchSize) }
    let config = self.config
    let days = min(max(config.days, Self.days.lowerBound), Self.days.upperBound)
    let query =
      "current=\(OpenMeteoDecoder.current.joined(separator: ","))"
      + "&daily=\(OpenMeteoDecoder.daily.joined(separator: ","))&forecast_days=\(days)"
      + "&hourly=\(OpenMeteoDecoder.hourly.joined(separator: ","))&forecast_hours=\(Self.hours)"
    let fetched = Fetched(count: total, directory: FileSystem.directoryName(plan.path))
    try await Fetcher.inParallel(batches.count, limit: Self.maxInFlight, url: config.url) {
      (b: Int) async throws(SyncError) -> [City] in
      let asked = batches[b].map { plan.chosen[$0].city }
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
    } each: { b, batch in
      for (k, city) in batch.enumerated() { try fetched.add(city, at: b * Self.batchSize + k) }
    }
    return fetched
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
