import WXCore

/// One city in detail, as `wx show` prints it: a picture of the conditions beside the facts,
/// then the forecast; `{"id", "city", …, "forecast": [...]}`.
struct CityView: View {
  var city: City
  /// Now, for which forecast days are past (``City/datedForecast(at:)``).
  var now: Int64
  var unit: TemperatureUnit
  var freshness: String

  func json() -> JSON {
    let c = city
    return .object([
      ("id", .int(c.id)), ("city", .string(c.name)), ("country", Fields.country(c)),
      ("latitude", .number(c.latitude)), ("longitude", .number(c.longitude)),
    ] + Fields.weather(c.temperatureC, c.description, c.humidity, c.windKmh, unit) + [
      ("observed_at", c.observation.map { .string($0.iso8601) } ?? .null),
      ("source", c.observation.map { .string($0.source) } ?? .null),
    ] + Self.forecastJSON(c.datedForecast(at: now), unit, key: "forecast"))
  }

  /// The forecast from the city's today on (`key`), its date today and the days already past:
  /// `"today"`, `key`, `"past_days"`.
  static func forecastJSON(_ f: DatedForecast, _ unit: TemperatureUnit, key: String, days: [DatedForecast.Day]? = nil)
    -> [(String, JSON)]
  {
    [
      ("today", .string(f.today)), (key, .array((days ?? f.upcoming).map { forecastItem($0.day, unit) })),
      ("past_days", .array(f.past.map { forecastItem($0.day, unit) })),
    ]
  }

  static func forecastItem(_ d: ForecastDay, _ unit: TemperatureUnit) -> JSON {
    .object([("date", .string(d.date))] + Fields.weather(d.temperatureC, d.description, d.humidity, d.windKmh, unit, unitKey: false))
  }

  func text(_ term: Terminal) -> String {
    var out = ""
    for line in Self.summary(city, unit, term) { out += line + "\n" }
    let observed = city.observation.map { "observed \($0.clock.visible) local, \($0.source.visible) · " } ?? ""
    return out + "\n" + Self.forecast(city.datedForecast(at: now), unit, term) + term.dim(observed + freshness)
  }

  /// The forecast table from the city's today on, then how many days before it were left
  /// out as past; a forecast wholly in the past says so instead of a table.
  static func forecast(_ f: DatedForecast, _ unit: TemperatureUnit, _ term: Terminal) -> String {
    guard !f.isWhollyPast else { return wordsForPast(f, term) }
    return forecastTable(f.upcoming, unit, term) + wordsForPast(f, term)
  }

  /// What a forecast with past days says of them: none when no day is past.
  static func wordsForPast(_ f: DatedForecast, _ term: Terminal) -> String {
    let past = f.past
    guard let last = past.last?.day.date.visible else { return "" }
    // Short lines: each fits 40 columns.
    if f.isWhollyPast { return "Forecast wholly past (to \(last)).\nToday there: \(f.today.visible); run `wx sync`.\n" }
    let n = past.count
    return term.dim("\(n) past day\(n == 1 ? "" : "s") not shown (\(n == 1 ? "" : "to ")\(last)).") + "\n"
  }

  /// The Day column: `Today`, `Tomorrow`, then the weekday (`Fri`); a past day is `past`.
  static func label(_ d: DatedForecast.Day) -> String {
    switch d.fromToday {
    case ..<0: "past"
    case 0: "Today"
    case 1: "Tomorrow"
    default: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][d.weekday]
    }
  }

  /// The picture and the facts, side by side: five lines.
  static func summary(_ c: City, _ unit: TemperatureUnit, _ term: Terminal) -> [String] {
    var facts = weather(c, unit, term)
    facts[3] = term.dim(facts[3])
    return beside(c, [term.bold("\(c.name.visible), \(c.country.visible)") + term.dim("  id \(c.id)")] + facts, term)
  }

  /// Description, temperature, humidity and wind, coordinates: four lines (`wx show`, `wx browse`).
  static func weather(_ c: City, _ unit: TemperatureUnit, _ term: Terminal) -> [String] {
    [
      c.description.visible, term.temperature(c.temperatureC, unit),
      "humidity \(Fields.humidity(c.humidity) as String) · wind \(Fields.wind(c.windKmh, unit) as String)", coordinates(c),
    ]
  }

  /// The picture of the city's conditions with `lines` beside it (five at most).
  static func beside(_ c: City, _ lines: [String], _ term: Terminal) -> [String] {
    let condition = Condition(description: c.description)
    let art = Art.picture(condition, unicode: term.unicode).map { term.paint($0, Art.color(condition)) }
    return zip(art, lines).map { $0 + "  " + $1 }
  }

  static func coordinates(_ c: City) -> String {
    guard c.hasCoordinates else { return "coordinates unknown" }
    let lat = "\(Number.oneDecimal(abs(c.latitude)))°\(c.latitude < 0 ? "S" : "N")"
    let lon = "\(Number.oneDecimal(abs(c.longitude)))°\(c.longitude < 0 ? "W" : "E")"
    return "\(lat) \(lon)"
  }

  /// `Today  2026-11-23  Partly cloudy  17 °C  62%  10 km/h` rows, each labelled by its date
  /// (``label(_:)``) in whatever order they come. On a narrow screen Humidity, Day and Wind
  /// go, then Conditions is shortened.
  static func forecastTable(_ days: [DatedForecast.Day], _ unit: TemperatureUnit, _ term: Terminal) -> String {
    guard !days.isEmpty else { return "No forecast in the catalogue for this city.\n" }
    var t = Table(headers: ["Day", "Date", "Conditions", "Temp", "Humidity", "Wind"])
    t.rightAligned = [3, 4, 5]
    t.maxWidths = [(2, 24)]
    t.minWidths = [(2, 8)]
    t.fitting = [.drop(4), .drop(0), .drop(5), .shrink]
    for dated in days {
      let d = dated.day
      t.rows.append([
        label(dated), d.date.visible, d.description.visible, term.temperature(d.temperatureC, unit),
        Fields.humidity(d.humidity), Fields.wind(d.windKmh, unit),
      ])
    }
    return t.render(term)
  }
}
