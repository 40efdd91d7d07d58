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
  case redirectLoop
  case tooLarge(limit: Int)
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
    guard handle != nil else {
      var err = [CChar](repeating: 0, count: 256)
      _ = wx_http_load(&err, err.count)
      throw .unavailable(String(cString: err))
    }
    var r = wx_http_response()
    defer { wx_http_response_free(&r) }
    let rc = wx_http_get(handle, url, Int(timeout * 1000), maxBytes, "wx/1.0 (+https://github.com/wx)", &r)
    if rc != 0 {
      if r.too_large != 0 { throw .tooLarge(limit: maxBytes) }
      let message = withUnsafeBytes(of: r.error) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      switch r.curl_code {
      case 1, 3: throw .badURL(message)
      case 28: throw .timeout
      case 47: throw .redirectLoop
      default: throw .unreachable(message)
      }
    }
    let contentType = withUnsafeBytes(of: r.content_type) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
    let retryAfter = withUnsafeBytes(of: r.retry_after) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
    let body = r.body_len > 0 ? [UInt8](UnsafeBufferPointer(start: r.body, count: r.body_len)) : []
    return HTTPResponse(status: Int(r.status), contentType: contentType, retryAfter: retryAfter, body: body)
  }
}
