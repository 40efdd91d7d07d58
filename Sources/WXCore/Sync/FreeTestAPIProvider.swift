/// A source of catalogue records.
package protocol WeatherProvider: Sendable {
  /// Short name recorded in the catalogue (`freetestapi`, `accuweather`, `open-meteo`).
  var name: String { get }
  /// Downloads and validates every record; touches no store.
  func fetch() async throws(SyncError) -> [City]
}

/// freetestapi's `/api/v1/weathers`, paginated with `page` and `limit`.
///
/// Paging stops at an empty or short page. The live server ignores `page` and sends the same
/// records again: a full page of records already seen switches to asking for page 1 with a
/// growing `limit` (2×, 3×… the page size) until a short answer, and a repeat after that ends
/// the sync. Identity of a record is (id, city, country): the two id-45 records are distinct,
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
    try Fetcher.validate(url: config.url)
    let fetcher = Fetcher(config)
    var cities: [City] = []
    var seen = Set<RecordIdentity>()
    var page = 1
    // Set once the server is seen to ignore `page`: then ask for ever larger `limit`s instead.
    var growingLimit = false
    while true {
      guard page <= Self.maxPages else {
        throw .badPayload(url: config.url, reason: "more than \(Self.maxPages) pages; try a larger --per-page")
      }
      let limit = growingLimit ? config.perPage * page : config.perPage
      let query = growingLimit ? "page=1&limit=\(limit)" : "page=\(page)&limit=\(limit)"
      let url = config.url + (config.url.contains("?") ? "&" : "?") + query
      let body = try fetcher.get(url)
      let records: [City]
      do throws(PayloadError) {
        records = try FreeTestAPIDecoder.decode(body)
      } catch {
        throw .badPayload(url: url, reason: page > 1 ? "page \(page): \(error.reason)" : error.reason)
      }
      if records.isEmpty {
        if page == 1 { throw .noRecords(url: url) }
        break
      }
      var fresh = 0
      for city in records where seen.insert(RecordIdentity(city)).inserted {
        cities.append(city)
        fresh += 1
      }
      if fresh * 2 < records.count, records.count >= Self.degenerateMinimum {
        // Records seen on earlier pages are how a server that ignores `page` shows itself;
        // only repeats within this one page are degenerate.
        let repeats = records.count - Set(records.map(RecordIdentity.init)).count
        if repeats * 2 > records.count {
          throw .badPayload(
            url: url, reason: "page \(page): \(repeats) of its \(records.count) records repeat another record of the page")
        }
      }
      if cities.count > Self.maxRecords {
        throw .badPayload(url: url, reason: "more than \(Self.maxRecords) records")
      }
      config.progress?(page, cities.count)
      if records.count < limit { break }
      if fresh == 0 {
        // A full page of records already seen: the server ignores `page` (as the live
        // freetestapi does). Switch once to growing the limit; a repeat after that ends it.
        if growingLimit { break }
        growingLimit = true
      }
      page += 1
    }
    return cities
  }

  /// What makes a record distinct: the live API reuses ids, so the id alone is not enough.
  struct RecordIdentity: Hashable {
    var id: Int
    var name: String
    var country: String

    init(_ city: City) {
      id = city.id
      name = city.name
      country = city.country
    }
  }
}
