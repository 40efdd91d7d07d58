import Dispatch
import WXFeed
import WXLive

import Glibc

/// `wx-aqi-watch`: the WebSocket feed client behind `wx aqi watch`, in its own executable so
/// that `wx` links no SwiftNIO or OpenSSL (which cost every `wx` command start-up time).
///
///     wx-aqi-watch [--backoff-ms N] [--timeout SECONDS] [--no-retry] URL | --url-stdin
///
/// `wx` passes `--url-stdin` and writes the URL to its standard input: a URL's token on the
/// command line could be read by every local user (`/proc/PID/cmdline`) while the feed runs.
/// It connects, reconnects with exponential backoff, and writes ``FeedRecord``s to standard
/// output; `wx` reads them. SIGTERM, or `wx` going away (checked four times a second),
/// closes the connection with a close frame and exits 0. With `--no-retry`, a failed first connection is reported (`F`) and
/// exits 69. Not meant to be run by hand.
@main
enum FeedClient {
  static func main() async {
    signal(SIGPIPE, SIG_IGN)
    signal(SIGINT, SIG_IGN)

    var backoffMS = 500
    var timeout = 30.0
    var retry = true
    var urlText: String?
    var args = CommandLine.arguments.dropFirst()
    while let a = args.popFirst() {
      switch a {
      case "--backoff-ms":
        guard let v = args.popFirst().flatMap({ Int($0) }), v >= 1 else { usage() }
        backoffMS = v
      case "--timeout":
        guard let v = args.popFirst().flatMap({ Double($0) }), v >= 0 else { usage() }
        timeout = v
      case "--no-retry":
        retry = false
      case "--url-stdin":
        guard urlText == nil else { usage() }
        urlText = readURL()
      default:
        guard urlText == nil, !a.hasPrefix("-") else { usage() }
        urlText = a
      }
    }
    guard let urlText else { usage() }
    let url: WebSocketURL
    do {
      url = try WebSocketURL(parsing: urlText)
    } catch {
      fail(error.description, status: 78)
    }
    let client: WebSocketClient
    do {
      client = try WebSocketClient(url: url, timeout: timeout)
    } catch {
      emit(.failed("\(error)"))
      exit(69)
    }
    let feed = LiveFeed(
      client: client, backoff: ReconnectBackoff(initial: Double(backoffMS) / 1000, cap: 30), retryFirstConnect: retry)

    let failed = Flag()
    let task = Task {
      await feed.run { event in
        if case .failed = event { failed.set() }
        emit(event.record)
      }
    }
    let term = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
    signal(SIGTERM, SIG_IGN)
    // Handlers are @Sendable so that they do not inherit main's actor isolation: they run on
    // a background queue, where the runtime would trap on a main-actor closure.
    term.setEventHandler { @Sendable in
      task.cancel()  // the connection sends a close frame on its way out
      DispatchQueue.global().asyncAfter(deadline: .now() + 2) { _exit(0) }
    }
    term.resume()
    // Leave when wx does, even if it was killed: it is no longer our parent.
    let parent = getppid()
    let watchdog = DispatchSource.makeTimerSource(queue: .global())
    watchdog.schedule(deadline: .now() + 0.25, repeating: 0.25)
    watchdog.setEventHandler { @Sendable in
      if getppid() != parent { kill(getpid(), SIGTERM) }
    }
    watchdog.resume()
    await task.value
    exit(failed.isSet ? 69 : 0)
  }

  /// Writes one record whole; if wx has gone away, there is nobody left to serve.
  static func emit(_ record: FeedRecord) {
    let bytes = record.encoded
    bytes.withUnsafeBytes { raw in
      var off = 0
      while off < raw.count {
        let n = write(1, raw.baseAddress! + off, raw.count - off)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { _exit(0) }
        off += n
      }
    }
  }

  static func usage() -> Never {
    fail(
      "usage: wx-aqi-watch [--backoff-ms N] [--timeout SECONDS] [--no-retry] URL|--url-stdin (run by `wx aqi watch`)", status: 64)
  }

  /// The URL from standard input, up to its end (at most 64 KiB; a final newline dropped).
  static func readURL() -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count <= 1 << 16 {
      let n = read(0, &buffer, buffer.count)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      bytes += buffer[0..<n]
    }
    if bytes.count > 1 << 16 { fail("the feed URL on standard input is longer than 64 KiB", status: 78) }
    while bytes.last == UInt8(ascii: "\n") || bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func fail(_ message: String, status: Int32) -> Never {
    let line = "wx-aqi-watch: " + message + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress!, $0.count - 1) }
    exit(status)
  }
}

/// A flag set from the feed's task and read after it ends.
final class Flag: @unchecked Sendable {
  private var value = false
  private let lock = DispatchQueue(label: "wx-aqi-watch.flag")
  func set() { lock.sync { value = true } }
  var isSet: Bool { lock.sync { value } }
}
