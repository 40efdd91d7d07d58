import Glibc
import WXCore

/// When to colour output.
enum ColorMode: String, CaseIterable {
  case auto, always, never
}

/// What the terminal standard output goes to can show: colour, Unicode, its width. Views are
/// functions of the one they are given; ``Console`` writes for the one a context was made with.
struct Terminal {
  let color: Bool
  let unicode: Bool
  let stdoutIsTTY: Bool
  let stderrIsTTY: Bool
  /// Columns to fit text output in: `COLUMNS` when set, else the terminal's width when stdout
  /// is a terminal; nil (no limit) in a pipe.
  let width: Int?

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
    unicode = !ascii && Self.localeIsUTF8
    width = Self.columns(tty: stdoutIsTTY)
  }

  /// A terminal described outright, not found out (views tested in-process; no writer).
  init(color: Bool, unicode: Bool, width: Int?) {
    (self.color, self.unicode, self.width) = (color, unicode, width)
    (stdoutIsTTY, stderrIsTTY) = (false, false)
  }

  /// A sentence for people, broken between words to fit ``width`` (the writers cut lines
  /// longer than that): a command in backticks stays whole, so it can be copied.
  func prose(_ text: String) -> String {
    guard let width, DisplayWidth.of(text) > width else { return text }
    var words: [Substring] = []
    var quoted = false
    var start = text.startIndex
    for i in text.indices {
      if text[i] == "`" { quoted.toggle() }
      if text[i] == " " && !quoted {
        words.append(text[start..<i])
        start = text.index(after: i)
      }
    }
    words.append(text[start...])
    var lines: [String] = []
    for word in words {
      if let last = lines.last, DisplayWidth.of(last) + 1 + DisplayWidth.of(String(word)) <= width {
        lines[lines.count - 1] += " " + word
      } else {
        lines.append(String(word))
      }
    }
    return lines.joined(separator: "\n")
  }

  /// Whether the locale (`LC_ALL`, else `LC_CTYPE`, else `LANG`) is UTF-8.
  static var localeIsUTF8: Bool {
    isUTF8(Environment.get("LC_ALL") ?? Environment.get("LC_CTYPE") ?? Environment.get("LANG") ?? "C")
  }

  /// `…UTF-8` / `…utf8` in any case, without the generic string search (start-up cost).
  static func isUTF8(_ locale: String) -> Bool {
    let b = locale.utf8.map { $0 | 0x20 }  // ASCII letters lower-cased; "-" and "8" unchanged
    for i in b.indices where i + 3 < b.count && b[i] == 0x75 && b[i + 1] == 0x74 && b[i + 2] == 0x66 {  // utf
      if b[i + 3] == 0x38 || (b[i + 3] == 0x2D && i + 4 < b.count && b[i + 4] == 0x38) { return true }
    }
    return false
  }

  /// `COLUMNS` (a positive number) wins; else the window size of the terminal on `fd` (stdout
  /// unless said), when `tty` says it is one.
  static func columns(of fd: Int32 = 1, tty: Bool) -> Int? {
    if let raw = Environment.get("COLUMNS"), let n = Int(raw), n > 0 { return max(n, 20) }
    guard tty, let size = windowSize(of: fd) else { return nil }
    return max(size.columns, 20)
  }

  /// The window size of the terminal on `fd`, or nil when it is not one or reports none: the
  /// one place wx asks the kernel (text fitting, `wx browse`, `wx aqi watch`'s live table).
  static func windowSize(of fd: Int32 = 1) -> (columns: Int, rows: Int)? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// The full-screen views' size: standard output's window, 80×24 when it cannot be read.
  static func screenSize() -> (width: Int, height: Int) {
    guard let size = windowSize(), size.rows > 0 else { return (80, 24) }
    return (size.columns, size.rows)
  }

  func paint(_ text: String, _ code: String) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  func bold(_ text: String) -> String { paint(text, "1") }

  /// What ends text cut to a width: `…`, or `~` without Unicode.
  var ellipsis: String { unicode ? "…" : "~" }
  func dim(_ text: String) -> String { paint(text, "2") }

  /// Temperature colour bands: ≥30 °C red, 20–30 orange, 10–20 cyan, 0–10 blue, below 0 magenta.
  static func band(_ celsius: Double) -> String {
    if celsius >= 30 { return "31" }
    if celsius >= 20 { return "38;5;208" }
    if celsius >= 10 { return "36" }
    if celsius >= 0 { return "34" }
    return "35"
  }

  func temperature(_ celsius: Double, _ unit: Units) -> String {
    paint(unit.format(celsius), Self.band(celsius))
  }
}

/// Plain-ASCII spellings of the typography wx prints, for `--ascii` and non-UTF-8 locales.
enum ASCII {
  static func spell(_ s: String) -> String {
    guard s.utf8.contains(where: { $0 >= 0x80 }) else { return s }
    var out = ""
    for ch in s {
      switch ch {
      case "°": continue
      case "·": out += "-"
      case "…": out += "..."
      case "–", "―", "‒": out += "-"
      case "—": out += "--"
      case "’", "‘": out += "'"
      case "µ": out += "u"
      case "³": out += "3"
      case "×": out += "x"
      case "“", "”": out += "\""
      // Names in their ASCII spelling (Kraków → Krakow), never raw bytes.
      default: out += ch.isASCII ? String(ch) : Fold.ascii(String(ch))
      }
    }
    return out
  }
}

/// A plain text table: header, rows, columns sized to content, fitted to the screen.
///
/// Cells hold text for people: untrusted parts are escaped (``String/visible``) by whoever
/// builds the row, so widths are measured on what will be shown. When the terminal is
/// narrower than the table, ``fitting`` says what gives way, in order: a column dropped, or
/// the ``minWidths`` columns shortened (widest first, with "…"). What still does not fit is
/// cut at the screen's edge by ``Console/out(_:newline:)``.
struct Table {
  var headers: [String]
  /// Columns aligned right. (Arrays, not Set/Dictionary: see `Catalogue.blocks`.)
  var rightAligned: [Int] = []
  var rows: [[String]] = []
  /// (column, widest) limits on a screen; longer cells end with "…". Pipes get whole cells.
  var maxWidths: [(column: Int, width: Int)] = []
  /// (column, narrowest) for the `.shrink` step.
  var minWidths: [(column: Int, width: Int)] = []
  var fitting: [Fit] = []
  /// A column that, when fitting drops it, is not lost: each of its non-empty cells becomes a
  /// line of its own above its row (`wx forecast --hourly`'s dates at 40 columns).
  var headingColumn: Int? = nil

  enum Fit {
    case drop(Int)
    case shrink
    /// The column shortened further, to at most this width (after every drop before it).
    case narrow(Int, Int)
  }

  /// Columns never shown (a column no row needs: the Age column when every value is fresh).
  var hidden: [Int] = []

  /// Leaves `column` out whatever the width.
  mutating func hide(_ column: Int) { hidden.append(column) }

  func render(_ term: Terminal) -> String {
    // On a screen, long names are cut to `maxWidths`; a pipe gets them whole.
    let limits = term.width == nil ? [] : maxWidths
    // Without Unicode, cells are measured as they will be printed ("9 C", "..."): spelling
    // them later would move every column right of a changed cell.
    let unicode = term.unicode
    func spell(_ s: String) -> String { unicode ? s : ASCII.spell(s) }
    var cells = rows.map { row in
      row.enumerated().map { (i, c) in
        let c = spell(c)
        return limits.first(where: { $0.column == i }).map { DisplayWidth.truncate(c, to: $0.width, ellipsis: term.ellipsis) }
          ?? c
      }
    }
    var heads = headers.map { spell($0) }
    var widths = heads.map(DisplayWidth.of)
    for row in cells {
      for (i, c) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayWidth.of(c)) }
    }
    var shown = headers.indices.filter { !hidden.contains($0) }
    var narrowed: [Int] = []
    if let limit = term.width {
      func total() -> Int { shown.reduce(0) { $0 + widths[$1] } + 2 * max(0, shown.count - 1) }
      for step in fitting where total() > limit {
        switch step {
        case .drop(let column): shown.removeAll { $0 == column }
        case .shrink:
          while total() > limit {
            let spare = minWidths.filter { shown.contains($0.column) && widths[$0.column] > $0.width }
            guard let widest = spare.max(by: { widths[$0.column] - $0.width < widths[$1.column] - $1.width }) else { break }
            widths[widest.column] -= 1
          }
        case .narrow(let column, let width):
          while total() > limit && widths[column] > width { widths[column] -= 1 }
          narrowed.append(column)
        }
      }
      for column in minWidths.map(\.column) + narrowed.filter({ c in !minWidths.contains { $0.column == c } }) {
        heads[column] = DisplayWidth.truncate(heads[column], to: widths[column], ellipsis: term.ellipsis)
        for r in cells.indices {
          cells[r][column] = DisplayWidth.truncate(cells[r][column], to: widths[column], ellipsis: term.ellipsis)
        }
      }
    }
    // The table's bytes in one buffer, each cell measured once: appending to a String cost
    // 370 instructions a cell, a quarter of the table (and an array of padded parts joined,
    // before, a tenth of `wx search par`).
    let right = shown.map { rightAligned.contains($0) }
    func line(_ row: [String], into out: inout [UInt8]) {
      for (k, i) in shown.enumerated() {
        if k > 0 { out.append(contentsOf: [0x20, 0x20]) }
        let c = row[i]
        if k == shown.count - 1 && !right[k] {
          out.append(contentsOf: c.utf8)
          break
        }
        let fill = max(0, widths[i] - DisplayWidth.of(c))
        if right[k] { out.append(contentsOf: repeatElement(0x20, count: fill)) }
        out.append(contentsOf: c.utf8)
        if !right[k] { out.append(contentsOf: repeatElement(0x20, count: fill)) }
      }
      out.append(0x0A)
    }
    var head: [UInt8] = []
    line(heads, into: &head)
    var out = Array(term.bold(String(decoding: head.dropLast(), as: UTF8.self)).utf8)
    out.reserveCapacity(out.count + cells.count * (head.count + 8))
    out.append(0x0A)
    let heading = headingColumn.flatMap { shown.contains($0) ? nil : $0 }
    for row in cells {
      if let heading, !row[heading].isEmpty {
        let width = term.width ?? Int.max
        out.append(contentsOf: term.bold(DisplayWidth.truncate(row[heading], to: width, ellipsis: term.ellipsis)).utf8)
        out.append(0x0A)
      }
      line(row, into: &out)
    }
    return String(decoding: out, as: UTF8.self)
  }
}
