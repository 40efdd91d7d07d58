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

/// A city's local wall-clock time, `YYYY-MM-DDTHH:MM`, as minutes since 1970-01-01T00:00
/// of the same clock (no zone: add the city's UTC offset to compare with the real time).
package enum LocalTime {
  /// The minutes of `s` if it is exactly `YYYY-MM-DDTHH:MM` with a calendar date, an hour
  /// 00–23 and a minute 00–59; nil for anything else (escape codes included).
  package static func minutes(_ s: String) -> Int64? {
    let b = Array(s.utf8)
    guard b.count == 16, b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"),
      ForecastDay.isDate(String(decoding: b[0..<10], as: UTF8.self)),
      let hour = digits(b[11..<13]), let minute = digits(b[14..<16]), hour < 24, minute < 60,
      let y = digits(b[0..<4]), let m = digits(b[5..<7]), let d = digits(b[8..<10])
    else { return nil }
    return (days(year: y, month: m, day: d) * 24 + Int64(hour)) * 60 + Int64(minute)
  }

  /// `YYYY-MM-DDTHH:MM` for minutes since the epoch of the same clock.
  package static func format(_ minutes: Int64) -> String {
    let day = minutes >= 0 ? minutes / 1440 : (minutes - 1439) / 1440
    let (y, m, d) = civil(day)
    let rest = Int(minutes - day * 1440)
    return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(rest / 60, 2)):\(pad(rest % 60, 2))"
  }

  /// Minutes past midnight of `HH:MM` at the end of a local time (sunrise, sunset).
  package static func clockMinutes(_ s: String) -> Int? {
    minutes(s).map { Int((($0 % 1440) + 1440) % 1440) }
  }

  /// `07:46` for minutes past midnight.
  package static func clock(_ minutes: Int) -> String { "\(pad(minutes / 60, 2)):\(pad(minutes % 60, 2))" }

  private static func pad(_ n: Int, _ width: Int) -> String {
    let s = String(n)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
  }

  private static func digits(_ b: ArraySlice<UInt8>) -> Int? {
    var n = 0
    for c in b {
      guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
      n = n * 10 + Int(c - UInt8(ascii: "0"))
    }
    return n
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
  static func days(year: Int, month: Int, day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = Int64((month + 9) % 12)
    let doy = (153 * mp + 2) / 5 + Int64(day) - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The date of a day since 1970-01-01 (`civil_from_days`).
  static func civil(_ z: Int64) -> (Int, Int, Int) {
    let z = z + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), Int(m), Int(d))
  }
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
