import Foundation
import Testing

@testable import WXCore

@Suite struct AQIFrameTests {
  @Test func decodesReadingsAndIgnoresExtraFields() {
    let d = AQIFrame.decode(#"[{"city":"Mumbai","aqi":179.64},{"city":"Delhi","aqi":302.2,"pm25":88,"note":null}]"#)
    #expect(d.bad == 0 && d.problem == nil)
    #expect(d.readings == [AQIReading(city: "Mumbai", aqi: 179.64), AQIReading(city: "Delhi", aqi: 302.2)])
    #expect(AQIFrame.decode("[]") == AQIFrame.Decoded())
    #expect(AQIFrame.decode(#" [ {"aqi": 7, "city": "  Pune\t "} ] "#).readings == [AQIReading(city: "Pune", aqi: 7)])
  }

  @Test func badFramesCountAsOne() {
    for text in ["not json", "", "{\"city\":\"Delhi\",\"aqi\":3}", "[{\"city\":\"Delhi\",\"aqi\":3}", "42", "[NaN]"] {
      let d = AQIFrame.decode(text)
      #expect(d.readings.isEmpty && d.bad == 1 && d.problem != nil, "\(text)")
    }
    #expect(AQIFrame.decode("nope").problem?.hasPrefix("not JSON") == true)
    #expect(AQIFrame.decode("{}").problem == "expected an array of readings, found an object")
  }

  @Test func badEntriesAreSkippedAndCountedGoodOnesKept() {
    let d = AQIFrame.decode(
      #"[{"city":"Delhi","aqi":-5},{"city":"Pune","aqi":42},{"city":"Agra","aqi":1000.5},{"city":5,"aqi":3},"#
        + #"{"city":"Goa","aqi":"high"},{"city":"Kota"},7,{"city":"   ","aqi":3},{"city":"Leh","aqi":1000},{"city":"Ooty","aqi":true}]"#
    )
    #expect(d.readings == [AQIReading(city: "Pune", aqi: 42), AQIReading(city: "Leh", aqi: 1000)])
    #expect(d.bad == 8)
    #expect(d.problem == "Delhi: AQI -5 is out of range (0–1000)")
    #expect(AQIFrame.decode(#"[{"city":"Goa","aqi":"high"}]"#).problem == #"Goa: "aqi" is a string, not a number"#)
    #expect(AQIFrame.decode(#"[{"city":"Kota"}]"#).problem == #"Kota: "aqi" is nothing, not a number"#)
  }

  @Test func aCityTwiceInAFrameKeepsItsLastValue() {
    let d = AQIFrame.decode(#"[{"city":"Delhi","aqi":1},{"city":"Pune","aqi":2},{"city":"DELHI","aqi":3}]"#)
    #expect(d.readings == [AQIReading(city: "DELHI", aqi: 3), AQIReading(city: "Pune", aqi: 2)])
    // The value replaced is counted and said, not dropped silently.
    #expect(d.bad == 1 && d.problem == "DELHI is named more than once in one frame (its last value is kept)")
  }

  /// A feed's city names are cleaned as the catalogue's are: no control, bidi or other format
  /// character is stored, and a name of nothing else is unusable.
  @Test func cityNamesAreCleanedAsSyncCleansThem() {
    let d = AQIFrame.decode(#"[{"city":"\u001b]0;PWN\u0007De\u001b[2Jlhi\u202e","aqi":5},{"city":"\u200b\u202e","aqi":1}]"#)
    #expect(d.readings == [AQIReading(city: "]0;PWN De [2Jlhi", aqi: 5)])
    #expect(d.bad == 1 && d.problem == "entry 2 has an unusable city name")
    let long = String(repeating: "a", count: 257)
    #expect(AQIFrame.decode(#"[{"city":"\#(long)","aqi":1}]"#).problem == "entry 1 has an unusable city name")
  }
}
