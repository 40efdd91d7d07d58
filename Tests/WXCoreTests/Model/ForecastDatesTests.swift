import Testing

@testable import WXCore

/// Which forecast days are past is read against the city's own date today.
@Suite struct ForecastDatesTests {
  static func city(longitude: Double, offset: Int? = nil, dates: [String]) -> City {
    City(
      id: 1, name: "Here", country: "There", latitude: 0, longitude: longitude, temperatureC: 10, description: "Sunny",
      humidity: nil, windKmh: nil,
      forecast: dates.map { ForecastDay(date: $0, temperatureC: nil, description: "Sunny", humidity: nil, windKmh: nil) },
      observation: offset.map { Observation(localTime: "2026-11-25T10:00", utcOffsetSeconds: $0, source: "Open-Meteo") })
  }

  @Test func dayNumbersAgreeWithTheClock() {
    // Every 13th day from 1601 to 2400, leap days and the year 2000 included.
    var day = CalendarDay.number("1601-01-01")!
    while day < CalendarDay.number("2400-12-31")! {
      let date = CalendarDay.string(day)
      #expect(CalendarDay.number(date) == day, "\(date)")
      day += 13
    }
    #expect(CalendarDay.number("1970-01-01") == 0 && CalendarDay.number("2000-03-01") == 11_017)
    #expect(CalendarDay.number("2026-02-29") == nil && CalendarDay.number("2026-11-25 ") == nil)
    #expect(CalendarDay.weekday(CalendarDay.number("2026-11-25")!) == 3)  // a Wednesday
    #expect(CalendarDay.weekday(CalendarDay.number("1969-12-31")!) == 3 && CalendarDay.weekday(0) == 4)
    #expect(CalendarDay.number(at: -1, offset: 0) == -1 && CalendarDay.number(at: 86_399, offset: 1) == 1)
  }

  /// 2026-11-25 06:00 UTC: still the 24th west of 90°W, already the 25th elsewhere.
  @Test func pastDaysAreTheCitysOwn() {
    let now = Int64(CalendarDay.number("2026-11-25")!) * 86_400 + 6 * 3600
    let dates = ["2026-11-26", "2026-11-24", "2026-11-25"]
    let london = Self.city(longitude: -0.1, dates: dates).datedForecast(at: now)
    #expect(london.today == "2026-11-25")
    #expect(london.days.map(\.day.date) == ["2026-11-24", "2026-11-25", "2026-11-26"])
    #expect(london.days.map(\.fromToday) == [-1, 0, 1] && london.past.count == 1 && !london.isWhollyPast)
    let honolulu = Self.city(longitude: -157.8, dates: dates).datedForecast(at: now)
    #expect(honolulu.today == "2026-11-24" && honolulu.past.isEmpty)
    // The provider's offset wins over the longitude's.
    let told = Self.city(longitude: -157.8, offset: 3600, dates: dates).datedForecast(at: now)
    #expect(told.today == "2026-11-25")
    let old = Self.city(longitude: 2, dates: ["2023-07-28", "2023-07-29"]).datedForecast(at: now)
    #expect(old.isWhollyPast && old.upcoming.isEmpty)
    #expect(!Self.city(longitude: 2, dates: []).datedForecast(at: now).isWhollyPast)
  }
}
