/// One hour of a city's forecast (Open-Meteo's `hourly`). Units as in ``City``; every value
/// may be unknown (nil), never 0.
package struct ForecastHour: Equatable, Sendable {
  /// The most hours kept: what a sync asks for (`forecast_hours=48`).
  package static let maxHours = 48

  /// The city's local time at the start of the hour, as ``LocalTime`` minutes (kept as a
  /// number: a record's 48 hours are read on every `wx show`, their times written only when shown).
  package var minutes: Int64
  package var temperatureC: Double?
  /// Apparent ("feels like") temperature, °C.
  package var feelsLikeC: Double?
  /// Chance of precipitation, percent.
  package var precipitationProbability: Double?
  /// Precipitation in the hour, mm.
  package var precipitationMm: Double?
  /// The WMO weather code (``WMOCode``).
  package var weatherCode: Int?
  package var windKmh: Double?
  /// Where the wind blows from, degrees clockwise from north.
  package var windDirection: Double?
  package var gustsKmh: Double?
  package var uvIndex: Double?
  package var isDay: Bool?

  package init(
    minutes: Int64, temperatureC: Double? = nil, feelsLikeC: Double? = nil, precipitationProbability: Double? = nil,
    precipitationMm: Double? = nil, weatherCode: Int? = nil, windKmh: Double? = nil, windDirection: Double? = nil,
    gustsKmh: Double? = nil, uvIndex: Double? = nil, isDay: Bool? = nil
  ) {
    self.minutes = minutes
    self.temperatureC = temperatureC
    self.feelsLikeC = feelsLikeC
    self.precipitationProbability = precipitationProbability
    self.precipitationMm = precipitationMm
    self.weatherCode = weatherCode
    self.windKmh = windKmh
    self.windDirection = windDirection
    self.gustsKmh = gustsKmh
    self.uvIndex = uvIndex
    self.isDay = isDay
  }

  /// `YYYY-MM-DDTHH:MM`.
  package var time: String { LocalTime.format(minutes) }

  /// The local hour of the day, 0–23.
  package var hourOfDay: Int { Int(((minutes / 60) % 24 + 24) % 24) }

  /// The words of ``weatherCode``; "" when unknown.
  package var description: String { weatherCode.map(WMOCode.description) ?? "" }
}

/// What a city's stored hours hold from a moment on.
package enum HourWindow: Equatable, Sendable {
  /// The hours from the current local hour on, at most the limit asked.
  case hours([ForecastHour])
  /// The provider sent no hours (freetestapi, AccuWeather, a catalogue before them).
  case none
  /// Every stored hour is past: the last began at this local time. Past hours are never
  /// shown as the future.
  case ended(last: String)
}

extension City {
  /// The hours from the city's current local hour at `now` (seconds since the epoch), by
  /// the UTC offset Open-Meteo gave with them.
  package func hours(at now: Int64, limit: Int = ForecastHour.maxHours) -> HourWindow {
    guard let last = hourly.last, let offset = observation?.utcOffsetSeconds else { return .none }
    let local = Int64.floorDivide(now + Int64(offset), by: 60)
    let hour = local - ((local % 60) + 60) % 60
    let ahead = hourly.drop { $0.minutes < hour }
    return ahead.isEmpty ? .ended(last: last.time) : .hours(Array(ahead.prefix(limit)))
  }

  /// The stored hour the observation falls in (its chance of rain and UV are "now"'s).
  package var observedHour: ForecastHour? {
    guard let o = observation, let t = LocalTime.minutes(o.localTime) else { return nil }
    return hourly.first { $0.minutes <= t && t < $0.minutes + 60 }
  }

  /// The forecast day of the observation's local date, else the first (sunrise, sunset).
  package var observedDay: ForecastDay? {
    let date = observation.map { String($0.localTime.prefix(10)) }
    return forecast.first { $0.date == date } ?? forecast.first
  }

  /// Whether the record holds any of the full forecast's values (an Open-Meteo record of
  /// version 3): views then show them, unknown ones as unknown.
  package var hasFullForecast: Bool {
    !hourly.isEmpty || [feelsLikeC, windDirection, gustsKmh, precipitationMm].contains { $0 != nil }
      || forecast.contains { $0.sunrise != nil || $0.sunset != nil || $0.uvIndexMax != nil || $0.precipitationProbability != nil }
  }
}

extension Int64 {
  /// Division rounding towards negative infinity.
  package static func floorDivide(_ a: Int64, by b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}

/// The WHO's UV index categories.
package enum UVCategory: String, CaseIterable, Sendable {
  case low, moderate, high, veryHigh, extreme

  /// The category of an index, rounded to a whole number first: 0–2 low, 3–5 moderate,
  /// 6–7 high, 8–10 very high, 11 and more extreme.
  package init(_ uv: Double) {
    switch TemperatureUnit.round(uv) {
    case ..<3: self = .low
    case 3...5: self = .moderate
    case 6...7: self = .high
    case 8...10: self = .veryHigh
    default: self = .extreme
    }
  }

  /// `very high`.
  package var name: String { self == .veryHigh ? "very high" : rawValue }
}
