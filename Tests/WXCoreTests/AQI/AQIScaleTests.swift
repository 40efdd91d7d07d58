import Foundation
import Testing

@testable import WXCore

@Suite struct AQIScaleTests {
  @Test func usBandsAndAnOldHistoryReadsAsNAQI() throws {
    #expect(AQICategory(aqi: 50.5, scale: .us).name(on: .us) == "Good")
    #expect(AQICategory(aqi: 120, scale: .us).name(on: .us) == "Unhealthy for Sensitive Groups")
    #expect(AQICategory(aqi: 350, scale: .us).name(on: .us) == "Hazardous")
    var w = ByteWriter()  // the layout before scales: city, count, (time, aqi)…
    w.string("Delhi")
    w.varint(1)
    w.int(7)
    w.double(302.2)
    let old = try AQIHistory(decoding: w.bytes)
    #expect(old.samples == [AQISample(time: 7, aqi: 302.2)] && old.latest?.scale == .naqi)
    let new = AQIHistory(city: "Delhi", samples: [AQISample(time: 8, aqi: 90, scale: .us, european: 30, pm25: nil)])
    #expect(try AQIHistory(decoding: new.encoded()) == new)
  }

  /// A history holding readings of two scales is charted one scale at a time: never a
  /// minimum, a maximum or a latest reading across them.
  @Test func aSeriesHoldsOneScale() {
    let history = AQIHistory(
      city: "Delhi",
      samples: [
        AQISample(time: 1, aqi: 400), AQISample(time: 2, aqi: 90, scale: .us), AQISample(time: 3, aqi: 310),
        AQISample(time: 4, aqi: 60, scale: .us),
      ])
    #expect(history.scales == [.naqi, .us])
    let us = history.series()
    #expect(us?.scale == .us && us?.samples.map(\.aqi) == [90, 60] && us?.min == 60 && us?.max == 90)
    #expect(us?.latest.time == 4 && us?.others == [AQISeries.Other(scale: .naqi, count: 2)])
    let naqi = history.series(on: .naqi)
    #expect(naqi?.samples.map(\.aqi) == [400, 310] && naqi?.min == 310 && naqi?.max == 400 && naqi?.latest.time == 3)
    #expect(AQIHistory(city: "Agra", samples: [AQISample(time: 1, aqi: 5)]).series(on: .us) == nil)
    #expect(AQIHistory(city: "Agra", samples: [AQISample(time: 1, aqi: 5)]).series()?.others == [])
  }
}
