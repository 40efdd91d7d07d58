internal import CCurl

/// A received HTTP response.
package struct HTTPResponse: Sendable {
  package var status: Int
  package var contentType: String
  package var retryAfter: String
  package var body: [UInt8]
}

/// Why a request produced no response.
package enum HTTPFailure: Error, Equatable, Sendable {
  case unreachable(String)
  case timeout
  /// The server sent nothing for `seconds` (curl's low-speed limit: a slowloris), before the
  /// whole request's timeout.
  case stalled(seconds: Double)
  /// The answer's headers are larger than libcurl takes (or memory ran out reading them).
  case headersTooLarge
  case redirectLoop
  /// A redirect to a scheme other than http(s): curl refused to follow it to `target`.
  case redirectRefused(target: String)
  case tooLarge(limit: Int)
  /// The server answered, in a content encoding (gzip, br…) that does not decode: bad data.
  case badEncoding
  case badURL(String)
  case unavailable(String)
}

/// GET over libcurl (loaded on first use). One session per task: not thread-safe.
package final class HTTPSession: @unchecked Sendable {
  private let handle: UnsafeMutableRawPointer?
  package let timeout: Double
  package let maxBytes: Int

  package init(timeout: Double, maxBytes: Int) {
    handle = wx_http_session_new()
    self.timeout = timeout
    self.maxBytes = maxBytes
  }

  deinit { wx_http_session_free(handle) }

  package func get(_ url: String) throws(HTTPFailure) -> HTTPResponse {
    try perform(url, nil, nil)
  }

  /// A chunk of a body as it arrives, with the response's status and Content-Type; returns
  /// false to stop the transfer.
  package typealias BodyChunk = (_ chunk: UnsafeRawBufferPointer, _ status: Int, _ contentType: String) -> Bool

  /// GET, handing the body to `onBody` as it arrives instead of holding it (the size cap
  /// still applies). The response's `body` is empty. When `onBody` stops the transfer, this
  /// returns normally: the caller knows why.
  package func get(_ url: String, onBody: BodyChunk) throws(HTTPFailure) -> HTTPResponse {
    final class Box {
      let call: BodyChunk
      init(_ call: @escaping BodyChunk) { self.call = call }
    }
    return try withoutActuallyEscaping(onBody) { (escaping) throws(HTTPFailure) -> HTTPResponse in
      let box = Box(escaping)
      return try withExtendedLifetime(box) { () throws(HTTPFailure) -> HTTPResponse in
        try perform(url, Unmanaged.passUnretained(box).toOpaque()) { ctx, data, len, status, type in
          let box = Unmanaged<Box>.fromOpaque(ctx!).takeUnretainedValue()
          let contentType = type.map { String(cString: $0) } ?? ""
          return box.call(UnsafeRawBufferPointer(start: data, count: len), status, contentType) ? 0 : 1
        }
      }
    }
  }

  private func perform(_ url: String, _ ctx: UnsafeMutableRawPointer?, _ fn: wx_http_body_fn?) throws(HTTPFailure)
    -> HTTPResponse
  {
    guard handle != nil else {
      var err = [CChar](repeating: 0, count: 256)
      _ = wx_http_load(&err, err.count)
      throw .unavailable(String(decoding: err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    var r = wx_http_response()
    defer { wx_http_response_free(&r) }
    // libcurl reads a timeout of 0 as "none": never pass it one (nor a NaN or infinity).
    let milliseconds = timeout.isFinite ? max(1, Int(min(timeout, 86_400) * 1000)) : 30_000
    let started = Clock.monotonic()
    let rc = wx_http_get(handle, url, milliseconds, maxBytes, "wx/1.0 (+https://github.com/wx)", &r, fn, ctx)
    if rc != 0 && r.stopped == 0 {
      if r.too_large != 0 { throw .tooLarge(limit: maxBytes) }
      switch r.curl_code {
      case 1, 3:
        if r.curl_code == 1 && r.redirects > 0 {
          throw .redirectRefused(target: withUnsafeBytes(of: r.last_url) { Self.cString($0) })
        }
        if (300..<400).contains(r.status) && r.location.0 != 0 {
          // A redirect to a target libcurl cannot parse (a bad port, a space, a broken IPv6
          // literal): the server's fault, named as the server sent it, not the user's --url.
          throw .redirectRefused(target: withUnsafeBytes(of: r.location) { Self.cString($0) })
        }
        // The URL was checked before (http or https, well formed): an "unsupported protocol"
        // now is the server's answer (HTTP/0.9, or another protocol on the port).
        if r.curl_code == 1 { throw .unreachable(Self.reason(8)) }
        throw .badURL(Self.reason(r.curl_code))
      case 28:
        // The low-speed limit (nothing for `stall` seconds) ends a transfer before the timeout.
        let stall = Double(Self.stallSeconds(milliseconds))
        if stall < timeout, Clock.monotonic() - started < timeout * 0.9 { throw .stalled(seconds: stall) }
        throw .timeout
      case 27, 100: throw .headersTooLarge
      case 47: throw .redirectLoop
      case 61: throw .badEncoding
      default: throw .unreachable(Self.reason(r.curl_code))
      }
    }
    let contentType = withUnsafeBytes(of: r.content_type) { Self.cString($0) }
    let retryAfter = withUnsafeBytes(of: r.retry_after) { Self.cString($0) }
    let body = r.body_len > 0 ? [UInt8](UnsafeBufferPointer(start: r.body, count: r.body_len)) : []
    return HTTPResponse(status: Int(r.status), contentType: contentType, retryAfter: retryAfter, body: body)
  }

  /// The seconds without a byte after which a transfer is given up (wxhttp.c: the timeout's,
  /// at most 10, at least 1).
  static func stallSeconds(_ timeoutMilliseconds: Int) -> Int { max(1, min(timeoutMilliseconds / 1000, 10)) }

  /// A NUL-terminated C array field as a String (invalid UTF-8 repaired).
  static func cString(_ raw: UnsafeRawBufferPointer) -> String {
    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
  }

  /// Why a transfer failed, in wx's words: libcurl's own text is never printed (it is not
  /// ours to word, and may quote what the server sent).
  static func reason(_ curlCode: Int32) -> String {
    switch curlCode {
    case 1: return "unsupported protocol"
    case 3: return "malformed URL"
    case 5: return "cannot resolve the proxy"
    case 6: return "cannot resolve the host name"
    case 7: return "connection refused or no route to the host"
    case 8: return "the server's answer is not HTTP"
    case 16: return "HTTP/2 protocol error"
    case 18, 56: return "the connection broke before the whole answer arrived"
    case 23: return "the answer could not be taken in"
    case 35: return "the TLS handshake failed"
    case 51, 60: return "the server's TLS certificate is not trusted"
    case 52: return "the server closed the connection without answering"
    case 55: return "the connection broke while sending the request"
    case 61: return "the answer's content encoding is corrupt"
    default: return "the transfer failed (libcurl error \(curlCode))"
    }
  }
}
