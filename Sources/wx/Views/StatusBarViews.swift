import WXCore

/// What a status bar reads of one city.
///
/// `--waybar`: one JSON object as waybar's custom module reads it (`"return-type": "json"`):
/// `text` (the `--format` line, default `%c %t`), `tooltip` (place, conditions, high and low,
/// the next hours, the age line), `class` (the condition as a CSS word, plus `stale` when the
/// values are older than `--max-age`, three hours by default, or invented) and `percentage`
/// (the chance of rain now, when known: not an observation's past the stored hours).
///
/// `--i3blocks`: i3blocks' three lines: the full text (the `--format` line), the short text
/// (`%t`) and the colour (none when fresh, orange when stale: a hue that reads on a light bar
/// and a dark one).
struct StatusBarView: View {
  enum Bar { case waybar, i3blocks }

  var bar: Bar
  var city: City
  var unit: Units
  var format: String
  var now: Int64
  /// Older than `--max-age`, three hours without it, or invented: the `stale` class.
  var stale: Bool
  /// `--max-age` was given and the values are older: `?` in place of each (as `--format`).
  var marked = false
  /// The place's region, named in the tooltip when another place of its name is in its
  /// country (as `wx show`'s heading: "Portland, Oregon, United States").
  var region: String? = nil
  /// For a place wx has no weather for (its values all unknown): the command that fetches it,
  /// the tooltip's last line in place of an age (it has none: nothing was observed or invented).
  var fetch: String? = nil

  func json() -> JSON { json(unicode: true) }

  /// waybar's object; `unicode` false (an ASCII terminal) spells the condition as a word, as
  /// `--format %c` does, rather than a symbol the output would turn into `?`.
  func json(unicode: Bool) -> JSON {
    guard bar == .waybar else { return .string(text(Terminal(color: false, unicode: true, width: nil))) }
    let (shown, _, hour) = city.current(at: now)
    let line = FormatLine(city: city, unit: unit, format: format, now: now, stale: marked).line(unicode: unicode)
    var members: [(String, JSON)] = [
      ("text", .string(line)), ("tooltip", .string(tooltip(shown, hour))),
      (
        "class",
        .array(([StatusBar.cssClass(Condition(description: shown.description))] + (stale ? ["stale"] : [])).map { .string($0) })
      ),
    ]
    if let chance = Ages.chanceOfRainNow(city, now) { members.append(("percentage", .int(Int(chance.rounded())))) }
    return .object(members)
  }

  /// waybar's object on one line (it reads a line per update), or i3blocks' lines.
  func text(_ terminal: Terminal) -> String {
    guard bar == .i3blocks else { return json(unicode: terminal.unicode).text }
    let line = { (format: String) in
      FormatLine(city: city, unit: unit, format: format, now: now, stale: marked).line(unicode: terminal.unicode)
    }
    return [line(format), line("%t"), stale ? "#FF8C00" : ""].joined(separator: "\n")
  }

  var fitsWidth: Bool { false }

  func tooltip(_ c: City, _ hour: ForecastHour?) -> String {
    var lines = [
      Fields.place(c, region: region),
      "\(c.description.isEmpty ? Fields.unknown : c.description) · \(c.temperatureC.map(unit.format) ?? Fields.unknown)",
    ]
    if let feels = c.feelsLikeC { lines[1] += " (feels like \(unit.format(feels)))" }
    if let today = c.datedForecast(at: now).upcoming.first?.day {
      let high = today.temperatureC.map(unit.format) ?? Fields.unknown
      let low = today.temperatureMinC.map(unit.format) ?? Fields.unknown
      lines.append("today: high \(high) · low \(low)")
    }
    if case .hours(let hours) = c.hours(at: now, limit: 6) {
      lines.append(
        hours.map { "\(LocalTime.clock($0.hourOfDay * 60)) \($0.temperatureC.map(unit.format) ?? Fields.unknown)" }.joined(
          separator: " · "))
    }
    lines.append(fetch.map { "no weather yet: `\($0)` fetches it" } ?? Ages.line(city, now, estimate: hour))
    return lines.joined(separator: "\n")
  }
}

enum StatusBar {
  /// The condition as a CSS-friendly word (waybar's `class`).
  static func cssClass(_ c: Condition) -> String {
    switch c {
    case .sunny: "sunny"
    case .clear: "clear"
    case .partlyCloudy: "partly-cloudy"
    case .scatteredClouds: "scattered-clouds"
    case .cloudy: "cloudy"
    case .rain: "rain"
    case .showers: "showers"
    case .snow: "snow"
    case .fog: "fog"
    case .thunder: "thunder"
    case .unknown: "unknown"
    }
  }
}
