import WXCore

/// How wx words where values came from and how old they are: the one place for "observed
/// 14:00 today", a row's `5h` and the JSON provenance keys (``WXCore/Provenance``).
enum Ages {
  /// The provider as people know it.
  static func name(_ s: WeatherSource) -> String {
    switch s {
    case .sample: "the bundled sample"
    case .freetestapi: "freetestapi"
    case .accuweather: "AccuWeather"
    case .openMeteo: "Open-Meteo"
    }
  }

  /// A row's age cell: empty for values three hours old or younger, else the compact age
  /// (`5h`, `2d`); `ahead` for values dated over an hour after this computer's clock; `sample`
  /// for invented values.
  static func cell(_ c: City, _ now: Int64) -> String {
    // A place without weather (an atlas place's stand-in) has no values to age.
    guard let p = c.provenance else { return "" }
    if p.isSample { return "sample" }
    guard let age = p.age(at: now), let at = p.observedAt else { return "?" }
    if isAhead(at, now) { return "ahead" }  // of this computer's clock, as `%a` says
    return age > Staleness.rowLimit ? Clock.age(age) : ""
  }

  /// Whether any of `cities` has an age to show (the Age column is left out otherwise).
  static func anyMarked(_ cities: [City?], _ now: Int64) -> Bool {
    cities.contains { $0.map { !cell($0, now).isEmpty } ?? false }
  }

  /// `observed 14:00 today, Open-Meteo`, `observed 2026-11-25 14:00 (2d ago), Open-Meteo`,
  /// `served 09:12 today by freetestapi (its records carry no observation time)`, or for the
  /// sample `invented sample data, never observed`. Never cut: views put it on its own line.
  static func sentence(_ c: City, _ now: Int64) -> String {
    let p = c.origin
    guard let at = p.observedAt else { return "invented sample data, never observed" }
    let when = moment(at, c, now)
    switch p.source {
    case .freetestapi, .sample: return "served \(when) by \(name(p.source)) (it says nothing of when it observed)"
    case .accuweather, .openMeteo: return "observed \(when), \(name(p.source))"
    }
  }

  /// `5h ago`, or `ahead of this computer's clock` for a time over ``drift`` after `now` (not
  /// "just now"): `wx status`'s times.
  static func ago(_ at: Int64, _ now: Int64) -> String {
    isAhead(at, now) ? "ahead of this computer's clock" : Clock.ago(now - at)
  }

  /// Seconds an observation may be ahead of the clock and still read as now: AccuWeather dates
  /// its values by the hour they forecast for (up to an hour on), and clocks drift.
  static let drift: Int64 = 3600

  /// Whether `at` is over ``drift`` after `now`: every view's one test of "ahead".
  static func isAhead(_ at: Int64, _ now: Int64) -> Bool { at - now > drift }

  /// `14:00 today`, `09:00 today (5h ago)` (the age from an hour on), `yesterday 14:00 (26h ago)`,
  /// `2026-11-25 14:00 (2d ago)`: in the city's local time when the provider gave its offset, else
  /// in the user's.
  static func moment(_ at: Int64, _ c: City, _ now: Int64) -> String {
    let (date, clock, today) = local(at, c, now)
    let days = today - date
    let age = max(0, now - at)
    let ago = age >= 3600 ? " (\(Clock.ago(age)))" : ""
    // Ahead by more than a clock's usual drift: said so, even today (it read "12:00 today"
    // at 10:50, as if it were now).
    if days < 0 || isAhead(at, now) { return "\(CalendarDay.string(date)) \(clock) (ahead of this computer's clock)" }
    switch days {
    case 0: return "\(clock) today\(ago)"
    case 1: return "yesterday \(clock)\(ago)"
    // Older: the date, and the age counted as the rows count it (`5d`: whole days of 24 hours),
    // so the line and the table never disagree ("6 days ago" in calendar days beside `5d`).
    default: return "\(CalendarDay.string(date)) \(clock) (\(Clock.ago(age)))"
    }
  }

  /// The day number and clock of `at`, and today's day number, in the city's local time
  /// (its observation's offset) or the user's.
  static func local(_ at: Int64, _ c: City, _ now: Int64) -> (day: Int, clock: String, today: Int) {
    if let offset = c.observation?.utcOffsetSeconds {
      let (day, clock) = CivilTime.dayAndClock(at, offset: offset)
      return (day, clock, CalendarDay.number(at: now, offset: offset))
    }
    let dayOf = { (t: Int64) in CalendarDay.number(Clock.format(t, "%Y-%m-%d")) ?? 0 }
    return (dayOf(at), Clock.format(at, "%H:%M"), dayOf(now))
  }

  /// The age line: the estimate's label when `hour` stands for the current values (`forecast
  /// for 16:00, from data of 13:00; `), then ``sentence(_:_:)``.
  static func line(_ c: City, _ now: Int64, estimate hour: ForecastHour? = nil) -> String {
    (hour.map { estimate($0, c) + "; " } ?? "") + sentence(c, now)
  }

  /// Whether `c`'s values are over three hours old or invented: its age line is bold.
  static func isStale(_ c: City, _ now: Int64) -> Bool { c.origin.isOlder(than: Staleness.rowLimit, at: now) }

  /// The chance of rain now (waybar's `percentage`, `--format %o`): the stored hour's when
  /// it is now; past the stored hours, none: the last observation's hour is not now, however
  /// long ago it was (its age says so).
  static func chanceOfRainNow(_ c: City, _ now: Int64) -> Double? {
    let (shown, source, _) = c.current(at: now)
    guard source == .forecast || !isStale(c, now) else { return nil }
    return shown.observedHour?.precipitationProbability
  }

  /// `forecast for 14:00, from data of 09:00` (a current estimate from the stored hours).
  static func estimate(_ hour: ForecastHour, _ c: City) -> String {
    let from = c.observation.map { " from data of \($0.clock)" } ?? ""
    return "forecast for \(LocalTime.clock(hour.hourOfDay * 60)),\(from)"
  }

  /// ``json(_:_:)``'s keys for a place without weather: null, `sample` false.
  static let none: [(String, JSON)] = [
    ("source", .null), ("sample", .bool(false)), ("observed_at", .null), ("age_seconds", .null), ("current_from", .null),
  ]

  /// `source`, `sample`, `observed_at` (ISO 8601 with the offset, or null), `age_seconds`
  /// (or null) and `current_from` (``WXCore/City/current(at:)``'s, so every command says the
  /// same): every city object's provenance in JSON.
  static func json(_ c: City, _ now: Int64) -> [(String, JSON)] {
    let from = c.current(at: now).source
    let p = c.origin
    let observed: JSON
    if let o = c.observation, p.source.hasObservationTime {
      observed = .string(o.iso8601)
    } else {
      observed = p.observedAt.map { .string(Clock.iso8601($0)) } ?? .null
    }
    return [
      ("source", .string(p.source.rawValue)), ("sample", .bool(p.isSample)), ("observed_at", observed),
      // Signed: values dated ahead of this computer's clock are negative, not "0 seconds old".
      ("age_seconds", p.observedAt.map { .int(Int(now - $0)) } ?? .null), ("current_from", .string(from.rawValue)),
    ]
  }

  /// `text` in lines of at most `width` columns, broken between words.
  static func wrap(_ text: String, _ width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      let w = String(word).visible
      if line.isEmpty {
        line = w
      } else if DisplayWidth.of(line) + 1 + DisplayWidth.of(w) <= width {
        line += " " + w
      } else {
        lines.append(line)
        line = w
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
