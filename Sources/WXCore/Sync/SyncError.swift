/// Why a sync failed. Whatever the reason, the stores are untouched.
package enum SyncError: Error, Equatable, Sendable {
  /// Only http and https URLs are accepted; or the URL is malformed.
  case badURL(String)
  /// No connection, DNS failure, TLS failure, connection reset.
  case unreachable(url: String, reason: String)
  case timeout(url: String, seconds: Double)
  case redirectLoop(url: String)
  /// A 5xx, or a 429 after the one retry.
  case serverError(url: String, status: Int)
  case rateLimited(url: String)
  /// A 401 or 403: the API key is missing or wrong.
  case unauthorized(url: String, status: Int)
  /// Other 4xx.
  case clientError(url: String, status: Int)
  case notJSON(url: String, contentType: String)
  case tooLarge(url: String, limit: Int)
  case badPayload(url: String, reason: String)
  case noRecords(url: String)
  case missingKey(provider: String)
  case libraryMissing(String)
}

extension SyncError: CustomStringConvertible {
  package var description: String {
    switch self {
    case .badURL(let url): return "\(url) is not a usable URL (wx accepts http:// and https:// URLs)"
    case .unreachable(let url, let reason): return "cannot reach \(url): \(reason); your catalogue is unchanged"
    case .timeout(let url, let s):
      return "no complete answer from \(url) within \(JSONWriter.number(s)) s; your catalogue is unchanged"
    case .redirectLoop(let url): return "\(url) redirects in a loop; your catalogue is unchanged"
    case .serverError(let url, let status):
      return "the API answered HTTP \(status) for \(url); try again later (your catalogue is unchanged)"
    case .rateLimited(let url):
      return "the API is rate-limiting requests (HTTP 429) at \(url); try again later"
    case .unauthorized(let url, let status):
      return "the API refused the key (HTTP \(status)) at \(Redact.url(url)); check --api-key"
    case .clientError(let url, let status): return "the API answered HTTP \(status) for \(url)"
    case .notJSON(let url, let type):
      let what = type.lowercased().contains("html") ? "an HTML page" : "\(type.isEmpty ? "untyped data" : type)"
      return "\(url) sent \(what) instead of JSON; your catalogue is unchanged"
    case .tooLarge(let url, let limit):
      return "the response from \(url) is larger than \(limit / 1_048_576) MiB; refusing it"
    case .badPayload(let url, let reason): return "bad data from \(url): \(reason); your catalogue is unchanged"
    case .noRecords(let url): return "\(url) returned no weather records; keeping the current catalogue"
    case .missingKey(let provider):
      return "\(provider) needs an API key: pass --api-key or set WX_ACCUWEATHER_KEY"
    case .libraryMissing(let why): return "cannot use the network: \(why) (install libcurl4)"
    }
  }
}

/// Keeps API keys out of messages: `apikey=SECRET` becomes `apikey=…`.
package enum Redact {
  package static func url(_ url: String) -> String {
    var out = ""
    var rest = Substring(url)
    while let r = rest.firstRange(of: "apikey=") {
      out += rest[..<r.upperBound] + "…"
      rest = rest[r.upperBound...]
      if let amp = rest.firstIndex(of: "&") { rest = rest[amp...] } else { rest = "" }
    }
    return out + rest
  }
}
