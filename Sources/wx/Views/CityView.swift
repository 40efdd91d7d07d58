import WXCore

/// One city in detail, as `wx show` prints it: a picture of the conditions beside the facts,
/// then the forecast; `{"id", "city", …, "forecast": [...]}`.
struct CityView: View {
  var city: City
  var unit: TemperatureUnit
  var freshness: String
  /// The atlas place the city is, if any (its region, population and country code).
  var place: Place? = nil

  func json() -> JSON {
    let c = city
    return .object([
      ("id", .int(c.id)), ("city", .string(c.name)), ("country", .string(c.country)),
      ("latitude", .number(c.latitude)), ("longitude", .number(c.longitude)),
    ] + Fields.weather(c.temperatureC, c.description, c.humidity, c.windKmh, unit) + [
      ("observed_at", c.observation.map { .string($0.iso8601) } ?? .null),
      ("source", c.observation.map { .string($0.source) } ?? .null),
      ("forecast", .array(c.forecast.map { Self.forecastItem($0, unit) })),
    ] + AtlasFields.of(place))
  }

  static func forecastItem(_ d: ForecastDay, _ unit: TemperatureUnit) -> JSON {
    .object([("date", .string(d.date))] + Fields.weather(d.temperatureC, d.description, d.humidity, d.windKmh, unit, unitKey: false))
  }

  func text(_ term: Terminal) -> String {
    var out = ""
    for line in Self.summary(city, unit, term) { out += line + "\n" }
    var observed = city.observation.map { "observed \($0.clock.visible) local, \($0.source.visible) · " } ?? ""
    if let place { observed = (place.region.map { $0.visible + " · " } ?? "") + "\(PlaceText.people(place.population)) people · " + observed }
    return out + "\n" + Self.forecastTable(city.forecast, unit, term) + term.dim(observed + freshness)
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
    let lat = "\(Number.oneDecimal(abs(c.latitude)))°\(c.latitude < 0 ? "S" : "N")"
    let lon = "\(Number.oneDecimal(abs(c.longitude)))°\(c.longitude < 0 ? "W" : "E")"
    return "\(lat) \(lon)"
  }

  /// `Day 1  2026-11-23  Partly cloudy  17 °C  62%  10 km/h` rows. On a narrow screen Humidity,
  /// Day and Wind go, then Conditions is shortened.
  static func forecastTable(_ days: [ForecastDay], _ unit: TemperatureUnit, _ term: Terminal) -> String {
    guard !days.isEmpty else { return "No forecast in the catalogue for this city.\n" }
    var t = Table(headers: ["Day", "Date", "Conditions", "Temp", "Humidity", "Wind"])
    t.rightAligned = [3, 4, 5]
    t.maxWidths = [(2, 24)]
    t.minWidths = [(2, 8)]
    t.fitting = [.drop(4), .drop(0), .drop(5), .shrink]
    for (k, d) in days.enumerated() {
      t.rows.append([
        "Day \(k + 1)", d.date.visible, d.description.visible, term.temperature(d.temperatureC, unit),
        Fields.humidity(d.humidity), Fields.wind(d.windKmh, unit),
      ])
    }
    return t.render(term)
  }
}
