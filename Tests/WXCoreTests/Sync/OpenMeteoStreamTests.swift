import Foundation
import Testing

@testable import WXCore

/// The Open-Meteo stream reader against the whole-body parser: the same kept members in the
/// same order, or a failure for both, whatever the chunking; and the record's version 3.
@Suite struct OpenMeteoStreamTests {
  typealias Shape = OpenMeteoStream.Shape
  static let shape = Shape.object([
    ("a", .scalar), ("s", .scalar), ("daily", .object([("time", .list), ("t", .list)])),
  ])

  static let location =
    #"{"a":1,"skip":{"x":[1,2,{"y":"\u0041"}],"z":"\"}"},"s":"x\ty\u00e9","daily":{"time":["d1","d2"],"t":[1.5,null],"u":[9]}}"#
  static let bodies: [String] = [
    location, "[\(location)]", "[\(location),\(location)]", "[\(location),\(location),\(location)]",
    #"{"a":[1,2],"s":{"k":1},"daily":{"time":"x","t":[[1],{"b":2},3]}}"#, #"{"a":1,"a":2,"s":"first","s":"second"}"#,
    #"{"daily":{"time":[],"t":[]}}"#, "{}", "[{}]", "[1]", "[\"x\"]", "[]", "[null, {}]", "  {\"a\" : -0.5e+2 } ",
    // Bad JSON anywhere, kept or skipped.
    "", " ", "{", "[", "{\"a\":1", "{\"a\":1,}", "{\"skip\":[1,]}", "{\"skip\":[1 2]}", "{\"skip\":tru}",
    "{\"skip\":nul}", "{\"skip\":01}", "{\"skip\":1.}", "{\"skip\":\"a\u{1}\"}", "{\"skip\":\"\\x\"}", "{\"skip\":\"\\u12g4\"}",
    "{\"a\":NaN}", "<html>", "{} x", "{\"a\" 1}", "{1:2}", "[{}}", "{\"a\":\"\\ud800\"}", "\"text\"", "42", "null",
    "{\"skip\":" + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}",
    "{\"a\":1e400}",
    // Skipped runs of numbers (read in a tight loop), good and bad, cut anywhere.
    "{\"skip\":[1, -0.5e+3,0 ,12E2,\n3e-2, \"x\", [1,2], -0],\"a\":1}", "{\"skip\":[1,01]}", "{\"skip\":[1,,2]}",
    "{\"skip\":[-]}", "{\"skip\":[1.e5]}", "{\"skip\":[1e]}", "{\"skip\":[1-2]}", "{\"skip\":[2x]}", "{\"skip\":[,1]}",
    "[{\"skip\":[\"\\\"]\", 1]}, 2, 3]",
    // Kept runs of numbers (each read as it is scanned and appended), good and bad, cut
    // anywhere; kept strings with escapes and beyond ASCII, and a member name with an escape.
    "{\"daily\":{\"t\":[1, -0.5e+3,0 ,12E2,\n3e-2, -0, -0.0, 0.25, 123456789012345, 1234567890123456, 12345.678901234, -7.125,null,true]}}",
    "{\"daily\":{\"t\":[1,01]}}", "{\"daily\":{\"t\":[1,,2]}}", "{\"daily\":{\"t\":[-]}}", "{\"daily\":{\"t\":[1.]}}",
    "{\"daily\":{\"t\":[1-2]}}", "{\"daily\":{\"t\":[2x]}}", "{\"daily\":{\"t\":[,1]}}", "{\"daily\":{\"t\":[1 2]}}",
    "{\"daily\":{\"t\":[-01]}}", "{\"daily\":{\"t\":[0.1,0.2,0.30000000000000004,99999999999999.9]}}",
    #"{"d\u0061ily":{"time":["a\u00e9","x\"y","é","\u0041"],"t":[0.1]},"s":"plain"}"#,
    // What only the strict parser would catch in skipped parts: range, surrogates.
    "{\"skip\":[1e400]}", "{\"skip\":[1e2, 12345678901234567890123, 0.5]}",
    "{\"skip\":[" + String(repeating: "9", count: 400) + "]}",
    "{\"skip\":\"\\ud800\"}", "{\"skip\":\"\\udc00\"}", "{\"skip\":\"\\ud800x\"}", "{\"skip\":\"\\ud800\\n\"}",
    "{\"skip\":\"\\ud83d\\ude00 ok\"}", "{\"skip\":\"\\ud83d\\ud83d\"}", "{\"s\":\"\\ud83d\\ude00\"}",
  ]

  /// What the stream should keep, from the parsed tree.
  static func pruned(_ v: JSON, _ shape: Shape) -> JSON {
    switch (shape, v) {
    case (_, .array) where !isList(shape): return .array([])
    case (.object(let fields), .object(let members)):
      var kept: [JSON.Member] = []
      for m in members where !kept.contains(where: { $0.key == m.key }) {
        if let field = fields.first(where: { $0.0 == m.key }) { kept.append(.init(key: m.key, value: pruned(m.value, field.1))) }
      }
      return .object(kept)
    case (_, .object): return JSON.object([JSON.Member]())
    case (.list, .array(let items)): return .array(items.map { pruned($0, .scalar) })
    default: return v
    }
  }

  static func isList(_ s: Shape) -> Bool {
    if case .list = s { return true }
    return false
  }

  static func whole(_ body: [UInt8], count: Int) -> [JSON]? {
    guard let doc = try? JSON.parse(body) else { return nil }
    switch doc {
    case .object where count == 1: return [pruned(doc, shape)]
    case .array(let items) where items.count == count: return items.map { pruned($0, shape) }
    default: return nil
    }
  }

  static func streamed(_ body: [UInt8], count: Int, chunk: Int) -> Result<[JSON], PayloadError> {
    Result { () throws(PayloadError) in try OpenMeteoDecoder.locations(body, count: count, shape: shape, chunk: chunk) }
  }

  @Test(arguments: bodies)
  func keepsWhatTheParserReadsWhateverTheChunks(_ body: String) throws {
    let bytes = Array(body.utf8)
    for count in 1...3 {
      let expected = Self.whole(bytes, count: count)
      let all = Self.streamed(bytes, count: count, chunk: max(1, bytes.count))
      for chunk in [1, 2, 3, 7, 64, max(1, bytes.count)] {
        let got = Self.streamed(bytes, count: count, chunk: chunk)
        #expect(got == all, "\(body) ×\(count) in \(chunk)-byte chunks: the same result or message as whole")
        switch got {
        case .success(let got): #expect(got == expected, "\(body) ×\(count) in \(chunk)-byte chunks")
        case .failure(let e): #expect(expected == nil, "\(body) ×\(count) in \(chunk)-byte chunks: \(e)")
        }
      }
    }
  }

  /// A kept number is the parser's to the bit (the sign of a zero included), whether it was
  /// read in a run or byte by byte.
  @Test func keptNumbersAreTheParsersToTheBit() throws {
    let texts = ["-0", "-0.0", "0", "0.1", "-7.125", "123456789012345", "-12345.678901234", "0.30000000000000004", "1e2"]
    let body = Array(("{\"daily\":{\"t\":[" + texts.joined(separator: ",") + "]}}").utf8)
    for chunk in [1, 4, body.count] {
      let got = try Self.streamed(body, count: 1, chunk: chunk).get()
      guard case .object(let m)? = got.first, case .object(let daily) = m[0].value, case .array(let items) = daily[0].value
      else { Issue.record("no list in \(got)"); continue }
      for (text, item) in zip(texts, items) {
        guard case .number(let d, _) = item, case .number(let p, _)? = try? JSON.parse(Array(text.utf8)) else {
          Issue.record("\(text): \(item)")
          continue
        }
        #expect(d.bitPattern == p.bitPattern, "\(text) in \(chunk)-byte chunks: \(d) against the parser's \(p)")
      }
    }
  }

  @Test func saysHowManyLocationsCameAndWhatIsWrong() throws {
    func reason(_ body: String, _ count: Int) -> String? {
      if case .failure(let e) = Self.streamed(Array(body.utf8), count: count, chunk: 5) { return e.reason }
      return nil
    }
    #expect(reason("[{},{}]", 3) == "2 locations in the answer for 3 asked")
    #expect(reason("[{},{},{},{}]", 3) == "4 locations in the answer for 3 asked")
    #expect(reason("{}", 2) == "expected an array of 2 locations, found an object")
    #expect(reason("\"x\"", 1) == "expected an object, found a string")
    #expect(reason("[{\"a\":1}", 1) == "the JSON ends early (8 bytes, truncated?)")
    #expect(reason("", 1) == "the response body is empty")
    #expect(reason("{\"a\":1,}", 1) == "invalid JSON: expected a member name in quotes at byte 7")
    #expect(reason("{\"skip\":[1 2]}", 1) == "invalid JSON: expected ',' or ']' in an array at byte 11")
    let long = "{\"daily\":{\"t\":[" + Array(repeating: "1", count: 401).joined(separator: ",") + "]}}"
    #expect(reason(long, 1) == "location 1 daily t has more than 400 values")
    // A skipped list of any length costs nothing and is no error.
    let skipped = "{\"daily\":{\"u\":[" + Array(repeating: "1", count: 100_000).joined(separator: ",") + "]},\"a\":2}"
    let kept = JSON.object([
      .init(key: "daily", value: JSON.object([JSON.Member]())), .init(key: "a", value: .number(2, integer: true)),
    ])
    #expect(try Self.streamed(Array(skipped.utf8), count: 1, chunk: 4096).get() == [kept])
  }

  /// A version 3 record reads back exactly, hours included; versions 1 and 2 still read.
  @Test func recordVersionsRoundTrip() throws {
    var city = City(
      id: 7, name: "Oslo", country: "Norway", latitude: 59.9, longitude: 10.7, temperatureC: -3.5, description: "Fog",
      humidity: nil, windKmh: 12.2,
      forecast: [ForecastDay(date: "2026-11-23", temperatureC: 1.5, description: "Overcast", humidity: nil, windKmh: 20)],
      observation: Observation(localTime: "2026-11-23T13:15", utcOffsetSeconds: 3600, source: "Open-Meteo"))
    city.feelsLikeC = -7.3
    city.windDirection = 225
    city.gustsKmh = nil
    city.precipitationMm = 0.25
    city.forecast[0].sunrise = 8 * 60 + 46
    city.forecast[0].sunset = 15 * 60 + 13
    city.forecast[0].uvIndexMax = 0.35
    city.forecast[0].precipitationProbability = 40
    let start = LocalTime.minutes("2026-11-23T13:00")!
    city.hourly = (0..<48).map { (k: Int) -> ForecastHour in
      let temperature: Double? = k % 5 == 0 ? nil : Double(k - 35) / 10
      let code: Int? = k % 3 == 0 ? nil : 61
      let day: Bool? = k % 4 == 0 ? nil : k % 2 == 0
      return ForecastHour(
        minutes: start + Int64(k * 60), temperatureC: temperature, feelsLikeC: -9.9,
        precipitationProbability: Double(k * 2), precipitationMm: 0.05, weatherCode: code, windKmh: 12.3,
        windDirection: 359, gustsKmh: 40.1, uvIndex: 2.45, isDay: day)
    }
    #expect(city.hourly[11].time == "2026-11-24T00:00")
    var r = ByteReader(city.encoded())
    #expect(try City(decoding: &r) == city)
    #expect(r.isAtEnd)
    // Version 2 (as wx before hours wrote it): what it lacks is unknown.
    var w = ByteWriter()
    w.int(7); w.string("Oslo"); w.string("Norway"); w.double(59.9); w.double(10.7)
    w.optional(-3.5); w.string("Fog"); w.optional(nil); w.optional(12.2)
    w.varint(1); w.string("2026-11-23"); w.optional(1.5); w.string("Overcast"); w.optional(nil); w.optional(20)
    w.bool(true); w.string("2026-11-23T13:15"); w.int(3600); w.string("Open-Meteo")
    var old = ByteReader(w.bytes)
    let v2 = try City(decoding: &old, version: 2)
    #expect(old.isAtEnd && v2.hourly.isEmpty && v2.feelsLikeC == nil && v2.forecast[0].sunrise == nil)
    #expect(v2.temperatureC == -3.5 && v2.observation == city.observation)
    // Hours out of order are never stored.
    var shuffled = city
    shuffled.hourly.swapAt(0, 1)
    var s = ByteReader(shuffled.encoded())
    #expect(try City(decoding: &s).hourly.isEmpty)
  }

  /// 48 hours of ordinary weather (a few tenths of a degree an hour) cost about 12 bytes an
  /// hour: the catalogue stays compact.
  @Test func hoursAreCompact() {
    var city = City(
      id: 1, name: "Oslo", country: "Norway", latitude: 59.9, longitude: 10.7, temperatureC: 3, description: "Fog",
      humidity: 80, windKmh: 12, forecast: [],
      observation: Observation(localTime: "2026-11-23T13:15", utcOffsetSeconds: 3600, source: "Open-Meteo"))
    let without = city.encoded().count
    let start = LocalTime.minutes("2026-11-23T13:00")!
    city.hourly = (0..<48).map { (k: Int) -> ForecastHour in
      let t = Double((k * 7) % 40 - 20) / 10 + 4
      return ForecastHour(
        minutes: start + Int64(k * 60), temperatureC: t, feelsLikeC: t - 2.5, precipitationProbability: Double((k * 7) % 101),
        precipitationMm: Double(k % 10) / 10, weatherCode: [3, 61, 63][k / 16], windKmh: 14.4 + Double(k % 5),
        windDirection: Double((200 + k * 15) % 360), gustsKmh: 25.2 + Double(k % 5),
        uvIndex: Double(max(0, 6 - abs(k % 24 - 12))) * 1.35,
        isDay: (7..<17).contains(k % 24))
    }
    let perHour = Double(city.encoded().count - without) / 48
    #expect(perHour < 14, "\(perHour) bytes an hour")
  }

  @Test func localTimesAreCheckedAndCounted() {
    #expect(LocalTime.minutes("1970-01-01T00:01") == 1)
    #expect(LocalTime.minutes("2024-02-29T23:59").map(LocalTime.format) == "2024-02-29T23:59")
    #expect(LocalTime.format(-1) == "1969-12-31T23:59")
    for bad in ["2026-11-23T24:00", "2026-11-23T1\u{1B}[2J", "2026-02-30T10:00", "2026-11-23 10:00", "2026-11-23T10:00:00", ""] {
      #expect(LocalTime.minutes(bad) == nil, "\(bad)")
    }
    #expect(LocalTime.clockMinutes("2026-11-23T07:46") == 466 && LocalTime.clock(466) == "07:46")
  }
}
