import Foundation
import Testing

@testable import WXCore

@Suite struct DecoderTests {
  @Test(.enabled(if: sharedFixture != nil, "../shared/fixtures is absent"))
  func decodesTheRealLiveResponseWhenShared() throws {
    let fixture = try #require(sharedFixture)
    let data = try #require(FileManager.default.contents(atPath: fixture))
    let cities = try FreeTestAPIDecoder.decode(Array(data))
    #expect(cities.count == 51)
    #expect(cities.filter { $0.id == 45 }.map(\.name) == ["Canberra", "Wellington"])
    #expect(cities.contains { $0.name == "São Paulo" } && cities.contains { $0.name == "Bogotá" })
    let london = try #require(cities.first { $0.name == "London" })
    #expect(london.temperatureC == 18 && london.forecast.count == 2)
  }

  @Test func decodesTheBundledSample() throws {
    let data = try #require(FileManager.default.contents(atPath: sampleFile))
    let cities = try FreeTestAPIDecoder.decode(Array(data))
    #expect(cities.count > 50)
    #expect(cities.allSatisfy { !$0.name.isEmpty && $0.forecast.count == 2 })
  }

  static let good =
    #"{"id":1,"city":"Oslo","country":"Norway","latitude":59.9,"longitude":10.7,"temperature":3,"weather_description":"Snow","humidity":80,"wind_speed":12.5,"extra":{"ignored":[1]},"forecast":[]}"#

  @Test func toleratesUnknownFieldsAndEmptyForecasts() throws {
    let cities = try FreeTestAPIDecoder.decode(Array("[\(Self.good)]".utf8))
    #expect(cities.first?.name == "Oslo" && cities.first?.forecast.isEmpty == true)
  }

  @Test func datesAreCalendarDatesWrittenYearMonthDay() {
    for good in ["2026-11-23", "2024-02-29", "2000-02-29", "0001-01-01", "9999-12-31", "2026-04-30"] {
      #expect(ForecastDay.isDate(good), "\(good)")
    }
    for bad in [
      "2026-11-3", "2026-11-23 ", "1900-02-29", "2026-02-29", "2026-04-31", "2026-00-10", "2026-11-00",
      "0000-01-01", "２０２６-11-23", "2026/11/23", "+026-11-23", "", "2026-11-23T00:00",
    ] {
      #expect(!ForecastDay.isDate(bad), "\(bad)")
    }
  }

  @Test func rejectsMoreForecastDaysThanTheStoreReadsBack() throws {
    func body(_ days: Int) -> [UInt8] {
      let day = #"{"date":"2026-11-23","temperature":1,"weather_description":"Sunny","humidity":1,"wind_speed":1}"#
      let list = Array(repeating: day, count: days).joined(separator: ",")
      return Array("[\(Self.good.replacingOccurrences(of: "\"forecast\":[]", with: "\"forecast\":[\(list)]"))]".utf8)
    }
    let ok = try FreeTestAPIDecoder.decode(body(366))
    var r = ByteReader(ok[0].encoded())
    #expect(try City(decoding: &r) == ok[0])
    #expect(throws: PayloadError.self) { try FreeTestAPIDecoder.decode(body(367)) }
  }

  @Test(arguments: [
    (#"[{"id":1}]"#, "record 1 (id 1): missing field \"city\""),
    (
      Self.good.replacingOccurrences(of: "\"temperature\":3", with: "\"temperature\":\"hot\""),
      "field \"temperature\" must be a number, found a string"
    ),
    (Self.good.replacingOccurrences(of: "\"humidity\":80", with: "\"humidity\":180"), "field \"humidity\" is 180"),
    (Self.good.replacingOccurrences(of: "\"city\":\"Oslo\"", with: "\"city\":\"  \""), "field \"city\" is empty"),
    (#"{"data":[]}"#, "expected a JSON array of weather records, found an object"),
    ("", "the response body is empty"),
    ("[" + Self.good, "the JSON ends early"),
    // An id must be one `wx show ID` can name.
    (
      Self.good.replacingOccurrences(of: "\"id\":1", with: "\"id\":-5"),
      "field \"id\" must be from 1 to 999999999999999, found -5"
    ),
    (Self.good.replacingOccurrences(of: "\"id\":1", with: "\"id\":0"), "field \"id\" must be from 1 to 999999999999999, found 0"),
    (Self.good.replacingOccurrences(of: "\"id\":1", with: "\"id\":1.5"), "field \"id\" must be an integer, found a number"),
  ])
  func rejectsBadRecordsNamingTheProblem(_ body: String, _ message: String) {
    let input = body.hasPrefix("{\"id\"") ? "[\(body)]" : body
    #expect {
      _ = try FreeTestAPIDecoder.decode(Array(input.utf8))
    } throws: { error in
      (error as? PayloadError)?.reason.contains(message) == true
    }
  }
}
