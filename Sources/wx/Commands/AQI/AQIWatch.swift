import ArgumentParser
import WXCore
import WXFeed

import Glibc

extension WX.AQI {
  struct Watch: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Follow a live air-quality feed and record its readings.",
      discussion: """
        The feed sends text frames, each a JSON array like [{"city":"Delhi","aqi":302.2}]. \
        On a terminal a live table is redrawn in place; otherwise one line per reading. \
        A dropped connection is retried with exponential backoff (WX_AQI_BACKOFF_MS, default 500, \
        doubling up to 30 s). Bad frames are counted, reported and skipped. Ctrl-C exits (status 0).
        """)

    @Argument(help: "Feed URL, ws:// or wss:// (default: $WX_AQI_URL).") var url: String?
    @Flag(help: "Exit after the first frame with readings.") var once = false
    @Option(help: "Exit after this many frames with readings.") var count: Int?
    @OptionGroup var display: AQIColorOption

    func validate() throws {
      if let count, count < 1 { throw ValidationError("--count must be 1 or more") }
      if once && count != nil { throw ValidationError("use --once or --count, not both") }
    }

    func execute(_ console: Console) async throws {
      let ctx = try Context.make(console, display: display.value)
      let feedURL = try feed()
      let arguments = try clientArguments()
      guard let client = FeedProcess.locate() else { throw AQIError.clientMissing }
      try ctx.home.prepare()
      let session = WatchSession(
        url: feedURL, store: ctx.home.aqi,
        view: LiveView(console: console, terminal: ctx.terminal, url: Redact.url(feedURL.description)),
        limit: limit)
      // The URL (its token too) goes through the client's stdin, never its command line.
      try await session.run(client: client, arguments: arguments + ["--url-stdin"], feedURL: feedURL.description)
    }

    /// Frames with readings to show before exiting (nil: until stopped).
    var limit: Int? { once ? 1 : count }

    /// The feed URL: the argument, else `WX_AQI_URL`.
    func feed() throws -> WebSocketURL {
      guard let text = url ?? Environment.get("WX_AQI_URL") else {
        throw ConfigError("no feed URL: give one (ws:// or wss://) or set WX_AQI_URL")
      }
      do {
        return try WebSocketURL(parsing: text)
      } catch {
        throw ConfigError(error.description + (url == nil ? " (from WX_AQI_URL)" : ""))
      }
    }

    /// The WebSocket client's arguments: it runs as its own process (see FeedProcess); wx
    /// keeps the rest.
    func clientArguments() throws -> [String] {
      let backoff = try Self.initialBackoff()
      let timeout = try Context.seconds("WX_HTTP_TIMEOUT", default: 30, allowZero: false)
      return ["--backoff-ms", String(backoff), "--timeout", "\(timeout)"] + (limit != nil ? ["--no-retry"] : [])
    }

    /// `WX_AQI_BACKOFF_MS`: the first reconnection delay in milliseconds (default 500).
    static func initialBackoff() throws -> Int {
      guard let raw = Environment.get("WX_AQI_BACKOFF_MS") else { return 500 }
      guard let ms = Int(raw), ms >= 1, ms <= 30_000 else {
        throw ConfigError("WX_AQI_BACKOFF_MS=\(raw) is not a number of milliseconds (1–30000)")
      }
      return ms
    }
  }
}
