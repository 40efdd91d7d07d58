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
