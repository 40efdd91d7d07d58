import Dispatch
import WXFeed

import Glibc

/// What every provider is given: where to fetch, how long to wait, how much to accept, whom
/// to tell about progress, and the extras only some providers read.
package struct ProviderConfig: Sendable {
  package var url: String
  package var timeout: Double
  package var maxBytes: Int
  /// Called after each page or batch with its number and the records so far.
  package var progress: (@Sendable (_ step: Int, _ records: Int) -> Void)?
  /// freetestapi: records per page.
  package var perPage: Int
  /// AccuWeather: the key (never printed) and how many top cities to keep.
  package var apiKey: String?
  package var count: Int
  /// Open-Meteo: forecast days to keep (1…16).
  package var days: Int
  /// The forecast days kept unless asked otherwise: today and tomorrow.
  package static let defaultDays = 2

  package init(
    url: String, timeout: Double = 30, maxBytes: Int = 128 << 20,
    progress: (@Sendable (_ step: Int, _ records: Int) -> Void)? = nil,
    perPage: Int = 1000, apiKey: String? = nil, count: Int = 5, days: Int = ProviderConfig.defaultDays
  ) {
    // A fragment is never sent to the server, and a query appended after it would not be
    // either: it is dropped here, once, for every provider.
    self.url = url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url
    self.timeout = timeout
    self.maxBytes = maxBytes
    self.progress = progress
    self.perPage = perPage
    self.apiKey = apiKey
    self.count = count
    self.days = days
  }

  /// The base URL without a trailing slash.
  package var base: String { url.hasSuffix("/") ? String(url.dropLast()) : url }

  /// The URL with `query` added to its query. A URL that names no path gets the `/` that
  /// every request asks for, so what wx shows is what it asked: `http://h:1` with `page=1` is
  /// `http://h:1/?page=1`, not `http://h:1?page=1`.
  package func url(adding query: String) -> String {
    if let mark = url.firstIndex(of: "?") { return url + (url.index(after: mark) == url.endIndex ? "" : "&") + query }
    // What follows `scheme://`: the host, and the path when there is one.
    let rest = url.firstIndex(of: ":").map { url[url.index(after: $0)...].drop { $0 == "/" } } ?? Substring(url)
    return url + (rest.contains("/") ? "?" : "/?") + query
  }

  /// The URL with `path` appended to its path and `query` put before any query it has:
  /// `http://h/x?a=1` with `/y` and `k=2` is `http://h/x/y?k=2&a=1` (and with no `query`,
  /// `http://h/x/y?a=1`).
  package func url(path: String, query: String) -> String {
    let mark = url.firstIndex(of: "?")
    var prefix = String(url[..<(mark ?? url.endIndex)])
    if prefix.hasSuffix("/") { prefix.removeLast() }
    let existing = mark.map { String(url[url.index(after: $0)...]) } ?? ""
    let parameters = [query, existing].filter { !$0.isEmpty }.joined(separator: "&")
    return prefix + path + (parameters.isEmpty ? "" : "?" + parameters)
  }
}

/// The one HTTP client of every provider: URL check, status handling, size cap, one
/// `Retry-After` retry on 429, content-type check, and URLs redacted in every error.
///
/// One fetcher per task (it keeps one libcurl session, which is not thread-safe); run several
/// concurrently with ``get(_:shown:config:)``.
package final class Fetcher: @unchecked Sendable {
  /// The longest `Retry-After` wx waits for, in seconds; a longer one fails at once.
  package static let maxRetryAfter = 30.0
  let session: HTTPSession
  /// Whether requests carry an API key: a 401 or 403 then means the key is wrong.
  let keyed: Bool

  package init(_ config: ProviderConfig) {
    session = HTTPSession(timeout: config.timeout, maxBytes: config.maxBytes)
    keyed = config.apiKey != nil
  }

  /// The reason an error answer gives, when its body is a JSON object with a string
  /// `reason`, `message` or `error` (what most APIs send: Open-Meteo's
  /// `{"error": true, "reason": "…"}`, freetestapi's `{"error": "…"}`).
  static func jsonReason(_ body: [UInt8]) -> String? {
    guard let json = try? JSON.parse(body) else { return nil }
    for key in ["reason", "message", "error"] {
      if case .string(let text)? = json[key], !text.isEmpty {
        return text
      }
    }
    return nil
  }

  /// Only http and https, with a host, and no space or control character.
  package static func validate(url: String) throws(SyncError) {
    let lower = url.lowercased()
    guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { throw .badURL(url) }
    let rest = lower.drop(while: { $0 != "/" }).dropFirst(2)
    guard let first = rest.first, first != "/", first != "?",
      !url.unicodeScalars.contains(where: { StoredText.isControlOrFormat($0) || $0.properties.isWhitespace })
    else { throw .badURL(url) }
    // A host name past DNS's 253 characters can never be reached.
    let host = rest.prefix { !"/?#".contains($0) }.split(separator: "@").last ?? ""
    guard host.utf8.count <= 253 + 6 else { throw .badURL(url) }  // + ":65535"
  }

  /// One GET: a 2xx JSON body, or the error that says why not, naming `shown` (by default
  /// the URL itself), redacted.
  package func get(_ url: String, shown: String? = nil) throws(SyncError) -> [UInt8] {
    try perform(url, shown: shown) { (u) throws(HTTPFailure) in try session.get(u) }.body
  }

  /// One GET whose 2xx JSON body goes to `body` chunk by chunk as it arrives, never held
  /// whole (the size cap still counts every byte); the same checks as ``get(_:shown:)``.
  /// `body` returns false to stop the transfer, and this then returns normally: the caller
  /// knows why. An error answer's body is kept (at most 64 KiB) for its reason.
  package func stream(_ url: String, shown: String? = nil, body: (UnsafeRawBufferPointer) -> Bool) throws(SyncError) {
    _ = try perform(url, shown: shown) { (u) throws(HTTPFailure) -> HTTPResponse in
      var kept: [UInt8] = []
      var response = try session.get(u) { chunk, status, type in
        if Self.isBody(status: status, contentType: type) { return body(chunk) }
        if kept.count < 65_536 { kept.append(contentsOf: chunk.prefix(65_536 - kept.count)) }
        return true
      }
      response.body = kept
      return response
    }
  }

  /// Whether an answer of this status and type is a body to decode.
  static func isBody(status: Int, contentType: String) -> Bool {
    (200..<300).contains(status) && (contentType.isEmpty || contentType.lowercased().contains("json"))
  }

  /// `send` (a GET of the URL it is given) with the status, retry and type checks.
  private func perform(
    _ url: String, shown: String?, _ send: (String) throws(HTTPFailure) -> HTTPResponse
  ) throws(SyncError) -> HTTPResponse {
    let shown = Redact.url(shown ?? url)
    var retried = false
    while true {
      let response: HTTPResponse
      do throws(HTTPFailure) {
        response = try send(url)
      } catch {
        switch error {
        case .unreachable(let why): throw .unreachable(url: shown, reason: why)
        case .timeout: throw .timeout(url: shown, seconds: session.timeout)
        case .stalled(let seconds):
          throw .unreachable(
            url: shown, reason: "the server stopped sending for \(JSONWriter.number(seconds)) s in the middle of its answer")
        case .headersTooLarge: throw .badPayload(url: shown, reason: "its headers are too large to take")
        case .redirectLoop: throw .redirectLoop(url: shown)
        case .redirectRefused(let target): throw .redirectRefused(url: shown, target: Redact.url(target))
        case .tooLarge(let limit): throw .tooLarge(url: shown, limit: limit)
        case .badEncoding: throw .badPayload(url: shown, reason: "the answer's content encoding is corrupt")
        case .badURL: throw .badURL(shown)
        case .unavailable(let why): throw .libraryMissing(why)
        }
      }
      // The server's words, redacted and cut: a hostile answer must not fill the terminal.
      let why =
        response.status >= 400
        ? Self.jsonReason(response.body).map { Redact.text($0.count > 200 ? String($0.prefix(200)) + "…" : $0) } : nil
      switch response.status {
      case 200..<300:
        if !Self.isBody(status: response.status, contentType: response.contentType) {
          throw .notJSON(url: shown, contentType: response.contentType)
        }
        return response
      case 429:
        // Seconds, or an HTTP date (one past is 0 s); nothing or anything else counts as 1 s.
        // NaN, negative or too long: give up.
        let wait = Self.retryAfter(response.retryAfter, now: Clock.now())
        if retried || !(0...Self.maxRetryAfter).contains(wait) { throw .rateLimited(url: shown, reason: why) }
        retried = true
        var ts = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - Double(Int(wait))) * 1e9))
        nanosleep(&ts, nil)
      case 401, 403: throw .unauthorized(url: shown, status: response.status, keyed: keyed)
      case 500..<600: throw .serverError(url: shown, status: response.status)
      default:
        // A 304 or 418 with no reason is refused all the same (and says the catalogue is unchanged).
        throw .rejected(url: shown, status: response.status, reason: why ?? "no reason given")
      }
    }
  }

  /// The seconds a `Retry-After` value asks for: a number as it is, an HTTP date (IMF-fixdate,
  /// `Sun, 06 Nov 1994 08:49:37 GMT`) as the time until it (0 once past), anything else 1.
  static func retryAfter(_ value: String, now: Int64) -> Double {
    let text = value.trimmingSpaces
    if let seconds = Double(text) { return seconds }
    let words = text.split(separator: " ")
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    let clock = words.count == 6 ? words[4].split(separator: ":").compactMap { Int32($0) } : []
    guard words.count == 6, words[0].hasSuffix(","), words[5] == "GMT", clock.count == 3,
      let day = Int32(words[1]), let month = months.firstIndex(where: { $0 == words[2] }), let year = Int32(words[3]),
      (1...31).contains(day), (1970...9999).contains(year), (0...23).contains(clock[0]), (0...59).contains(clock[1]),
      (0...60).contains(clock[2])
    else { return 1 }
    var parts = tm()
    (parts.tm_year, parts.tm_mon, parts.tm_mday) = (year - 1900, Int32(month), day)
    (parts.tm_hour, parts.tm_min, parts.tm_sec) = (clock[0], clock[1], clock[2])
    return Double(max(0, Int64(timegm(&parts)) - now))
  }

  /// One GET with a fetcher of its own on a Dispatch worker, so concurrent calls overlap.
  package static func get(
    _ url: String, shown: String? = nil, config: ProviderConfig
  ) async throws(SyncError) -> [UInt8] {
    try await onWorker { () throws(SyncError) in try Fetcher(config).get(url, shown: shown) }
  }

  /// `work` (blocking network calls) on a Dispatch worker, so concurrent calls overlap.
  package static func onWorker<T: Sendable>(_ work: @escaping @Sendable () throws(SyncError) -> T) async throws(SyncError) -> T {
    let result: Result<T, SyncError> = await withCheckedContinuation { cont in
      DispatchQueue.global().async {
        do throws(SyncError) {
          cont.resume(returning: .success(try work()))
        } catch {
          cont.resume(returning: .failure(error))
        }
      }
    }
    return try result.get()
  }
}

extension Fetcher {
  /// Runs `work` for `0..<count` with at most `limit` calls in flight and returns the results
  /// in index order. The first failure ends the run and is thrown; `url` names a cancellation.
  /// As ``inParallel(_:limit:url:_:)``, but each result is handed to `each` (on the calling
  /// task, one at a time, in the order they finish) instead of being held: a caller that
  /// stores them elsewhere holds at most `limit` results at once.
  package static func inParallel<T: Sendable>(
    _ count: Int, limit: Int, url: String, _ work: @escaping @Sendable (Int) async throws(SyncError) -> T,
    each: (Int, T) throws -> Void
  ) async throws {
    do {
      try await withThrowingTaskGroup(of: (Int, T).self) { group in
        var next = 0
        func launch() {
          let i = next
          next += 1
          group.addTask { (i, try await work(i)) }
        }
        while next < min(max(1, limit), count) { launch() }
        while let (i, value) = try await group.next() {
          try each(i, value)
          if next < count { launch() }
        }
      }
    } catch let e as SyncError {
      throw e
    } catch let e as StoreError {
      throw e
    } catch {
      throw SyncError.unreachable(url: Redact.url(url), reason: "cancelled")
    }
  }

  package static func inParallel<T: Sendable>(
    _ count: Int, limit: Int, url: String, _ work: @escaping @Sendable (Int) async throws(SyncError) -> T
  ) async throws(SyncError) -> [T] {
    var results = [T?](repeating: nil, count: count)
    do {
      try await inParallel(count, limit: limit, url: url, work) { i, value in results[i] = value }
    } catch let e as SyncError {
      throw e
    } catch {
      throw .unreachable(url: Redact.url(url), reason: "cancelled")
    }
    return results.map { $0! }
  }
}
