import WXCore

/// How a city's measured values print when a provider may not know them: "–" in text,
/// `null` in JSON, never an invented 0.
enum Fields {
  static let unknown = "–"

  /// A city's country in JSON: `null` when the provider named none (AccuWeather may not).
  static func country(_ c: City) -> JSON { c.country.isEmpty ? .null : .string(c.country) }

  /// "Name, Country", or the name alone when the country is unknown; escaped.
  static func place(_ c: City) -> String { c.country.isEmpty ? c.name.visible : "\(c.name.visible), \(c.country.visible)" }

  static func humidity(_ h: Double?) -> String { h.map { "\(Number.oneDecimal($0))%" } ?? unknown }
  static func wind(_ kmh: Double?, _ unit: TemperatureUnit) -> String { kmh.map(unit.formatWind) ?? unknown }

  static func temperature(_ c: Double?, _ unit: TemperatureUnit) -> JSON {
    c.map { .number(unit.jsonTemperature($0)) } ?? .null
  }
  static func humidity(_ h: Double?) -> JSON { h.map(JSON.number) ?? .null }
  static func wind(_ kmh: Double?, _ unit: TemperatureUnit) -> JSON { kmh.map { .number(unit.jsonWind($0)) } ?? .null }

  /// `temperature`, `unit` (a city's, not a day's), `description`, `humidity` and `wind_speed`.
  static func weather(
    _ c: Double?, _ description: String, _ h: Double?, _ w: Double?, _ unit: TemperatureUnit, unitKey: Bool = true
  ) -> [(String, JSON)] {
    [("temperature", temperature(c, unit))] + (unitKey ? [("unit", .string(unit.rawValue))] : [])
      + [("description", .string(description)), ("humidity", humidity(h)), ("wind_speed", wind(w, unit))]
  }
}

extension Terminal {
  /// A temperature in its colour band, or "–" when unknown.
  func temperature(_ celsius: Double?, _ unit: TemperatureUnit) -> String {
    celsius.map { temperature($0, unit) } ?? Fields.unknown
  }
}
