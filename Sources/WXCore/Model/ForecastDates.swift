/// Calendar dates as forecasts write them (`YYYY-MM-DD`), counted in days since 1970-01-01,
/// without Foundation.
package enum CalendarDay {
  /// The day number of a `YYYY-MM-DD` date, or nil when it is not one.
  package static func number(_ date: String) -> Int? {
    guard ForecastDay.isDate(date) else { return nil }
    let b = Array(date.utf8)
    func n(_ r: Range<Int>) -> Int { r.reduce(0) { $0 * 10 + Int(b[$1] - UInt8(ascii: "0")) } }
    return number(year: n(0..<4), month: n(5..<7), day: n(8..<10))
  }

  /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
  static func number(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The day number of the date at `seconds` since the epoch, `offset` seconds east of UTC.
  package static func number(at seconds: Int64, offset: Int) -> Int {
    let s = seconds + Int64(offset)
    return Int(s >= 0 ? s / 86_400 : (s - 86_399) / 86_400)
  }

  /// `YYYY-MM-DD` of a day number.
  package static func string(_ day: Int) -> String {
    Clock.format(Int64(day) * 86_400, "%Y-%m-%d", utc: true)
  }

  /// 0 for Sunday … 6 for Saturday (1970-01-01 was a Thursday).
  package static func weekday(_ day: Int) -> Int { ((day % 7) + 11) % 7 }
}

extension City {
  /// The city's offset from UTC, in seconds: its observation's when the provider gave one
  /// (Open-Meteo), else its longitude's solar time (15° an hour, to the hour), which is
  /// within a couple of hours of the civil time almost everywhere.
  package var utcOffsetEstimate: Int {
    if let o = observation { return o.utcOffsetSeconds }
    guard longitude.isFinite else { return 0 }
    return Int((longitude / 15).rounded()) * 3600
  }

  /// Its forecast days read against the city's own date at `now` (seconds since the epoch).
  package func datedForecast(at now: Int64) -> DatedForecast {
    let today = CalendarDay.number(at: now, offset: utcOffsetEstimate)
    let days = forecast.sorted { $0.date < $1.date }.map { d in
      DatedForecast.Day(day: d, fromToday: CalendarDay.number(d.date).map { $0 - today } ?? -1)
    }
    return DatedForecast(today: CalendarDay.string(today), days: days)
  }
}

/// A city's forecast days against its date today: the days from today on are the forecast;
/// the days before it are past, never shown as the forecast.
package struct DatedForecast: Equatable, Sendable {
  package struct Day: Equatable, Sendable {
    package var day: ForecastDay
    /// Days from the city's today: 0 today, 1 tomorrow, negative for a past day.
    package var fromToday: Int

    package init(day: ForecastDay, fromToday: Int) {
      self.day = day
      self.fromToday = fromToday
    }

    package var isPast: Bool { fromToday < 0 }
    /// 0 for Sunday … 6 for Saturday.
    package var weekday: Int { CalendarDay.weekday((CalendarDay.number(day.date) ?? 0)) }
  }

  /// The city's date today, `YYYY-MM-DD`.
  package var today: String
  /// Every day, in date order.
  package var days: [Day]

  package init(today: String, days: [Day]) {
    self.today = today
    self.days = days
  }

  /// Today and the days after it, in date order.
  package var upcoming: [Day] { days.filter { !$0.isPast } }
  /// The days before today, in date order.
  package var past: [Day] { days.filter(\.isPast) }
  /// There are forecast days, and every one of them is past.
  package var isWhollyPast: Bool { !days.isEmpty && days.allSatisfy(\.isPast) }
}
