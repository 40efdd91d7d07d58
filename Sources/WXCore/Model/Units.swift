/// The temperature unit a person reads in. Wind follows it: km/h with Celsius, mph with
/// Fahrenheit. Values are stored metric and converted only here, as numbers: the words and
/// symbols they print with belong to the front end (wx's Views/UnitText.swift).
package enum TemperatureUnit: String, CaseIterable, Sendable {
  case celsius
  case fahrenheit

  /// Accepts `celsius`, `fahrenheit`, `c`, `f`, `C`, `F`.
  package init?(argument: String) {
    switch argument.lowercased() {
    case "c", "celsius", "°c": self = .celsius
    case "f", "fahrenheit", "°f": self = .fahrenheit
    default: return nil
    }
  }

  /// `celsius` → the value in this unit.
  package func temperature(_ celsius: Double) -> Double {
    self == .celsius ? celsius : celsius * 9 / 5 + 32
  }

  /// `kmh` → km/h or mph.
  package func wind(_ kmh: Double) -> Double {
    self == .celsius ? kmh : kmh / 1.609344
  }

  /// Rounds half away from zero (18.5 → 19, -2.5 → -3).
  package static func round(_ v: Double) -> Int { Int(v.rounded(.toNearestOrAwayFromZero)) }

  /// The value carried in JSON: °C as stored, °F to one decimal.
  package func jsonTemperature(_ celsius: Double) -> Double {
    self == .celsius ? celsius : (temperature(celsius) * 10).rounded(.toNearestOrAwayFromZero) / 10
  }

  package func jsonWind(_ kmh: Double) -> Double {
    self == .celsius ? kmh : (wind(kmh) * 10).rounded(.toNearestOrAwayFromZero) / 10
  }
}

/// Conditions a description belongs to, for pictures and the rain filter.
package enum Condition: String, CaseIterable, Sendable {
  case sunny, clear, partlyCloudy, cloudy, scatteredClouds, rain, showers, snow, fog, thunder, unknown

  /// Classifies a free-text description ("Partly Cloudy", "Rain showers", "Rainy"…, the
  /// ``WMOCode`` wordings: drizzle is rain, thunderstorms are thunder, snow showers are snow,
  /// fog is fog; and AccuWeather's phrases: "T-Storms", "Flurries", "Dreary (Overcast)",
  /// "Intermittent clouds", "Hazy sunshine", "Hazy moonlight", "Hot"). "Cold" and "Windy" say
  /// nothing of the sky: unknown.
  package init(description: String) {
    // On the folded bytes: the standard library's generic substring search costs more than
    // the rest of `wx show` (its metadata is instantiated at first use).
    let d = Fold.key(description)
    func has(_ word: StaticString) -> Bool {
      let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
      guard d.count >= w.count else { return false }
      return (0...(d.count - w.count)).contains { i in w.indices.allSatisfy { d[i + $0] == w[$0] } }
    }
    func equals(_ word: StaticString) -> Bool { d.count == word.utf8CodeUnitCount && has(word) }
    if has("thunder") || (has("storm") && !has("snow")) { self = .thunder }
    else if has("shower") && !has("snow") { self = .showers }
    else if has("rain") || has("drizzle") { self = .rain }
    else if has("snow") || has("sleet") || has("blizzard") || has("flurr") || equals("ice") { self = .snow }
    else if has("fog") || has("mist") || has("haze") { self = .fog }
    else if has("partly") || has("intermittent") { self = .partlyCloudy }
    else if has("scattered") { self = .scatteredClouds }
    else if has("cloud") || has("overcast") || has("dreary") { self = .cloudy }
    else if has("sun") || equals("hot") { self = .sunny }
    else if has("clear") || has("moon") { self = .clear }
    else { self = .unknown }
  }

  /// Rain, showers or a thunderstorm now.
  package var isRainy: Bool { self == .rain || self == .showers || self == .thunder }
}
