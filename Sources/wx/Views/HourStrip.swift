import WXCore

/// The next 24 hours in three lines (`wx show`, `wx browse`): a temperature sparkline, the
/// chance of rain, and the hours.
///
/// ```
/// temp  ▃▃▄▄▅▅▆▆▇▇██▇▇▆▆▅▅▄▄▃▃▂▂▁▁  3–14 °C
/// rain      ░░▒▒▓▓▒▒░░              max 85%
///       13    16    19    22    01
/// ```
///
/// - One cell per hour, two columns wide when 24 of them fit the screen beside the 6-column
///   labels and the range, else one; on a very narrow screen, as many hours as fit (at least
///   six, else no strip). A pipe gets 24 hours two columns wide.
/// - Temperature: `lo` and `hi` are the hours' lowest and highest known values, shown after
///   the line in the unit; an hour's level is `1 + round((t − lo) / (hi − lo) × 7)` of 8 (4
///   when all are equal), drawn `▁▂▃▄▅▆▇█`, or `_.-:=+*#` in ASCII; unknown is a space. With
///   colour, each takes its temperature band's.
/// - Rain: under 20 % a space, 20–49 % `░` (`.`), 50–79 % `▒` (`:`), 80 % and more `▓` (`#`);
///   unknown a space; then the highest chance.
/// - Hours: the local hour of every third hour (00, 03 …), under its cell, when it has room.
enum HourStrip {
  static let labelWidth = 6
  static let hours = 24

  /// The strip for `width` columns (the terminal's by default; nil: a pipe).
  static func render(_ hours: [ForecastHour], _ unit: Units, _ term: Terminal, width: Int?? = nil) -> [String] {
    let width = width ?? term.width
    let shown = Array(hours.prefix(Self.hours))
    guard !shown.isEmpty else { return [] }
    let temps = shown.compactMap(\.temperatureC)
    let (lo, hi) = (temps.min(), temps.max())
    let range =
      lo.map { lo in
        let (a, b) = (
          TemperatureUnit.round(unit.temperature.temperature(lo)), TemperatureUnit.round(unit.temperature.temperature(hi!))
        )
        // A dash between two numbers either of which has a minus sign reads as one (`-6–-5`,
        // `-6-5` in ASCII): "to".
        return a == b ? unit.format(lo) : "\(a)\(a < 0 || b < 0 ? " to " : "–")\(b) \(unit.symbol)"
      } ?? Fields.unknown
    let chances = shown.compactMap(\.precipitationProbability)
    let rain = chances.max().map { "max \(Fields.percent($0) as String)" } ?? Fields.unknown
    let tail = 2 + max(DisplayWidth.of(range), DisplayWidth.of(rain))
    let room = width.map { $0 - labelWidth - tail } ?? 2 * shown.count
    let cell = room >= 2 * shown.count ? 2 : 1
    let count = min(shown.count, room / cell)
    guard count >= 6 || count == shown.count else { return [] }
    let hours = Array(shown.prefix(count))

    let levels: [Character] = term.unicode ? ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] : Array("_.-:=+*#")
    var temp = "temp  ", marks = "rain  "
    var labels = [Character](repeating: " ", count: count * cell)
    for (i, h) in hours.enumerated() {
      if let t = h.temperatureC, let lo, let hi {
        let level = hi == lo ? 4 : 1 + Int(((t - lo) / (hi - lo) * 7).rounded(.toNearestOrAwayFromZero))
        temp += term.paint(String(repeating: levels[level - 1], count: cell), Terminal.band(t))
      } else {
        temp += String(repeating: " ", count: cell)
      }
      marks += term.paint(String(repeating: mark(h.precipitationProbability, unicode: term.unicode), count: cell), "34")
      let hour = h.hourOfDay
      if hour % 3 == 0, i * cell + 2 <= labels.count, i == 0 || labels[i * cell - 1] == " " {
        labels[i * cell] = Character(String(hour / 10))
        labels[i * cell + 1] = Character(String(hour % 10))
      }
    }
    let pad = String(repeating: " ", count: 2)
    return [
      temp + pad + range, marks + pad + rain,
      Chart.trimRight(String(repeating: " ", count: labelWidth) + String(labels)),
    ]
  }

  static func mark(_ chance: Double?, unicode: Bool) -> Character {
    guard let p = chance, p >= 20 else { return " " }
    if p < 50 { return unicode ? "░" : "." }
    if p < 80 { return unicode ? "▒" : ":" }
    return unicode ? "▓" : "#"
  }
}
