import ArgumentParser
import Dispatch
import WXCore

#if canImport(Glibc)
  import Glibc
#endif

/// `--color` (the AQI commands have no temperatures, so no `--unit`; only `show` draws).
struct AQIColorOption: ParsableArguments {
  @Option(help: "Colour output: auto, always or never. NO_COLOR turns auto off.")
  var color: ColorMode = .auto

  var value: Display { Display(unit: nil, color: color, ascii: false) }
}

/// Air-quality failures that are about the feed or the request, not the store.
enum AQIError: Error {
  /// The first connection of `--once` / `--count` failed: exit 69.
  case unreachable(url: String, reason: String)
  /// `wx aqi show CITY` with no readings for CITY: exit 66.
  case noReadings(String)
  /// The feed client `wx-aqi-watch` is not installed: exit 78.
  case clientMissing
  /// The feed client could not start or stopped by itself: exit 69.
  case clientFailed(String)

  var message: String {
    switch self {
    case .unreachable(let url, let reason): return "cannot reach the air-quality feed \(url): \(reason)"
    case .clientMissing:
      return "the feed client wx-aqi-watch is not installed (looked in ../libexec/wx and beside wx); reinstall wx"
    case .clientFailed(let why): return "the feed client failed: \(why)"
    case .noReadings(let city):
      return "no air-quality readings for \(city); `wx aqi list` shows the cities recorded"
    }
  }
}

extension WX {
  struct AQI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "aqi",
      abstract: "Live air quality: follow a WebSocket feed, list and chart the readings.",
      discussion: """
        `wx aqi watch URL` records readings into aqi.gdbm (the last 20 per city); \
        `wx aqi list` and `wx aqi show CITY` answer from it, offline. `wx aqi` alone is `wx aqi list`.
        """,
      subcommands: [Watch.self, List.self, Show.self],
      defaultSubcommand: List.self)
  }
}

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

    func execute() async throws {
      let ctx = try Context.make(display: display.value)
      guard let text = url ?? Environment.get("WX_AQI_URL") else {
        throw ConfigError("no feed URL: give one (ws:// or wss://) or set WX_AQI_URL")
      }
      let feedURL: WebSocketURL
      do {
        feedURL = try WebSocketURL(parsing: text)
      } catch {
        throw ConfigError(error.description + (url == nil ? " (from WX_AQI_URL)" : ""))
      }
      let backoff = try Self.initialBackoff()
      let timeout = try Context.seconds("WX_HTTP_TIMEOUT", default: 30, allowZero: false)
      guard let client = FeedProcess.locate() else { throw AQIError.clientMissing }
      try ctx.home.prepare()
      let limit = once ? 1 : count
      // The WebSocket client runs as its own process (see FeedProcess); wx keeps the rest.
      var arguments = ["--backoff-ms", String(backoff), "--timeout", "\(timeout)"]
      if limit != nil { arguments.append("--no-retry") }
      let session = WatchSession(
        url: feedURL, store: ctx.home.aqi, view: LiveView(terminal: ctx.terminal, url: feedURL.description), limit: limit)
      try await session.run(client: client, arguments: arguments + [feedURL.description])
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

  struct List: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "The latest air-quality reading of each city, offline.")

    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: AQIColorOption

    func execute() async throws {
      let ctx = try Context.make(display: display.value)
      let histories = try ctx.home.aqi.histories().filter { $0.latest != nil }
      if json {
        Terminal.out(
          JSONOut.object([
            (
              "items",
              .array(
                histories.map { h in
                  let s = h.latest!
                  return .object([
                    ("city", .string(h.city)), ("aqi", .number(s.aqi)), ("category", .string(s.category.name)),
                    ("time", .string(Clock.iso8601(s.time))),
                  ])
                })
            )
          ]).text)
        return
      }
      guard !histories.isEmpty else {
        Terminal.out("No air-quality readings yet: run `wx aqi watch URL` to record a feed.")
        return
      }
      var t = Table(headers: ["City", "AQI", "Category", "Updated"])
      t.rightAligned = [1]
      for h in histories {
        let s = h.latest!
        t.rows.append([h.city, AQIText.value(s.aqi), AQIText.category(s.category, ctx.terminal), AQIText.ago(ctx.now - s.time)])
      }
      let n = histories.count
      Terminal.out(
        ctx.terminal.bold("Air quality") + "\n" + t.render(ctx.terminal)
          + ctx.terminal.dim("\(n) \(n == 1 ? "city" : "cities") · last \(AQIStore.capacity) readings kept per city"))
    }
  }

  struct Show: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "A city's recorded air quality as a chart, offline.",
      discussion: "CITY is matched ignoring case and accents. --ascii draws the chart with # . | instead of blocks.")

    @Argument(help: "City name as the feed spells it (case and accents ignored).") var city: String
    @Flag(help: "Print JSON instead of a chart.") var json = false
    @Flag(help: "Draw the chart with plain ASCII.") var ascii = false
    @OptionGroup var display: AQIColorOption

    func execute() async throws {
      var options = display.value
      options.ascii = ascii
      let ctx = try Context.make(display: options)
      guard let history = try ctx.home.aqi.history(city), let latest = history.latest else {
        throw AQIError.noReadings(city)
      }
      let values = history.samples.map(\.aqi)
      let lo = values.min()!, hi = values.max()!
      if json {
        func reading(_ s: AQISample) -> JSONOut {
          .object([("time", .string(Clock.iso8601(s.time))), ("aqi", .number(s.aqi)), ("category", .string(s.category.name))])
        }
        Terminal.out(
          JSONOut.object([
            ("city", .string(history.city)), ("readings", .array(history.samples.map(reading))),
            ("min", .number(lo)), ("max", .number(hi)), ("latest", reading(latest)),
          ]).text)
        return
      }
      let t = ctx.terminal
      let n = history.samples.count
      var out = t.bold(history.city) + " · air quality, \(n) reading\(n == 1 ? "" : "s")\n"
      out += Chart.render(history.samples, terminal: t).joined(separator: "\n") + "\n"
      out += "latest \(AQIText.value(latest.aqi)) \(AQIText.category(latest.category, t))"
      out += t.dim(" (\(AQIText.ago(ctx.now - latest.time))) · min \(AQIText.value(lo)) · max \(AQIText.value(hi))")
      Terminal.out(out)
    }
  }
}

// MARK: - watch

/// What the watch loop reacts to: the feed, the clock (for "updated Ns ago") and signals.
enum WatchEvent: Sendable {
  case feed(FeedRecord)
  case feedEnded
  case tick
  case stop
}

/// One `wx aqi watch` run: consumes the feed, records frames, drives the view.
struct WatchSession {
  let url: WebSocketURL
  let store: AQIStore
  let view: LiveView
  let limit: Int?

  func run(client path: String, arguments: [String]) async throws {
    var view = self.view
    let (events, input) = AsyncStream.makeStream(of: WatchEvent.self)
    let signals = SignalStop(input: input, restore: view.tty ? LiveView.restoreSequence : "")
    let client = try FeedProcess(path: path, arguments: arguments)
    client.start { record in input.yield(record.map(WatchEvent.feed) ?? .feedEnded) }
    let tickTask: Task<Void, Never>? =
      view.tty
      ? Task {
        while !Task.isCancelled {
          try? await Task.sleep(nanoseconds: 1_000_000_000)
          input.yield(.tick)
        }
      } : nil
    view.begin()
    defer {
      signals.cancel()
      tickTask?.cancel()
      client.reap()
      view.finish()
    }
    var stored = 0
    var iterator = events.makeAsyncIterator()
    loop: while let event = await iterator.next() {
      switch event {
      case .feed(.connected(let attempt)):
        view.connected(attempt: attempt)
      case .feed(.text(let bytes)):
        let decoded = AQIFrame.decode(bytes)
        if decoded.bad > 0 { view.skipped(decoded) }
        guard !decoded.readings.isEmpty else { continue }
        let now = Clock.now()
        do {
          try store.record(decoded.readings, at: now)
        } catch let e as StoreError {
          guard case .busy = e else { throw e }
          view.status("not recorded: \(e.description)", warning: true)
          continue
        }
        view.recorded(decoded.readings, at: now)
        stored += 1
        if let limit, stored >= limit { break loop }
      case .feed(.binary(let size)):
        view.skipped(AQIFrame.Decoded(bad: 1, problem: "a binary frame (\(size) bytes), not text"))
      case .feed(.lost(let reason, let wasConnected, let ms, let failures)):
        view.lost(reason: reason, wasConnected: wasConnected, retryIn: Double(ms) / 1000, failures: failures)
      case .feed(.failed(let reason)):
        throw AQIError.unreachable(url: url.description, reason: reason)
      case .tick:
        view.redraw()
      case .feedEnded:
        throw AQIError.clientFailed("it stopped unexpectedly (\(client.reap()))")
      case .stop:
        break loop
      }
    }
    // Let the client say goodbye (a close frame) before wx exits, for up to a second.
    client.terminate()
    Task {
      try? await Task.sleep(nanoseconds: 1_000_000_000)
      input.yield(.feedEnded)
    }
    while let event = await iterator.next() {
      if case .feedEnded = event { break }
    }
  }
}

/// SIGINT and SIGTERM stop the watch loop cleanly; a second signal, or a loop that does
/// not stop within 3 s, restores the terminal and exits at once (status 0).
final class SignalStop: @unchecked Sendable {
  private var sources: [any DispatchSourceSignal] = []
  private let queue = DispatchQueue(label: "wx.signals")
  private let input: AsyncStream<WatchEvent>.Continuation
  private let restore: String
  private var seen = 0  // only touched on `queue`

  init(input: AsyncStream<WatchEvent>.Continuation, restore: String) {
    self.input = input
    self.restore = restore
    for sig in [SIGINT, SIGTERM] {
      signal(sig, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
      source.setEventHandler { [unowned self] in self.received() }
      source.resume()
      sources.append(source)
    }
  }

  private func received() {
    seen += 1
    input.yield(.stop)
    if seen > 1 { hardExit() }
    let restore = self.restore
    queue.asyncAfter(deadline: .now() + 3) {
      Terminal.out(restore, newline: false)
      _exit(0)
    }
  }

  private func hardExit() {
    Terminal.out(restore, newline: false)
    _exit(0)
  }

  func cancel() {
    for s in sources { s.cancel() }
  }
}

/// The watch output: a table redrawn in place on a terminal, one line per reading otherwise.
struct LiveView {
  let terminal: Terminal
  let url: String
  var tty: Bool { terminal.stdoutIsTTY }

  struct Row {
    var city: String
    var aqi: Double
    var time: Int64
  }
  var rows: [[UInt8]: Row] = [:]
  var frames = 0
  var bad = 0
  var statusLine = "connecting…"
  var statusIsWarning = false
  var lastProblem: String?
  var drawnLines = 0

  /// Shows the cursor again and clears the line a `^C` may have been echoed on.
  static let restoreSequence = "\r\u{1B}[K\u{1B}[?25h"

  init(terminal: Terminal, url: String) {
    self.terminal = terminal
    self.url = url
  }

  mutating func begin() {
    guard tty else { return }
    Self.write("\u{1B}[?25l")
    redraw()
  }

  mutating func finish() {
    if tty {
      Self.write(Self.restoreSequence)
    } else if bad > 0 {
      Terminal.err("wx: skipped \(bad) bad reading\(bad == 1 ? "" : "s") in all")
    }
  }

  mutating func connected(attempt: Int) {
    if tty {
      status(attempt == 1 ? "connected" : "reconnected", warning: false)
    } else {
      Terminal.err(attempt == 1 ? "wx: connected to \(url)" : "wx: reconnected to \(url)")
    }
  }

  mutating func lost(reason: String, wasConnected: Bool, retryIn: Double, failures: Int) {
    let wait = AQIText.seconds(retryIn)
    var text = (wasConnected ? "connection lost (\(reason))" : reason) + "; reconnecting in \(wait)"
    if failures > 1 { text += " (\(failures) failures in a row)" }
    if tty {
      status(text, warning: true)
    } else {
      Terminal.err("wx: " + text)
    }
  }

  mutating func skipped(_ d: AQIFrame.Decoded) {
    bad += d.bad
    let problem = d.problem ?? "unreadable"
    let text =
      d.readings.isEmpty && d.bad == 1
      ? "skipped a bad frame: \(problem)"
      : "skipped \(d.bad) bad reading\(d.bad == 1 ? "" : "s") of a frame: \(problem)"
    lastProblem = text
    if tty {
      redraw()
    } else {
      Terminal.err("wx: " + text)
    }
  }

  mutating func status(_ text: String, warning: Bool) {
    statusLine = text
    statusIsWarning = warning
    if tty { redraw() } else if warning { Terminal.err("wx: " + text) }
  }

  mutating func recorded(_ readings: [AQIReading], at time: Int64) {
    frames += 1
    for r in readings {
      rows[Fold.key(r.city)] = Row(city: r.city, aqi: r.aqi, time: time)
    }
    if tty {
      if statusIsWarning { statusLine = "connected"; statusIsWarning = false }
      redraw()
      return
    }
    var out = ""
    let stamp = Clock.iso8601(time)
    for r in readings {
      out += "\(stamp) \(r.city) \(AQIText.value(r.aqi)) \(AQIText.category(r.category, terminal))\n"
    }
    Terminal.out(out)
  }

  /// Redraws the whole block in place: cursor up over the last drawing, clear, draw.
  mutating func redraw() {
    guard tty else { return }
    let (width, height) = Self.screenSize()
    let now = Clock.now()
    var lines: [String] = []
    lines.append(terminal.bold("Air quality") + terminal.dim(" · \(url)"))
    // Rows are keyed by folded name: sorting the keys orders the cities without folding again.
    let sorted = rows.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.value)
    if sorted.isEmpty {
      lines.append(terminal.dim("waiting for readings…"))
    } else {
      var t = Table(headers: ["City", "AQI", "Category", ""])
      t.rightAligned = [1]
      // Title, header, status, problem, hint, "… more" and the line the cursor rests on.
      let room = max(1, height - 7)
      for r in sorted.prefix(room) {
        t.rows.append([
          r.city, AQIText.value(r.aqi), AQIText.category(AQICategory(aqi: r.aqi), terminal),
          "updated " + AQIText.ago(now - r.time),
        ])
      }
      var table = t.render(terminal)
      if table.hasSuffix("\n") { table.removeLast() }
      lines += table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if sorted.count > room { lines.append(terminal.dim("… and \(sorted.count - room) more")) }
    }
    var info = "\(frames) frame\(frames == 1 ? "" : "s")"
    if bad > 0 { info += " · \(bad) bad skipped" }
    let status = statusIsWarning ? terminal.paint(statusLine, "33") : statusLine
    lines.append(terminal.dim(info + " · ") + status)
    if let lastProblem { lines.append(terminal.dim("last: " + lastProblem)) }
    lines.append(terminal.dim("Ctrl-C to quit"))
    var out = drawnLines > 0 ? "\r\u{1B}[\(drawnLines)A" : "\r"
    out += "\u{1B}[J"
    for line in lines {
      var l = line
      if DisplayWidth.of(l) > width - 1 {
        l = DisplayWidth.truncate(l, to: max(1, width - 1)) + (terminal.color ? "\u{1B}[0m" : "")
      }
      out += l + "\n"
    }
    drawnLines = lines.count
    Self.write(out)
  }

  static func write(_ s: String) { Terminal.out(s, newline: false) }

  static func screenSize() -> (width: Int, height: Int) {
    var ws = winsize()
    if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
      return (Int(ws.ws_col), Int(ws.ws_row))
    }
    return (80, 24)
  }
}

extension AQIText {
  /// `50 ms`, `1.5 s`, `30 s`.
  static func seconds(_ s: Double) -> String {
    if s < 1 { return "\(Int((s * 1000).rounded())) ms" }
    if s >= 10 || s == s.rounded() { return "\(Int(s.rounded())) s" }
    return TemperatureUnit.oneDecimal(s) + " s"
  }
}
