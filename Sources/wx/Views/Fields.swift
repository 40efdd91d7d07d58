import WXCore

/// How a city's measured values print when a provider may not know them: "–" in text,
/// `null` in JSON, never an invented 0.
enum Fields {
  static let unknown = "–"

  /// A city's country in JSON: `null` when the provider named none (AccuWeather may not).
  static func country(_ c: City) -> JSON { c.country.isEmpty ? .null : .string(c.country) }

  /// "Name, Country", or the name alone when the country is unknown; escaped.
  /// `region`: named too (another place of the name is in its country: two Portlands).
  static func place(_ c: City, region: String? = nil) -> String {
    guard !c.country.isEmpty else { return c.name.visible }
    if let region, region != c.name { return "\(c.name.visible), \(region.visible), \(c.country.visible)" }
    return "\(c.name.visible), \(c.country.visible)"
  }

  static func humidity(_ h: Double?) -> String { h.map { "\(Number.oneDecimal($0))%" } ?? unknown }
  static func wind(_ kmh: Double?, _ unit: Units) -> String { kmh.map(unit.formatWind) ?? unknown }

  /// Whole percent: `52%`, a chance below one half `<1%`.
  static func percent(_ p: Double?) -> String { p.map { "\(Number.amount($0, 0))%" } ?? unknown }
  static func precipitation(_ mm: Double?, _ unit: Units) -> String { mm.map(unit.formatPrecipitation) ?? unknown }
  static func clock(_ minutes: Int?) -> String { minutes.map(LocalTime.clock) ?? unknown }

  /// `3 moderate` (the WHO category), a UV index below one half `<1 low`, or "–".
  static func uv(_ uv: Double?) -> String {
    uv.map { "\(Number.amount($0, 0)) \(UVCategory($0).name)" } ?? unknown
  }

  static let compassPoints = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
  /// Where the wind blows to, from where it comes from (north: ↓), eight ways.
  static let arrows = ["↓", "↙", "←", "↖", "↑", "↗", "→", "↘"]

  /// The wind's compass point (16 points: `SW`), with an arrow where it blows to when the
  /// terminal has Unicode (`SW ↗`).
  static func direction(_ degrees: Double?, unicode: Bool) -> String {
    guard let d = degrees else { return unknown }
    let point = compassPoints[Int((d / 22.5).rounded(.toNearestOrAwayFromZero)) % 16]
    return unicode ? point + " " + arrows[Int((d / 45).rounded(.toNearestOrAwayFromZero)) % 8] : point
  }

  static func temperature(_ c: Double?, _ unit: Units) -> JSON {
    c.map { .number(unit.jsonTemperature($0)) } ?? .null
  }
  static func humidity(_ h: Double?) -> JSON { h.map(JSON.number) ?? .null }
  static func number(_ v: Double?) -> JSON { v.map(JSON.number) ?? .null }
  static func precipitation(_ mm: Double?, _ unit: Units) -> JSON { mm.map { .number(unit.jsonPrecipitation($0)) } ?? .null }
  static func clock(_ minutes: Int?) -> JSON { minutes.map { .string(LocalTime.clock($0)) } ?? .null }
  static func wind(_ kmh: Double?, _ unit: Units) -> JSON { kmh.map { .number(unit.jsonWind($0)) } ?? .null }

  /// `temperature`, `unit` and `wind_unit` (a city's, not a day's), `description`, `humidity`
  /// and `wind_speed`.
  static func weather(
    _ c: Double?, _ description: String, _ h: Double?, _ w: Double?, _ unit: Units, unitKey: Bool = true
  ) -> [(String, JSON)] {
    [("temperature", temperature(c, unit))]
      + (unitKey ? [("unit", .string(unit.rawValue)), ("wind_unit", .string(unit.wind.rawValue))] : [])
      + [("description", .string(description)), ("humidity", humidity(h)), ("wind_speed", wind(w, unit))]
  }
}

extension Terminal {
  /// A temperature in its colour band, or "–" when unknown.
  func temperature(_ celsius: Double?, _ unit: Units) -> String {
    celsius.map { temperature($0, unit) } ?? Fields.unknown
  }
}
