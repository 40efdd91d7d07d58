import WXFeed

/// Why a sync failed. Whatever the reason, the stores are untouched.
package enum SyncError: Error, Equatable, Sendable {
  /// Only http and https URLs are accepted; or the URL is malformed.
  case badURL(String)
  /// No connection, DNS failure, TLS failure, connection reset.
  case unreachable(url: String, reason: String)
  case timeout(url: String, seconds: Double)
  case redirectLoop(url: String)
  /// A redirect to a scheme wx does not follow (`file://`, `ftp://`…), naming its target.
  case redirectRefused(url: String, target: String)
  /// A 5xx, or a 429 after the one retry.
  case serverError(url: String, status: Int)
  /// A 429 after the one retry, with the server's reason when it gave one.
  case rateLimited(url: String, reason: String?)
  /// A 4xx whose body gave a reason (Open-Meteo's `{"error": true, "reason": …}`).
  case rejected(url: String, status: Int, reason: String)
  /// A 401 or 403: the API key is wrong (`keyed`), or an API that takes no key refused access.
  case unauthorized(url: String, status: Int, keyed: Bool)
  /// Other 4xx.
  case clientError(url: String, status: Int)
  case notJSON(url: String, contentType: String)
  case tooLarge(url: String, limit: Int)
  case badPayload(url: String, reason: String)
  /// More pages than wx reads: a server that never stops, or pages too small.
  case tooManyPages(url: String, pages: Int)
  case noRecords(url: String)
  /// The download would replace a catalogue of `from` cities with `to`, fewer than a tenth.
  case shrinks(url: String, from: Int, to: Int)
  case missingKey(provider: String)
  /// Another sync replaced the catalogue while this one was refreshing its cities' weather.
  case catalogueChanged
  case libraryMissing(String)
}

extension SyncError: CustomStringConvertible {
  /// The one-line message of a catalogue sync.
  package var description: String { message(unchanged: "your catalogue") }

  /// The one-line message, saying that `kept` (the store the sync would have replaced: "your
  /// catalogue", "the air-quality history") is unchanged. Every URL in it goes through
  /// ``Redact/url(_:)`` here, whoever built the error: no password, key or token, and no
  /// control character, is ever printed.
  package func message(unchanged kept: String) -> String {
    let r = Redact.url
    let unchanged = "\(kept) is unchanged"
    switch self {
    case .badURL(let url): return "\"\(r(url))\" is not a usable URL (wx accepts http:// and https:// URLs)"
    case .unreachable(let url, let reason): return "cannot reach \(r(url)): \(reason); \(unchanged)"
    case .timeout(let url, let s):
      return "no complete answer from \(r(url)) within \(JSONWriter.number(s)) s; \(unchanged)"
    case .redirectLoop(let url): return "\(r(url)) redirects in a loop; \(unchanged)"
    case .redirectRefused(let url, let target):
      return "\(r(url)) redirects to \(r(target)), which wx does not follow (only usable http:// and https:// URLs); "
        + "\(unchanged)"
    case .serverError(let url, let status):
      return "the API answered HTTP \(status) for \(r(url)); try again later (\(unchanged))"
    case .rateLimited(let url, let reason):
      // The server's sentence loses its full stop: "…in one minute; try again later", not ".;".
      var why = reason.map { Redact.text($0) } ?? ""
      while let last = why.last, ".;, ".contains(last) { why.removeLast() }
      return "the API is rate-limiting requests (HTTP 429) at \(r(url))\(why.isEmpty ? "" : ": " + why); "
        + "try again later (\(unchanged))"
    case .rejected(let url, let status, let reason):
      return "the API refused the request (HTTP \(status)) at \(r(url)): \(Redact.text(reason)); \(unchanged)"
    case .unauthorized(let url, let status, let keyed):
      return "the API refused \(keyed ? "the key" : "access") (HTTP \(status)) at \(r(url))"
    case .clientError(let url, let status): return "the API answered HTTP \(status) for \(r(url))"
    case .notJSON(let url, let type):
      let what = type.lowercased().contains("html") ? "an HTML page" : type.isEmpty ? "untyped data" : Redact.text(type)
      return "\(r(url)) sent \(what) instead of JSON; \(unchanged)"
    case .tooLarge(let url, let limit):
      return "the response from \(r(url)) is larger than \(limit / 1_048_576) MiB; refusing it"
    case .badPayload(let url, let reason): return "bad data from \(r(url)): \(reason); \(unchanged)"
    case .tooManyPages(let url, let pages): return "\(r(url)) sent more than \(pages) pages; \(unchanged)"
    case .noRecords(let url): return "\(r(url)) returned no records; \(unchanged)"
    case .shrinks(let url, let from, let to):
      return "\(r(url)) sent \(to) \(to == 1 ? "city" : "cities") for a catalogue of \(from): "
        + "refusing to drop more than 90 % of it; \(unchanged)"
    case .missingKey(let provider):
      return "\(provider) needs an API key"
    case .catalogueChanged:
      return "the catalogue was replaced while its weather was being fetched; run the sync again (nothing was changed)"
    case .libraryMissing(let why): return "cannot use the network: \(Redact.text(why)) (install libcurl4)"
    }
  }
}

extension SyncError {
  /// What to do about it, when it is something the person can change.
  package var remedy: Remedy? {
    switch self {
    case .unauthorized(_, _, let keyed): return keyed ? .checkTheKey : nil
    case .missingKey: return .giveAKey
    case .shrinks: return .allowShrink
    case .tooManyPages: return .largerPages
    default: return nil
    }
  }
}

extension SyncError {
  /// The error with every secret hidden from every text in it (``Redact/hiding(_:in:)``):
  /// what a server echoes (the key in a reason, a header, a redirect target) is printed
  /// without it.
  package func hiding(_ secrets: [String]) -> SyncError {
    let h = { (text: String) in Redact.hiding(secrets, in: text) }
    switch self {
    case .badURL(let url): return .badURL(h(url))
    case .unreachable(let url, let reason): return .unreachable(url: h(url), reason: h(reason))
    case .timeout(let url, let seconds): return .timeout(url: h(url), seconds: seconds)
    case .redirectLoop(let url): return .redirectLoop(url: h(url))
    case .redirectRefused(let url, let target): return .redirectRefused(url: h(url), target: h(target))
    case .serverError(let url, let status): return .serverError(url: h(url), status: status)
    case .rateLimited(let url, let reason): return .rateLimited(url: h(url), reason: reason.map(h))
    case .rejected(let url, let status, let reason): return .rejected(url: h(url), status: status, reason: h(reason))
    case .unauthorized(let url, let status, let keyed): return .unauthorized(url: h(url), status: status, keyed: keyed)
    case .clientError(let url, let status): return .clientError(url: h(url), status: status)
    case .notJSON(let url, let type): return .notJSON(url: h(url), contentType: h(type))
    case .tooLarge(let url, let limit): return .tooLarge(url: h(url), limit: limit)
    case .badPayload(let url, let reason): return .badPayload(url: h(url), reason: h(reason))
    case .tooManyPages(let url, let pages): return .tooManyPages(url: h(url), pages: pages)
    case .noRecords(let url): return .noRecords(url: h(url))
    case .shrinks(let url, let from, let to): return .shrinks(url: h(url), from: from, to: to)
    case .missingKey, .catalogueChanged: return self
    case .libraryMissing(let why): return .libraryMissing(h(why))
    }
  }
}
