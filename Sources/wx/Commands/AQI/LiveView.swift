import WXCore

import Glibc

struct LiveView {
  let console: Console
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

  init(console: Console, terminal: Terminal, url: String) {
    self.console = console
    self.terminal = terminal
    self.url = url
  }

  mutating func begin() {
    guard tty else { return }
    write("\u{1B}[?25l")
    redraw()
  }

  mutating func finish() {
    if tty {
      write(Self.restoreSequence)
    } else if bad > 0 {
      console.err("wx: skipped \(bad) bad reading\(bad == 1 ? "" : "s") in all")
    }
  }

  mutating func connected(attempt: Int) {
    if tty {
      status(attempt == 1 ? "connected" : "reconnected", warning: false)
    } else {
      console.err(attempt == 1 ? "wx: connected to \(url)" : "wx: reconnected to \(url)")
    }
  }

  mutating func lost(reason: String, wasConnected: Bool, retryIn: Double, failures: Int) {
    let wait = AQIText.seconds(retryIn)
    var text = (wasConnected ? "connection lost (\(reason))" : reason) + "; reconnecting in \(wait)"
    if failures > 1 { text += " (\(failures) failures in a row)" }
    if tty {
      status(text, warning: true)
    } else {
      console.err("wx: " + text)
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
      console.err("wx: " + text)
    }
  }

  mutating func status(_ text: String, warning: Bool) {
    statusLine = text
    statusIsWarning = warning
    if tty { redraw() } else if warning { console.err("wx: " + text) }
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
      out += "\(stamp) \(r.city.visible) \(AQIText.value(r.aqi)) \(AQIText.category(r.category, terminal))\n"
    }
    console.out(out)
  }

  /// Redraws the whole block in place: cursor up over the last drawing, clear, draw.
  mutating func redraw() {
    guard tty else { return }
    let (width, height) = Terminal.screenSize()
    let now = Clock.now()
    var lines: [String] = []
    lines.append(terminal.bold("Air quality") + terminal.dim(" · \(url.visible)"))
    // Rows are keyed by folded name: sorting the keys orders the cities without folding again.
    let sorted = rows.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.value)
    if sorted.isEmpty {
      lines.append(terminal.dim("waiting for readings…"))
    } else {
      var t = Table(headers: ["City", "AQI", "Category", ""])
      t.minWidths = [(0, 10), (2, 8)]
      t.fitting = [.shrink, .drop(3)]
      t.rightAligned = [1]
      // Title, header, status, problem, hint, "… more" and the line the cursor rests on.
      let room = max(1, height - 7)
      for r in sorted.prefix(room) {
        t.rows.append([
          r.city.visible, AQIText.value(r.aqi), AQIText.category(AQICategory(aqi: r.aqi), terminal),
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
    let status = statusIsWarning ? terminal.paint(statusLine.visible, "33") : statusLine.visible
    lines.append(terminal.dim(info + " · ") + status)
    if let lastProblem { lines.append(terminal.dim("last: " + lastProblem.visible)) }
    lines.append(terminal.dim("Ctrl-C to quit"))
    var out = drawnLines > 0 ? "\r\u{1B}[\(drawnLines)A" : "\r"
    out += "\u{1B}[J"
    for line in lines {
      var l = line
      if DisplayWidth.of(l) > width - 1 {
        l = DisplayWidth.truncate(l, to: max(1, width - 1), ellipsis: terminal.ellipsis) + (terminal.color ? "\u{1B}[0m" : "")
      }
      out += l + "\n"
    }
    drawnLines = lines.count
    write(out)
  }

  /// The live block: its own cursor moves, with every untrusted field already escaped.
  func write(_ s: String) { console.control(s) }

}
