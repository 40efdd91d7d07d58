/// A `ws://` or `wss://` URL, split into what a connection needs.
package struct WebSocketURL: Equatable, Sendable, CustomStringConvertible {
  package var secure: Bool
  /// The host name or address as written; IPv6 addresses without their brackets.
  package var host: String
  package var port: Int
  /// Path and query, at least `/`.
  package var target: String

  package var scheme: String { secure ? "wss" : "ws" }
  var isDefaultPort: Bool { port == (secure ? 443 : 80) }
  var hostIsIPv6: Bool { host.contains(":") }

  /// The `Host` header: host, and port unless it is the scheme's default.
  package var hostHeader: String {
    let h = hostIsIPv6 ? "[\(host)]" : host
    return isDefaultPort ? h : "\(h):\(port)"
  }

  package var description: String { "\(scheme)://\(hostHeader)\(target)" }

  /// Parses `ws[s]://host[:port][/path][?query]` (a `#fragment` is dropped).
  package init(parsing text: String) throws(WebSocketURLError) {
    let lower = text.lowercased()
    let rest: Substring
    if lower.hasPrefix("ws://") {
      secure = false
      rest = text.dropFirst(5)
    } else if lower.hasPrefix("wss://") {
      secure = true
      rest = text.dropFirst(6)
    } else {
      throw WebSocketURLError(url: text, reason: "it does not start with ws:// or wss://")
    }
    var remainder = rest
    if let hash = remainder.firstIndex(of: "#") { remainder = remainder[..<hash] }
    let authorityEnd = remainder.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? remainder.endIndex
    let authority = remainder[..<authorityEnd]
    var path = String(remainder[authorityEnd...])
    if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
    guard !authority.contains("@") else {
      throw WebSocketURLError(url: text, reason: "user names and passwords in the URL are not supported")
    }
    var hostPart: Substring
    var portPart: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else {
        throw WebSocketURLError(url: text, reason: "an IPv6 address is missing its closing ]")
      }
      hostPart = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw WebSocketURLError(url: text, reason: "unexpected text after the host") }
        portPart = after.dropFirst()
      }
    } else if let colon = authority.firstIndex(of: ":") {
      hostPart = authority[..<colon]
      portPart = authority[authority.index(after: colon)...]
    } else {
      hostPart = authority
    }
    guard !hostPart.isEmpty else { throw WebSocketURLError(url: text, reason: "it has no host") }
    // DNS names end at 253 characters: a longer one can never connect, so it is refused here
    // instead of being retried for ever.
    guard hostPart.utf8.count <= 253 else {
      throw WebSocketURLError(url: text, reason: "the host name is longer than 253 characters")
    }
    guard hostPart.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "%" }) else {
      throw WebSocketURLError(url: text, reason: "the host name is not valid")
    }
    host = String(hostPart)
    if let portPart {
      guard portPart.allSatisfy({ $0.isASCII && $0.isNumber }), let p = Int(portPart), (1...65535).contains(p) else {
        throw WebSocketURLError(url: text, reason: "the port is not a number from 1 to 65535")
      }
      port = p
    } else {
      port = secure ? 443 : 80
    }
    guard !path.contains(where: { $0.isWhitespace || ($0.asciiValue.map { $0 < 0x20 } ?? false) }) else {
      throw WebSocketURLError(url: text, reason: "the path contains spaces or control characters")
    }
    target = path
  }
}

/// A feed URL that cannot be used.
package struct WebSocketURLError: Error, Equatable, Sendable, CustomStringConvertible {
  package var url: String
  package var reason: String
  package var description: String { "bad feed URL \(Redact.url(url)): \(reason)" }
}
