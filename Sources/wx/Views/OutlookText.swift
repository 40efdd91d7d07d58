import WXCore

/// The words for what is coming (``Outlook``): the sentence on top of `wx show`, browse's
/// detail screen and `%e`, and `wx alerts`' lines and JSON. Every word of it is here, once.
enum OutlookText {
  /// Events a sentence names at most: the most important, then in time order.
  static let sentenceEvents = 3

  /// The rest of today and tomorrow, in the place's local time: until the end of tomorrow,
  /// seconds since the epoch.
  static func endOfTomorrow(_ city: City, _ now: Int64) -> Int64 {
    let offset = Int64(city.utcOffsetEstimate)
    let local = Int64.floorDivide(now + offset, by: 60)
    let midnight = local - ((local % 1440) + 1440) % 1440
    return (midnight + 2 * 1440) * 60 - offset
  }

  /// "Rain from 15:00 (80 %), about 4 mm, until 19:00. Tomorrow 6° colder." — nil without
  /// stored hours to come (freetestapi, AccuWeather, the sample, or all past): wx says
  /// nothing rather than guess. Data over three hours old says from when.
  /// `events`: the city's events to the end of tomorrow, when the caller has them already.
  static func sentence(_ city: City, _ unit: Units, _ now: Int64, events known: [Outlook.Event]? = nil) -> String? {
    guard case .hours = city.hours(at: now) else { return nil }
    let events = known ?? Outlook.events(city, now: now, until: endOfTomorrow(city, now))
    let chosen = events.sorted { ($0.event.order, $0.start) < ($1.event.order, $1.start) }
      .reduce(into: [Outlook.Event]()) { out, e in
        // One of each kind: the first spell of rain, not every shower.
        if out.count < sentenceEvents && !out.contains(where: { $0.event == e.event }) { out.append(e) }
      }
      .sorted { ($0.start, $0.event.order) < ($1.start, $1.event.order) }
    // A claim of nothing stops where the stored hours stop.
    let local = Int64.floorDivide(endOfTomorrow(city, now) + Int64(city.utcOffsetEstimate), by: 60)
    let through =
      Outlook.storedUntil(city).flatMap { $0 < local ? "until " + when($0, city, now, bare: true) : nil } ?? "through tomorrow"
    var s =
      chosen.isEmpty
      ? "No rain, storm, frost, heat or strong gusts \(through)."
      : chosen.map { phrase($0, city, unit, now) + "." }.joined(separator: " ")
    if let data = dataTime(city, now) { s = "From data of \(data): " + lowerFirst(s) }
    return s
  }

  /// When the values were observed, for values over three hours old ("13:00", "Mon 13:00");
  /// nil for fresh ones.
  static func dataTime(_ city: City, _ now: Int64) -> String? {
    guard Ages.isStale(city, now), let o = city.observation, let t = LocalTime.minutes(o.localTime) else { return nil }
    return when(t, city, now, bare: true)
  }

  /// One event in words: "Rain from 15:00 (80 %), about 4 mm, until 19:00".
  static func phrase(_ e: Outlook.Event, _ city: City, _ unit: Units, _ now: Int64) -> String {
    let from = when(e.start, city, now)
    // The end: its clock alone on the start's day, else its day too ("until tomorrow 08:00").
    // A spell that runs past the stored hours says so, rather than seeming cut off.
    let until =
      e.end.map { end in
        let sameDay = Int64.floorDivide(end - 1, by: 1440) == Int64.floorDivide(e.start, by: 1440)
        return ", until " + (sameDay ? LocalTime.clock(Int(((end % 1440) + 1440) % 1440)) : when(end, city, now, bare: true))
      } ?? ", beyond the stored hours"
    switch e.event {
    case .precipitation:
      let word = e.kind == .snow ? "Snow" : e.kind == .thunder ? "Rain with thunder" : "Rain"
      let chance = e.chance.map { " (\(Int($0.rounded())) %)" } ?? ""
      var amount = ""
      if let v = e.value, v > 0 {
        let trace: Double = unit.inches ? 0.005 : 0.05
        amount = unit.precipitation(v) < trace ? ", a trace" : ", about " + unit.formatPrecipitation(v)
      }
      return word + " " + from + chance + amount + until
    case .thunderstorm: return "Thunderstorms " + from + until
    case .frost: return "Frost " + from + (e.value.map { ", down to \(unit.format($0))" } ?? "") + until
    case .heat:
      var out = "Heat " + from
      if let v = e.value { out += ", up to " + unit.format(v) }
      if let f = e.feelsLike, f > (e.value ?? -Double.infinity) { out += ", feeling like " + unit.format(f) }
      return out + until
    case .gusts: return "Gusts to \(e.value.map(unit.formatWind) ?? "62 km/h") " + from + until
    case .uv: return "UV \(e.value.map { String(Int($0.rounded())) } ?? "8") (very high) " + from + until
    case .temperatureChange:
      let delta = unit.temperature.difference(abs(e.value ?? 0))
      return "Tomorrow \(Int(delta.rounded())) \(unit.symbol) \(e.kind == .warmer ? "warmer" : "colder") than today"
    }
  }

  /// "now" (the current hour), "from 15:00" today, "tomorrow from 06:00", or a weekday and a
  /// time further on; `bare` leaves out "from".
  static func when(_ minutes: Int64, _ city: City, _ now: Int64, bare: Bool = false) -> String {
    let local = Int64.floorDivide(now + Int64(city.utcOffsetEstimate), by: 60)
    let today = local - ((local % 1440) + 1440) % 1440
    let clock = LocalTime.clock(Int(((minutes % 1440) + 1440) % 1440))
    let day = Int64.floorDivide(minutes - today, by: 1440)
    if !bare && minutes <= local { return "now" }
    let prefix = bare ? "" : "from "
    switch day {
    case 0: return prefix + clock
    case 1: return "tomorrow " + prefix + clock
    case -1: return "yesterday " + prefix + clock
    default:
      let weekday = CalendarDay.weekday(Int(Int64.floorDivide(minutes, by: 1440)))
      return CityView.weekdays[weekday] + " " + prefix + clock
    }
  }

  static func lowerFirst(_ s: String) -> String { s.prefix(1).lowercased() + s.dropFirst() }

  /// `{place, event, kind, start, end, value, unit}`: times the place's local ISO 8601
  /// (`2026-11-27T15:00`), the value in the unit chosen.
  static func json(_ e: Outlook.Event, place: String?, _ unit: Units) -> JSON {
    let (value, symbol): (Double?, String) =
      switch e.unit {
      case .celsius:
        e.event == .temperatureChange
          ? (e.value.map(unit.temperature.difference), unit.symbol)
          : (e.value.map(unit.jsonTemperature), unit.symbol)
      case .mm: (e.value.map(unit.precipitation), unit.inches ? "in" : "mm")
      case .kmh: (e.value.map(unit.jsonWind), unit.wind.symbol)
      case .index: (e.value, "UV index")
      case .none: (nil, "")
      }
    var fields: [(String, JSON)] = place.map { [("place", .string($0))] } ?? []
    fields += [
      ("event", .string(e.event.rawValue)), ("kind", e.kind.map { .string($0.rawValue) } ?? .null),
      ("start", .string(LocalTime.format(e.start))), ("end", e.end.map { .string(LocalTime.format($0)) } ?? .null),
      ("value", value.map { .number(($0 * 100).rounded() / 100) } ?? .null), ("unit", symbol.isEmpty ? .null : .string(symbol)),
    ]
    if e.event == .heat {
      fields.append(("feels_like", e.feelsLike.map { .number((unit.jsonTemperature($0) * 100).rounded() / 100) } ?? .null))
    }
    if e.event == .precipitation { fields.append(("chance", e.chance.map { .number($0) } ?? .null)) }
    return .object(fields)
  }
}
