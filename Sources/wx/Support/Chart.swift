import WXCore

/// A column chart of a short series (an AQI history), drawn with text.
///
/// The algorithm (`wx aqi show`; the tests recompute it):
///
/// - One column per value, oldest on the left, columns separated by one space; the plot is
///   `height` rows tall (8).
/// - `lo` and `hi` are the series' minimum and maximum. Unicode mode measures a column in
///   eighths of a row: `1 + round((v − lo) / (hi − lo) × (8·height − 1))`, so the minimum
///   is one eighth tall and the maximum fills every row (`height·4` for every column when
///   `hi == lo`). The row `k` from the bottom (0-based) shows `clamp(units − 8k, 0, 8)`
///   eighths as ` ▁▂▃▄▅▆▇█`. ASCII mode measures in half rows, `1 + round(… × (2·height − 1))`
///   (`height` when flat), and shows a full cell as `#`, a half cell as `.`, none as a space.
///   `round` is half away from zero.
/// - The y axis is `┤` on the top and bottom rows, labelled with `hi` and `lo` to two
///   decimals (right-aligned to the wider label), and `│` elsewhere; `|` in ASCII.
///   Below it `└` (`+`) and a rule of `─` (`-`) as wide as the plot plus one.
/// - The time line puts the first reading's time under the first column and the last
///   reading's time ending under the last column (one space after the first when the plot is
///   narrower; only the first when there is one reading or both are equal). Times are
///   `HH:MM:SS`, or `MM-DD HH:MM` when the series spans more than one day, in local time.
/// - Lines carry no trailing spaces. With colour on, each column takes its category's colour.
enum Chart {
  static let height = 8
  static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

  static func render(_ samples: [AQISample], terminal: Terminal, height: Int = Chart.height) -> [String] {
    guard !samples.isEmpty else { return [] }
    let values = samples.map(\.aqi)
    let lo = values.min()!, hi = values.max()!
    let unicode = terminal.unicode
    let steps = unicode ? 8 : 2
    let levels = values.map { v -> Int in
      if hi == lo { return height * steps / 2 }
      return 1 + Int(((v - lo) / (hi - lo) * Double(height * steps - 1)).rounded(.toNearestOrAwayFromZero))
    }
    let scale = samples[0].scale
    let hiLabel = AQIText.value(hi, on: scale), loLabel = AQIText.value(lo, on: scale)
    let labelWidth = max(hiLabel.count, loLabel.count)
    var lines: [String] = []
    for row in 0..<height {
      let k = height - 1 - row
      var line: String
      if row == 0 || row == height - 1 {
        line = pad(row == 0 ? hiLabel : loLabel, labelWidth) + " " + (unicode ? "┤" : "|")
      } else {
        line = String(repeating: " ", count: labelWidth) + " " + (unicode ? "│" : "|")
      }
      for (i, units) in levels.enumerated() {
        let fill = min(steps, max(0, units - steps * k))
        let glyph: String
        if unicode {
          glyph = fill == 0 ? " " : String(blocks[fill - 1])
        } else {
          glyph = fill == 2 ? "#" : fill == 1 ? "." : " "
        }
        line += " " + (glyph == " " ? glyph : terminal.paint(glyph, AQIText.colour(samples[i].category, on: samples[i].scale)))
      }
      lines.append(trimRight(line))
    }
    let plotWidth = 2 * samples.count
    lines.append(
      String(repeating: " ", count: labelWidth) + " " + (unicode ? "└" : "+")
        + String(repeating: unicode ? "─" : "-", count: plotWidth))
    lines.append(String(repeating: " ", count: labelWidth + 3) + timeAxis(samples))
    return lines
  }

  /// The first and last times, spread over the plot's `2n − 1` columns.
  static func timeAxis(_ samples: [AQISample]) -> String {
    let first = samples.first!.time, last = samples.last!.time
    let pattern = Clock.format(first, "%Y-%m-%d") == Clock.format(last, "%Y-%m-%d") ? "%H:%M:%S" : "%m-%d %H:%M"
    let a = Clock.format(first, pattern), b = Clock.format(last, pattern)
    if samples.count == 1 || a == b { return a }
    let span = 2 * samples.count - 1
    let gap = max(1, span - a.count - b.count)
    return a + String(repeating: " ", count: gap) + b
  }

  static func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
  }

  static func trimRight(_ s: String) -> String {
    var s = s
    while s.last == " " { s.removeLast() }
    return s
  }
}

/// AQI values, categories and ages as wx prints them.
enum AQIText {
  /// A value on `scale`: whole on a scale of whole numbers (US AQI: `46`, not `46.00`), else
  /// two decimals (a feed's NAQI: `302.20`).
  static func value(_ v: Double, on scale: AQIScale) -> String {
    scale == .naqi ? value(v) : whole(v)
  }

  /// A whole number: `46` (the European AQI, too).
  static func whole(_ v: Double) -> String { String(Int64(v.rounded(.toNearestOrAwayFromZero))) }

  /// Two decimals: `302.20`.
  static func value(_ v: Double) -> String {
    let cents = Int64((v * 100).rounded(.toNearestOrAwayFromZero))
    let sign = cents < 0 ? "-" : ""
    let a = abs(cents)
    let frac = a % 100
    return "\(sign)\(a / 100).\(frac < 10 ? "0" : "")\(frac)"
  }

  /// SGR colour of each category on its scale. NAQI (CPCB): green, yellow-green, yellow,
  /// orange, red, maroon. US AQI (EPA): Good green, Moderate yellow, Unhealthy for Sensitive
  /// Groups orange, Unhealthy red, Very Unhealthy purple, Hazardous maroon.
  static func colour(_ c: AQICategory, on scale: AQIScale) -> String {
    switch (c, scale) {
    case (.good, _): "32"
    case (.satisfactory, .naqi): "38;5;148"
    case (.satisfactory, .us), (.moderate, .naqi): "33"
    case (.moderate, .us), (.poor, .naqi): "38;5;208"
    case (.poor, .us), (.veryPoor, .naqi): "31"
    case (.veryPoor, .us): "35"
    case (.severe, _): "38;5;124"
    }
  }

  static func category(_ c: AQICategory, _ terminal: Terminal) -> String {
    terminal.paint(c.name, colour(c, on: .naqi))
  }

  /// A stored reading's category, naming its scale when it is not the feed's (`Moderate (US AQI)`).
  static func category(_ s: AQISample, _ terminal: Terminal) -> String {
    terminal.paint(s.scale == .naqi ? s.category.name : s.categoryName, colour(s.category, on: s.scale))
  }

  /// `4s ago` under a minute, else like the other commands (`3m ago`, `2h ago`).
  static func ago(_ seconds: Int64) -> String {
    let s = max(0, seconds)
    return s < 60 ? "\(s)s ago" : Clock.ago(s)
  }

  /// `50 ms`, `1.5 s`, `30 s`.
  static func seconds(_ s: Double) -> String {
    if s < 1 { return "\(Int((s * 1000).rounded())) ms" }
    if s >= 10 || s == s.rounded() { return "\(Int(s.rounded())) s" }
    return Number.oneDecimal(s) + " s"
  }
}
