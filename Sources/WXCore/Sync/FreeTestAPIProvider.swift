#if canImport(Glibc)
  import Glibc
#endif

/// Where a provider's records come from and how to report progress.
package struct FetchOptions: Sendable {
  package var url: String
  package var perPage: Int
  package var timeout: Double
  package var maxBytes: Int
  package var progress: (@Sendable (_ page: Int, _ records: Int) -> Void)?

  package init(
    url: String, perPage: Int = 1000, timeout: Double = 30, maxBytes: Int = 128 << 20,
    progress: (@Sendable (_ page: Int, _ records: Int) -> Void)? = nil
  ) {
    self.url = url
    self.perPage = perPage
    self.timeout = timeout
    self.maxBytes = maxBytes
    self.progress = progress
  }
}

/// A source of catalogue records.
package protocol WeatherProvider: Sendable {
  /// Short name recorded in the catalogue (`freetestapi`, `accuweather`).
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
  package let options: FetchOptions
  package var name: String { "freetestapi" }
  package static let defaultURL = "https://freetestapi.com/api/v1/weathers"
  /// More pages, or more records in all, is a server that never stops: bad data.
  static let maxPages = 100_000
  static let maxRecords = 1_000_000
  /// A page of at least this many records of which more than half repeat another record of
  /// the same page is degenerate (bad data), not a catalogue.
  static let degenerateMinimum = 10

  package init(options: FetchOptions) { self.options = options }

  package func fetch() async throws(SyncError) -> [City] {
    try Self.validate(url: options.url)
    let session = HTTPSession(timeout: options.timeout, maxBytes: options.maxBytes)
    var cities: [City] = []
    var seen = Set<RecordIdentity>()
    var page = 1
    // Set once the server is seen to ignore `page`: then ask for ever larger `limit`s instead.
    var growingLimit = false
    while true {
      guard page <= Self.maxPages else {
        throw .badPayload(url: options.url, reason: "more than \(Self.maxPages) pages; try a larger --per-page")
      }
      let limit = growingLimit ? options.perPage * page : options.perPage
      let query = growingLimit ? "page=1&limit=\(limit)" : "page=\(page)&limit=\(limit)"
      let url = options.url + (options.url.contains("?") ? "&" : "?") + query
      let body = try Self.get(session, url)
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
      options.progress?(page, cities.count)
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

  /// Only http and https, with a host.
  package static func validate(url: String) throws(SyncError) {
    let lower = url.lowercased()
    guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { throw .badURL(url) }
    let rest = lower.drop(while: { $0 != "/" }).dropFirst(2)
    guard let first = rest.first, first != "/", first != "?",
      !url.unicodeScalars.contains(where: { StoredText.isControlOrFormat($0) || $0.properties.isWhitespace })
    else { throw .badURL(url) }
  }

  /// One GET with status and content-type checks; honours one `Retry-After` (≤ 30 s) on 429.
  static func get(_ session: HTTPSession, _ url: String) throws(SyncError) -> [UInt8] {
    var retried = false
    while true {
      let response: HTTPResponse
      do throws(HTTPFailure) {
        response = try session.get(url)
      } catch {
        switch error {
        case .unreachable(let why): throw .unreachable(url: Redact.url(url), reason: why)
        case .timeout: throw .timeout(url: Redact.url(url), seconds: session.timeout)
        case .redirectLoop: throw .redirectLoop(url: Redact.url(url))
        case .redirectRefused(let target): throw .redirectRefused(url: Redact.url(url), target: Redact.url(target))
        case .tooLarge(let limit): throw .tooLarge(url: Redact.url(url), limit: limit)
        case .badURL: throw .badURL(Redact.url(url))
        case .unavailable(let why): throw .libraryMissing(why)
        }
      }
      switch response.status {
      case 200..<300:
        let type = response.contentType.lowercased()
        if !type.isEmpty && !type.contains("json") { throw .notJSON(url: Redact.url(url), contentType: response.contentType) }
        return response.body
      case 429:
        // Seconds (an HTTP date or nothing counts as 1 s); NaN, negative or over 30 s: give up.
        let wait = Double(response.retryAfter.trimmingSpaces) ?? 1
        if retried || !(0...30).contains(wait) { throw .rateLimited(url: Redact.url(url)) }
        retried = true
        var ts = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - Double(Int(wait))) * 1e9))
        nanosleep(&ts, nil)
      case 401, 403: throw .unauthorized(url: url, status: response.status)
      case 500..<600: throw .serverError(url: Redact.url(url), status: response.status)
      default: throw .clientError(url: Redact.url(url), status: response.status)
      }
    }
  }
}
