import Testing

@testable import WXCore

/// The sun's day and the moon's phase, computed locally, against published tables.
@Suite struct SunMoonTests {
  static func clock(_ t: Int64?, _ offset: Int) -> Int? {
    t.map { Int(Int64.floorDivide($0 + Int64(offset), by: 60) % 1440) }
  }

  /// Berlin, 2026-11-23 (CET): civil dawn 07:04, solar noon 11:52, civil dusk 16:41 (published
  /// tables); within five minutes.
  @Test func berlinsDayInNovember() {
    let now: Int64 = 1_795_431_600  // 2026-11-23T11:00Z
    let sun = Sun.day(at: now, latitude: 52.52, longitude: 13.405, offset: 3600)
    for (got, want) in [
      (Self.clock(sun.dawn, 3600), 7 * 60 + 4), (Self.clock(sun.noon, 3600), 11 * 60 + 52),
      (Self.clock(sun.dusk, 3600), 16 * 60 + 41),
    ] {
      #expect(got.map { abs($0 - want) <= 5 } == true, "\(String(describing: got)) against \(want)")
    }
  }

  /// Svalbard at the winter solstice: the sun stays more than 6° below the horizon, so there
  /// is no civil dawn or dusk (nil, never an invented time); Tromsø still has its twilight.
  @Test func aPolarNightHasNoDawn() {
    let solstice: Int64 = 1_797_854_400  // 2026-12-21T12:00Z
    let svalbard = Sun.day(at: solstice, latitude: 78.22, longitude: 15.65, offset: 3600)
    #expect(svalbard.dawn == nil && svalbard.dusk == nil)
    let tromso = Sun.day(at: solstice, latitude: 69.65, longitude: 18.96, offset: 3600)
    #expect(tromso.dawn != nil && tromso.dusk != nil)
  }

  /// The full moon of 2026-11-24 (published 14:53 UTC): the mean lunation is within a day.
  @Test func theMoonsPhase() {
    let fullMoon: Int64 = 1_795_531_980  // 2026-11-24T14:53Z
    #expect(abs(Moon.age(at: fullMoon) - Moon.synodicMonth / 2) < 1)
    #expect(Moon.phase(at: fullMoon) == 4 && Moon.names[4] == "full moon")
    #expect(Moon.phase(at: fullMoon + Int64(Moon.synodicMonth / 2 * 86_400)) == 0)
  }
}
