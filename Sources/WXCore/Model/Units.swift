/// The temperature unit a person reads in. Wind follows it unless chosen apart (``Units``):
/// km/h with Celsius, mph with Fahrenheit. Values are stored metric and converted only here, as numbers: the words and
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

  /// A difference of temperatures in this unit (no offset: 7 °C warmer is 12.6 °F warmer).
  package func difference(_ celsius: Double) -> Double {
    self == .celsius ? celsius : celsius * 9 / 5
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
    self == .celsius ? kmh : Rounding.keepingNonZero(wind(kmh), places: 1)
  }
}

/// Rounding for values carried in JSON: a non-zero amount never becomes 0 (0.1 mm is 0.0039
/// in, not 0 in; a breeze of 0.1 km/h is 0.03 m/s, not 0 m/s).
package enum Rounding {
  /// `v` to `places` decimals (half away from zero); a non-zero `v` that would round to 0
  /// keeps up to four decimals instead.
  package static func keepingNonZero(_ v: Double, places: Int) -> Double {
    var places = places
    while true {
      var scale = 1.0
      for _ in 0..<places { scale *= 10 }
      let r = (v * scale).rounded(.toNearestOrAwayFromZero) / scale
      if r != 0 || v == 0 || places >= 4 { return r }
      places += 1
    }
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
    if has("thunder") || (has("storm") && !has("snow")) {
      self = .thunder
    } else if has("shower") && !has("snow") {
      self = .showers
    } else if has("rain") || has("drizzle") {
      self = .rain
    } else if has("snow") || has("sleet") || has("blizzard") || has("flurr") || equals("ice") {
      self = .snow
    } else if has("fog") || has("mist") || has("haze") {
      self = .fog
    } else if has("partly") || has("intermittent") {
      self = .partlyCloudy
    } else if has("scattered") {
      self = .scatteredClouds
    } else if has("cloud") || has("overcast") || has("dreary") {
      self = .cloudy
    } else if has("sun") || equals("hot") {
      self = .sunny
    } else if has("clear") || has("moon") {
      self = .clear
    } else {
      self = .unknown
    }
  }

  /// Rain, showers or a thunderstorm now.
  package var isRainy: Bool { self == .rain || self == .showers || self == .thunder }

  /// Rain, drizzle, showers, snow or thunder: what `hottest` leaves out.
  package var isWet: Bool { isRainy || self == .snow }

  /// The seed's rule for `hottest`, with real data: rain-free when the chance of
  /// precipitation is known and under 50 %; where it is not known, when the description names
  /// no rain, snow, drizzle, showers or thunder.
  package static func isRainFree(chance: Double?, description: String) -> Bool {
    if let chance { return chance < 50 }
    return !Condition(description: description).isWet
  }
}

extension ForecastDay {
  /// Rain-free by ``Condition/isRainFree(chance:description:)``: the day's highest chance.
  package var isRainFree: Bool { Condition.isRainFree(chance: precipitationProbability, description: description) }
}

extension City {
  /// Rain-free now by ``Condition/isRainFree(chance:description:)``: the chance of the
  /// observation's hour, when stored.
  package var isRainFree: Bool {
    Condition.isRainFree(chance: observedHour?.precipitationProbability, description: description)
  }
}

/// The wind unit a person reads in. Without one saved, wind follows the temperature unit
/// (km/h with Celsius, mph with Fahrenheit).
package enum WindUnit: String, CaseIterable, Sendable {
  case kmh, mph, ms, knots, beaufort

  /// Accepts the names and `km/h`, `kph`, `m/s`, `kn`, `kt`, `kts`, `bft`, in any case.
  package init?(argument: String) {
    switch argument.lowercased() {
    case "kmh", "km/h", "kph": self = .kmh
    case "mph": self = .mph
    case "ms", "m/s": self = .ms
    case "knots", "kn", "kt", "kts": self = .knots
    case "beaufort", "bft": self = .beaufort
    default: return nil
    }
  }

  /// `kmh` → the value in this unit (Beaufort: the force number, ``beaufort(_:)``).
  package func wind(_ kmh: Double) -> Double {
    switch self {
    case .kmh: kmh
    case .mph: kmh / 1.609344
    case .ms: kmh / 3.6
    case .knots: kmh / 1.852
    case .beaufort: Double(Self.beaufort(kmh))
    }
  }

  /// The Beaufort force 0–12 of a wind speed, by the WMO's upper limits in m/s (0.2, 1.5,
  /// 3.3, 5.4, 7.9, 10.7, 13.8, 17.1, 20.7, 24.4, 28.4, 32.6), a speed at a limit's tenth
  /// and above being the next force.
  package static func beaufort(_ kmh: Double) -> Int {
    let limits = [0.3, 1.6, 3.4, 5.5, 8.0, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7]
    let ms = kmh / 3.6
    return limits.firstIndex { ms < $0 } ?? 12
  }

  /// The value carried in JSON: km/h as stored, a Beaufort force whole, others to one decimal.
  package func json(_ kmh: Double) -> Double {
    switch self {
    case .kmh: kmh
    case .beaufort: wind(kmh)
    default: Rounding.keepingNonZero(wind(kmh), places: 1)
    }
  }
}

/// The units a value is shown in: temperature, and wind, which follows the temperature unit
/// unless chosen apart. Precipitation follows the temperature's system: mm with Celsius,
/// inches with Fahrenheit.
package struct Units: Equatable, Sendable {
  package var temperature: TemperatureUnit
  /// The wind unit chosen apart from the temperature unit, if any.
  package var chosenWind: WindUnit?

  package init(_ temperature: TemperatureUnit, wind: WindUnit? = nil) {
    self.temperature = temperature
    chosenWind = wind
  }

  package static let celsius = Units(.celsius)
  package static let fahrenheit = Units(.fahrenheit)

  /// The wind unit chosen, else km/h with Celsius and mph with Fahrenheit.
  package var wind: WindUnit { chosenWind ?? (temperature == .celsius ? .kmh : .mph) }

  /// Whether precipitation is shown in inches.
  package var inches: Bool { temperature == .fahrenheit }

  /// `mm` → mm or inches.
  package func precipitation(_ mm: Double) -> Double { inches ? mm / 25.4 : mm }

  /// The value carried in JSON: mm as stored, inches to two decimals (a trace keeps more:
  /// 0.1 mm is 0.004 in, never 0).
  package func jsonPrecipitation(_ mm: Double) -> Double {
    inches ? Rounding.keepingNonZero(precipitation(mm), places: 2) : mm
  }
}
