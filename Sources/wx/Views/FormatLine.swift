import WXCore

/// `wx show --format FMT`: one line for status bars and prompts, with the specifiers of
/// wttr.in's `format=`: `%l` place, `%c` condition symbol, `%C` condition words, `%t`
/// temperature, `%f` feels-like, `%h` humidity, `%w` wind (and its direction), `%p`
/// precipitation, `%u` UV index, `%S` sunrise, `%s` sunset, `%%` a percent sign. Unknown
/// values are "–"; text from the catalogue is escaped like every other view's.
struct FormatLine: View {
  var city: City
  var unit: Units
  var format: String
  /// The time now: the age (`%a`) and the current estimate from the stored hours.
  var now: Int64 = 0
  /// `--max-age` found the values too old (or invented): each weather value prints `?`.
  var stale = false
  /// The place's region, where known: `%l` names it instead of the country when other lines
  /// name a place of the same name and country (``Lines``).
  var region: String? = nil
  /// `%l` says the region (set by ``Lines``).
  var byRegion = false

  /// Several places, one line each (`wx show A B C --format`, `wx fav --format`). Places of
  /// one name and country are told apart as the favourites' table tells them: by region
  /// (`Springfield, Illinois` and `Springfield, Missouri`, not two `Springfield, United States`).
  struct Lines: View {
    var lines: [FormatLine]
    init(_ lines: [FormatLine]) {
      let keys = lines.map { Fold.key($0.city.name) + [0x1F] + Fold.key($0.city.country) }
      var seen: [[UInt8]: Int] = [:]
      for k in keys { seen[k, default: 0] += 1 }
      self.lines = zip(lines, keys).map { line, key in
        var line = line
        line.byRegion = seen[key, default: 0] > 1 && line.region?.isEmpty == false
        return line
      }
    }
    func json() -> JSON { .array(lines.map { $0.json() }) }
    func text(_ term: Terminal) -> String { lines.map { $0.text(term) }.joined(separator: "\n") }
    var fitsWidth: Bool { false }
  }

  static let specifiers = "lcCtfhwpuSsaoPxmMDzdTZe%"

  /// A format with a `%` not followed by one of ``specifiers`` is a usage error.
  static func check(_ format: String) throws(UsageError) {
    var rest = Substring(format)
    while let p = rest.firstIndex(of: "%") {
      let next = rest.index(after: p)
      guard next < rest.endIndex else { throw UsageError("--format ends with a lone %: write %% for a percent sign") }
      guard specifiers.contains(rest[next]) else {
        let shown = ("%" + String(rest[next])).quoted(limit: 20)
        throw UsageError(
          "--format: \(shown) is not a specifier (%l %c %C %t %f %h %w %p %u %S %s %a %o %P %x %m %M %D %z %d %T %Z %e %%)")
      }
      rest = rest[rest.index(after: next)...]
    }
  }

  func json() -> JSON { .string(line(unicode: true)) }

  func text(_ term: Terminal) -> String { line(unicode: term.unicode) }

  /// A status bar reads the whole line, whatever width `COLUMNS` gives.
  var fitsWidth: Bool { false }

  func line(unicode: Bool) -> String {
    var out = ""
    var percent = false
    for ch in format {
      if percent {
        out += value(ch, unicode: unicode)
        percent = false
      } else if ch == "%" {
        percent = true
      } else {
        out.append(ch)
      }
    }
    return out
  }

  /// The specifiers whose values are weather: `?` when stale.
  static let weather = "cCtfhwpuoPxe"

  private func value(_ specifier: Character, unicode: Bool) -> String {
    let c = city.current(at: now).city
    if stale && Self.weather.contains(specifier) { return "?" }
    switch specifier {
    case "a": return Self.age(city, now)
    case "e": return OutlookText.sentence(city, unit, now)?.visible ?? Fields.unknown
    case "o": return Fields.percent(Ages.chanceOfRainNow(city, now))
    case "P": return c.pressureHpa.map { "\(Number.amount($0, 0)) hPa" } ?? Fields.unknown
    case "x": return Self.plain(Condition(description: c.description))
    case "m":
      let phase = Moon.phase(at: now)
      return unicode ? ["🌑", "🌒", "🌓", "🌔", "🌕", "🌖", "🌗", "🌘"][phase] : Moon.names[phase]
    case "M": return String(Int(Moon.age(at: now)))
    case "D", "z", "d":
      guard c.hasCoordinates else { return Fields.unknown }
      let sun = Sun.day(at: now, latitude: c.latitude, longitude: c.longitude, offset: c.utcOffsetEstimate)
      let at = specifier == "D" ? sun.dawn : specifier == "z" ? sun.noon : sun.dusk
      return at.map { CivilTime.dayAndClock($0, offset: c.utcOffsetEstimate).clock } ?? Fields.unknown
    case "T": return CivilTime.dayAndClock(now, offset: c.utcOffsetEstimate).clock
    case "Z":
      let o = c.utcOffsetEstimate
      let m = abs(o) / 60
      return "UTC\(o < 0 ? "-" : "+")\(m / 60 < 10 ? "0" : "")\(m / 60):\(m % 60 < 10 ? "0" : "")\(m % 60)"
    case "l": return "\(c.name.visible), \((byRegion ? region ?? c.country : c.country).visible)"
    case "c": return Self.symbol(Condition(description: c.description), unicode: unicode)
    case "C": return c.description.isEmpty ? Fields.unknown : c.description.visible
    case "t": return c.temperatureC.map(unit.format) ?? Fields.unknown
    case "f": return c.feelsLikeC.map(unit.format) ?? Fields.unknown
    case "h": return Fields.humidity(c.humidity)
    case "w":
      let wind: String = Fields.wind(c.windKmh, unit)
      return c.windDirection == nil ? wind : wind + " " + Fields.direction(c.windDirection, unicode: unicode)
    case "p": return Fields.precipitation(c.precipitationMm, unit)
    case "u": return c.observedHour?.uvIndex.map { Number.amount($0, 0) } ?? Fields.unknown
    case "S": return Fields.clock(c.observedDay?.sunrise)
    case "s": return Fields.clock(c.observedDay?.sunset)
    default: return "%"
    }
  }

  /// `%a`: `12m`, `5h`, `2d` since the values were observed (or served); `now` within five
  /// seconds; `ahead` when they are dated over an hour after this computer's clock;
  /// `sample` for invented values.
  static func age(_ c: City, _ now: Int64) -> String {
    guard let p = c.provenance else { return Fields.unknown }  // a place without weather
    guard let age = p.age(at: now), let at = p.observedAt else { return "sample" }
    if Ages.isAhead(at, now) { return "ahead" }  // of this computer's clock
    return age < 5 ? "now" : Clock.age(age)
  }

  /// wttr.in's plain-text symbols (`%x`).
  static func plain(_ condition: Condition) -> String {
    switch condition {
    case .sunny, .clear: "o"
    case .partlyCloudy, .scatteredClouds: "mo"
    case .cloudy: "mm"
    case .rain: "//"
    case .showers: "/"
    case .snow: "*"
    case .fog: "="
    case .thunder: "/!/"
    case .unknown: "?"
    }
  }

  /// wttr.in's symbols (without emoji variation selectors); a word without Unicode.
  static func symbol(_ condition: Condition, unicode: Bool) -> String {
    switch condition {
    case .sunny, .clear: unicode ? "☀" : "sun"
    case .partlyCloudy, .scatteredClouds: unicode ? "⛅" : "partly"
    case .cloudy: unicode ? "☁" : "clouds"
    case .rain: unicode ? "🌧" : "rain"
    case .showers: unicode ? "🌦" : "showers"
    case .snow: unicode ? "❄" : "snow"
    case .fog: unicode ? "🌫" : "fog"
    case .thunder: unicode ? "⛈" : "thunder"
    case .unknown: unicode ? "✨" : "?"
    }
  }
}

extension FormatLine {
  /// One place's line: a catalogue city's weather, or what wx knows of an atlas place.
  init(place: Found, unit: Units, format: String, _ ctx: Context) {
    self.init(city: place.city ?? place.asCity, unit: unit, format: format, now: ctx.now, stale: false)
    region = place.place?.region
  }
}
