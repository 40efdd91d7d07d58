import WXFeed

/// A source of catalogue records.
package protocol WeatherProvider: Sendable {
  /// Short name recorded in the catalogue (`freetestapi`, `accuweather`, `open-meteo`).
  var name: String { get }
  /// Downloads and validates every record; touches no store. Throws a ``SyncError`` (or,
  /// for a provider that reads the current catalogue, a ``StoreError``).
  func fetch() async throws -> [City]
  /// Downloads and validates every record, handing each to `record` as soon as it is
  /// validated; returns how many. Throws a ``SyncError``, or what `record` threw.
  func stream(into record: (City) throws -> Void) async throws -> Int
}

extension WeatherProvider {
  /// Providers whose answers are small (a few hundred cities) fetch, then hand each on.
  package func stream(into record: (City) throws -> Void) async throws -> Int {
    let cities = try await fetch()
    for city in cities { try record(city) }
    return cities.count
  }
}

/// freetestapi's `/api/v1/weathers`, paginated with `page` and `limit`.
///
/// Paging stops at an empty or short page. The live server ignores `page` and sends the same
/// records again: a full page of records already seen switches to asking for page 1 with a
/// growing `limit` (2×, 4×, 8×… the page size: O(log n) requests) until a short answer, and a
/// repeat after that ends the sync. Identity of a record is (id, city, country): the two id-45 records are distinct,
/// a repeated record is not duplicated.
package struct FreeTestAPIProvider: WeatherProvider {
  package let config: ProviderConfig
  package var name: String { "freetestapi" }
  package static let defaultURL = "https://freetestapi.com/api/v1/weathers"
  /// More pages, or more records in all, is a server that never stops: bad data.
  static let maxPages = 100_000
  static let maxRecords = 1_000_000
  /// A page of at least this many records of which more than half repeat another record of
  /// the same page is degenerate (bad data), not a catalogue.
  static let degenerateMinimum = 10

  package init(config: ProviderConfig) { self.config = config }

  package func fetch() async throws(SyncError) -> [City] {
    var cities: [City] = []
    do {
      _ = try await stream { cities.append($0) }
    } catch let error as SyncError {
      throw error
    } catch {
      throw .badPayload(url: Redact.url(config.url), reason: "\(error)")  // unreachable: appending throws nothing
    }
    return cities
  }

  /// Pages are read as they arrive (``FreeTestAPIStream``): each new record goes to `record`
  /// at once, so neither a response nor the catalogue is ever held. Records already seen are
  /// recognised by a 64-bit hash of their identity (8 bytes a record; two distinct records
  /// collide with odds of about 3 in 100 million at a million records).
  package func stream(into record: (City) throws -> Void) async throws -> Int {
    try Fetcher.validate(url: config.url)
    let fetcher = Fetcher(config)
    var seen = Set<Int>()
    var total = 0
    var page = 1
    // Set once the server is seen to ignore `page`: then ask for ever larger `limit`s instead,
    // doubling each time (capped past the most records wx takes), so any catalogue takes
    // O(log n) requests and about twice its records, not n/limit requests and n²/limit records.
    var growingLimit = false
    var limit = config.perPage
    while true {
      guard page <= Self.maxPages else {
        throw SyncError.tooManyPages(url: config.url, pages: Self.maxPages)
      }
      let query = growingLimit ? "page=1&limit=\(limit)" : "page=\(page)&limit=\(limit)"
      let url = config.url(adding: query)
      var onPage = Set<Int>()
      var count = 0
      var fresh = 0
      var repeats = 0
      func take(_ city: City) throws {
        let identity = Self.identity(city)
        count += 1
        if !onPage.insert(identity).inserted { repeats += 1 }
        guard seen.insert(identity).inserted else { return }
        fresh += 1
        total += 1
        if total > Self.maxRecords {
          throw SyncError.badPayload(url: url, reason: "more than \(Self.maxRecords) records")
        }
        try record(city)
      }
      var decoder = FreeTestAPIStream()
      var failure: (any Error)?
      try fetcher.stream(url) { chunk in
        do { try decoder.feed(chunk, take) } catch { failure = error }
        return failure == nil
      }
      if failure == nil {
        do { try decoder.finish(take) } catch { failure = error }
      }
      if let error = failure as? PayloadError {
        throw SyncError.badPayload(url: url, reason: page > 1 ? "page \(page): \(error.reason)" : error.reason)
      } else if let failure {
        throw failure
      }
      if count == 0 {
        if page == 1 { throw SyncError.noRecords(url: url) }
        break
      }
      // Records seen on earlier pages are how a server that ignores `page` shows itself;
      // only repeats within this one page are degenerate.
      if fresh * 2 < count, count >= Self.degenerateMinimum, repeats * 2 > count {
        throw SyncError.badPayload(
          url: url, reason: "page \(page): \(repeats) of its \(count) records repeat another record of the page")
      }
      config.progress?(page, total)
      if count < limit { break }
      if fresh == 0 {
        // A full page of records already seen: the server ignores `page` (as the live
        // freetestapi does). Switch once to growing the limit; a repeat after that ends it.
        if growingLimit { break }
        growingLimit = true
      }
      if growingLimit { limit = min(limit * 2, Self.maxRecords + 1) }
      page += 1
    }
    return total
  }

  /// What makes a record distinct, hashed: the live API reuses ids, so the id alone is not enough.
  static func identity(_ city: City) -> Int {
    var h = Hasher()
    h.combine(city.id)
    h.combine(city.name)
    h.combine(city.country)
    return h.finalize()
  }
}
