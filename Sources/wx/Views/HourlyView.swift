import WXCore

/// `wx forecast --hourly`: a row per hour from the city's current local hour;
/// `{"id", "city", "country", "region", "unit", "wind_unit", "hourly": [...]}` (the items of `wx show`).
/// A record without hours, or whose hours are all past, says so once, and its list is empty.
struct HourlyView: View {
  var city: City
  var window: HourWindow
  /// The hours asked: fewer shown means the stored hours end within them, which is said.
  var asked = 24
  /// The catalogue's provider, to say why a record has no hours.
  var provider: String
  var unit: Units
  var freshness: String
  /// The time now (seconds since the epoch): when an ended forecast ended, in words.
  var now: Int64
  /// The place's region when another place of its name is in its country (``ForecastView/region``).
  var region: String? = nil

  var hours: [ForecastHour] {
    if case .hours(let h) = window { return h }
    return []
  }

  func json() -> JSON {
    .object(
      [
        ("id", .int(city.id)), ("city", .string(city.name)), ("country", .string(city.country)),
        ("region", region.map { .string($0) } ?? .null),
        ("unit", .string(unit.rawValue)), ("wind_unit", .string(unit.wind.rawValue)),
        ("hourly", .array(hours.map { CityView.hourItem($0, unit) })),
      ] + Ages.json(city, now))
  }

  /// When and by whom the hours were forecast (the observation's age), never cut.
  func age(_ term: Terminal) -> String {
    CityView.ageLine(Ages.line(city, now), stale: Ages.isStale(city, now), term) + "\n"
  }

  func text(_ term: Terminal) -> String {
    var out = term.bold(PlaceText.heading(city, region: region))
    switch window {
    case .none:
      // Short lines: each fits 40 columns.
      let from =
        switch provider {
        case "freetestapi": "from freetestapi"
        case "accuweather": "from AccuWeather"
        case "sample": "in the sample"
        default: "for this city"
        }
      return out + "\nNo hourly forecast \(from).\nOpen-Meteo sends 48 hours:\n  wx sync --provider open-meteo\n"
        + term.footer(freshness)
    case .ended(let last):
      return out + "\n" + Self.ended(last, city, now).joined(separator: "\n") + "\n" + age(term) + term.footer(freshness)
    case .hours(let hours):
      out += " · next \(hours.count) hour\(hours.count == 1 ? "" : "s"), local time\n"
      let end = hours.count < asked ? "The stored hours end here: sync again for the next ones.\n" : ""
      return out + Self.table(hours, unit, term) + end + age(term) + term.footer(freshness)
    }
  }

  /// `Today 2026-11-23  13:00  Slight rain  12 °C  10 °C  52%  0.3 mm  13.4 km/h  SE ↖  23.4 km/h  7 high`
  /// rows, the date only where it changes. On a narrow screen Gusts, Feels, Dir, Precip and UV
  /// go, then the date leaves its column for a line of its own above the day's first hour
  /// (today's 14:00 is never mistaken for tomorrow's), then Conditions is shortened.
  static func table(_ hours: [ForecastHour], _ unit: Units, _ term: Terminal) -> String {
    var t = Table(headers: ["Date", "Time", "Conditions", "Temp", "Feels", "Rain", "Precip", "Wind", "Dir", "Gusts", "UV"])
    t.rightAligned = [3, 4, 5, 6, 7, 9]
    t.maxWidths = [(2, 24)]
    t.minWidths = [(2, 8)]
    t.fitting = [.drop(9), .drop(4), .drop(8), .drop(6), .drop(10), .drop(0), .shrink]
    t.headingColumn = 0
    var day = ""
    let today = hours.first.flatMap { CalendarDay.number(String($0.time.prefix(10))) }
    for h in hours {
      let date = String(h.time.prefix(10))
      t.rows.append([
        date == day ? "" : Self.day(date, today: today), String(h.time.dropFirst(11)).visible,
        h.weatherCode == nil ? Fields.unknown : h.description.visible, term.temperature(h.temperatureC, unit),
        term.temperature(h.feelsLikeC, unit), Fields.percent(h.precipitationProbability),
        Fields.precipitation(h.precipitationMm, unit), Fields.wind(h.windKmh, unit),
        Fields.direction(h.windDirection, unicode: term.unicode), Fields.wind(h.gustsKmh, unit), Fields.uv(h.uvIndex),
      ])
      day = date
    }
    return t.render(term)
  }

  /// `The hourly forecast ended yesterday` / `at 13:00 local time; run `wx sync`.`: when the
  /// last stored hour (which began at `last`, local) ended, against the city's date at `now`,
  /// in words; two lines, each within 40 columns.
  static func ended(_ last: String, _ city: City, _ now: Int64) -> [String] {
    let tail = " local time; run `wx sync`."
    guard let start = LocalTime.minutes(last), let offset = city.observation?.utcOffsetSeconds else {
      return ["The hourly forecast ended", last.visible + tail]
    }
    let end = start + 60
    let clock = Int((end % 1440 + 1440) % 1440)
    let days = CivilTime.daysAgo(localMinutes: end, now: now, offset: offset)
    let when =
      switch days {
      case ...0: "today"
      case 1: "yesterday"
      default: "\(days) days ago"
      }
    return ["The hourly forecast ended \(when)", "at \(LocalTime.clock(clock))" + tail]
  }

  /// `Tomorrow 2026-11-24`: the date named as the daily table names it (``CityView/label(_:)``),
  /// counted from `today`, the first hour's date (the city's current hour).
  static func day(_ date: String, today: Int?) -> String {
    guard let n = CalendarDay.number(date), let today else { return date.visible }
    return CityView.label(fromToday: n - today, weekday: CalendarDay.weekday(n)) + " " + date.visible
  }
}
