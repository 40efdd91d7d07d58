#if canImport(Glibc)
  import Glibc
#endif
import WXCore

/// When to colour output.
enum ColorMode: String, CaseIterable {
  case auto, always, never
}

/// Output streams and what they can show.
struct Terminal {
  let color: Bool
  let unicode: Bool
  let stdoutIsTTY: Bool
  let stderrIsTTY: Bool

  /// Colour only when asked, or when `auto` and stdout is a terminal other than `dumb`
  /// and NO_COLOR is unset (https://no-color.org).
  init(mode: ColorMode, ascii: Bool) {
    stdoutIsTTY = isatty(1) == 1
    stderrIsTTY = isatty(2) == 1
    switch mode {
    case .always: color = true
    case .never: color = false
    case .auto: color = stdoutIsTTY && Environment.get("NO_COLOR") == nil && Environment.get("TERM") != "dumb"
    }
    let locale = Environment.get("LC_ALL") ?? Environment.get("LC_CTYPE") ?? Environment.get("LANG") ?? "C"
    let l = locale.lowercased()
    unicode = !ascii && (l.contains("utf-8") || l.contains("utf8"))
  }

  func paint(_ text: String, _ code: String) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  func bold(_ text: String) -> String { paint(text, "1") }
  func dim(_ text: String) -> String { paint(text, "2") }

  /// Temperature colour bands: ≥30 °C red, 20–30 orange, 10–20 cyan, 0–10 blue, below 0 magenta.
  static func band(_ celsius: Double) -> String {
    if celsius >= 30 { return "31" }
    if celsius >= 20 { return "38;5;208" }
    if celsius >= 10 { return "36" }
    if celsius >= 0 { return "34" }
    return "35"
  }

  func temperature(_ celsius: Double, _ unit: TemperatureUnit) -> String {
    paint(unit.format(celsius), Self.band(celsius))
  }

  /// Writes to stdout in one call (plus a final newline unless `newline` is false).
  static func out(_ text: String, newline: Bool = true) { write(1, text, newline: newline) }

  static func err(_ text: String, newline: Bool = true) { write(2, text, newline: newline) }

  private static func write(_ fd: Int32, _ text: String, newline: Bool) {
    var t = text
    if newline && !t.hasSuffix("\n") { t += "\n" }
    t.withUTF8 { u in
      var off = 0
      while off < u.count {
        let n = Glibc.write(fd, u.baseAddress! + off, u.count - off)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        off += n
      }
    }
  }
}

/// Display width of text in a terminal: East Asian wide characters take two columns,
/// combining marks none, ANSI colour sequences none.
enum DisplayWidth {
  static func of(_ s: String) -> Int {
    var width = 0
    var inEscape = false
    for u in s.unicodeScalars {
      if inEscape {
        if u == "m" { inEscape = false }
        continue
      }
      if u == "\u{1B}" { inEscape = true; continue }
      let v = u.value
      if v < 0x20 { continue }
      if v < 0x300 {  // Latin: one column each, and no combining marks below U+0300
        width += 1
        continue
      }
      if u.properties.generalCategory == .nonspacingMark || u.properties.generalCategory == .enclosingMark { continue }
      if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
        || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
        || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
      {
        width += 2
      } else {
        width += 1
      }
    }
    return width
  }

  static func pad(_ s: String, to width: Int, right: Bool = false) -> String {
    let w = of(s)
    guard w < width else { return s }
    let fill = String(repeating: " ", count: width - w)
    return right ? fill + s : s + fill
  }

  /// Cuts `s` to at most `width` columns, ending with "…" when cut.
  static func truncate(_ s: String, to width: Int) -> String {
    guard of(s) > width else { return s }
    var out = ""
    for ch in s {
      if of(out + String(ch)) > width - 1 { break }
      out.append(ch)
    }
    return out + "…"
  }
}

/// A plain text table: header, rows, columns sized to content.
struct Table {
  var headers: [String]
  /// Columns aligned right. (Arrays, not Set/Dictionary: see `Catalogue.blocks`.)
  var rightAligned: [Int] = []
  var rows: [[String]] = []
  /// (column, widest) limits; longer cells end with "…".
  var maxWidths: [(column: Int, width: Int)] = []

  func render(_ term: Terminal) -> String {
    let cells = rows.map { row in
      row.enumerated().map { (i, c) in
        maxWidths.first(where: { $0.column == i }).map { DisplayWidth.truncate(c, to: $0.width) } ?? c
      }
    }
    var widths = headers.map(DisplayWidth.of)
    for row in cells {
      for (i, c) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayWidth.of(c)) }
    }
    func line(_ row: [String]) -> String {
      var parts: [String] = []
      for (i, c) in row.enumerated() {
        let last = i == row.count - 1
        parts.append(last && !rightAligned.contains(i) ? c : DisplayWidth.pad(c, to: widths[i], right: rightAligned.contains(i)))
      }
      return parts.joined(separator: "  ")
    }
    var out = term.bold(line(headers)) + "\n"
    for row in cells { out += line(row) + "\n" }
    return out
  }
}
