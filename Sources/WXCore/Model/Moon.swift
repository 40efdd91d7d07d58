/// The moon's phase at a moment, computed locally (no data, no network): the mean synodic
/// month (29.530588853 days, Meeus, *Astronomical Algorithms*, 2nd ed., 1998, ch. 49) counted
/// from the new moon of 2000-01-06 18:14 UTC. Mean, not true, lunations: within about half a
/// day of the published phases, enough for a status bar's symbol and moon day.
package enum Moon {
  package static let synodicMonth = 29.530588853
  /// 2000-01-06T18:14:00Z, a new moon.
  package static let referenceNewMoon: Int64 = 947_182_440

  /// Days since the last new moon at `seconds` since the epoch (0 ..< 29.53).
  package static func age(at seconds: Int64) -> Double {
    let days = Double(seconds - referenceNewMoon) / 86_400
    let r = days.truncatingRemainder(dividingBy: synodicMonth)
    return r < 0 ? r + synodicMonth : r
  }

  /// The fraction of the lunation since the new moon (0 new, 0.5 full).
  package static func fraction(at seconds: Int64) -> Double { age(at: seconds) / synodicMonth }

  /// The phase of eight: 0 new, 1 waxing crescent, 2 first quarter, 3 waxing gibbous, 4 full,
  /// 5 waning gibbous, 6 last quarter, 7 waning crescent.
  package static func phase(at seconds: Int64) -> Int { Int((fraction(at: seconds) * 8).rounded()) % 8 }

  package static let names = [
    "new moon", "waxing crescent", "first quarter", "waxing gibbous", "full moon", "waning gibbous", "last quarter",
    "waning crescent",
  ]
}
