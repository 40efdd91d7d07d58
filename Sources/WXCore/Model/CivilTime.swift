/// Civil time without Foundation, in one place: local wall-clock times as providers write them
/// (``LocalTime``), calendar days (``CalendarDay``), and the words a view needs of them
/// (``CivilTime``: the day a moment falls on in a zone, how many days ago). Every "today",
/// "yesterday" and "N days ago" wx says is counted here.

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

/// A city's local wall-clock time, `YYYY-MM-DDTHH:MM`, as minutes since 1970-01-01T00:00
/// of the same clock (no zone: add the city's UTC offset to compare with the real time).
package enum LocalTime {
  /// The minutes of `s` if it is exactly `YYYY-MM-DDTHH:MM` with a calendar date, an hour
  /// 00–23 and a minute 00–59; nil for anything else (escape codes included).
  package static func minutes(_ s: String) -> Int64? {
    var s = s
    return s.withUTF8 { b in
      guard b.count == 16, b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"),
        ForecastDay.isDate(bytes: UnsafeBufferPointer(rebasing: b[0..<10])),
        let hour = digits(b, 11..<13), let minute = digits(b, 14..<16), hour < 24, minute < 60,
        let y = digits(b, 0..<4), let m = digits(b, 5..<7), let d = digits(b, 8..<10)
      else { return nil }
      return (days(year: y, month: m, day: d) * 24 + Int64(hour)) * 60 + Int64(minute)
    }
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

  private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Int? {
    var n = 0
    for i in r {
      guard b[i] >= UInt8(ascii: "0") && b[i] <= UInt8(ascii: "9") else { return nil }
      n = n * 10 + Int(b[i] - UInt8(ascii: "0"))
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

/// Moments against a city's zone (its UTC offset): the day and clock of a moment, and how
/// many days before today it falls.
package enum CivilTime {
  /// The day number and `HH:MM` of `seconds` since the epoch at `offset` seconds east of UTC.
  package static func dayAndClock(_ seconds: Int64, offset: Int) -> (day: Int, clock: String) {
    let minutes = Int64.floorDivide(seconds + Int64(offset), by: 60)
    let day = Int64.floorDivide(minutes, by: 1440)
    return (Int(day), LocalTime.clock(Int(minutes - day * 1440)))
  }

  /// Days from the day of local minutes `minutes` (``LocalTime``) to today at `now`, in the
  /// zone `offset` seconds east of UTC: 0 today, 1 yesterday, negative for a day to come.
  package static func daysAgo(localMinutes minutes: Int64, now: Int64, offset: Int) -> Int {
    CalendarDay.number(at: now, offset: offset) - Int(Int64.floorDivide(minutes, by: 1440))
  }
}
