import Foundation
import Testing

@testable import WXCore

/// The streaming decoder against the whole-body one: same records, or the same message,
/// whatever the chunking (one byte at a time, odd sizes, all at once).
@Suite struct StreamDecoderTests {
  static let good = DecoderTests.good
  static let bodies: [String] = [
    "[\(good)]", "[\(good),\(good.replacingOccurrences(of: "Oslo", with: "Bergen"))]", " [ ] ", "[]",
    "", "   ", "[", "[\(good)", "[\(good),", "[\(good),]", "[,\(good)]", "[\(good)}", "[\(good)] x", "[\(good)]]",
    "{\"data\":[]}", "{\"data\":[] ", "\"text\"", "42", "null", "tru", "[tr, 1]", "[true, 1]", "[1.]", "[01]",
    "[{\"id\":1}]", "[\(good),{\"id\":1}, x]", "[{\"id\":1}, {\"a\":\"\\u00\"}]",
    "[\(good.replacingOccurrences(of: "\"Oslo\"", with: "\"Os\\\"lo\\\\\""))]",
    "[\(good.replacingOccurrences(of: "\"temperature\":3", with: "\"temperature\":\"hot\""))]",
    "[\(good.replacingOccurrences(of: "12.5", with: "1e400"))]", "[\(good.replacingOccurrences(of: "[]", with: "[1,[2,{}]"))]",
    "[" + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "]",
    "<html><body>502</body></html>", "[\"a\u{1}b\"]", "[{\"id\":1,\"city\":\"\u{FF}\"}]",
    // Elements the parser reads as soon as they arrive, whole or cut anywhere.
    "[\"ab\\\"c\", [1, 2]", "[[1, 2], {\"a\": [x]}]", "[\"a\", \"b\"]", "[[], [[]], \"\\u0041\"]",
    // A byte order mark opens a document (RFC 8259 lets it be ignored), nowhere else.
    "\u{FEFF}[\(good)]", "\u{FEFF} []", "\u{FEFF}", " \u{FEFF}[]", "\u{FEFF}\u{FEFF}[]", "[\u{FEFF}]", "\u{FEFF}{\"a\":1}",
  ]

  static func whole(_ body: [UInt8]) -> Result<[City], PayloadError> {
    do throws(PayloadError) { return .success(try FreeTestAPIDecoder.decode(body)) } catch { return .failure(error) }
  }

  static func streamed(_ body: [UInt8], chunk: Int) -> Result<[City], PayloadError> {
    var stream = FreeTestAPIStream()
    var cities: [City] = []
    do {
      var k = 0
      while k < body.count {
        let part = Array(body[k..<min(body.count, k + chunk)])
        try part.withUnsafeBytes { try stream.feed($0) { cities.append($0) } }
        k += chunk
      }
      try stream.finish { cities.append($0) }
      return .success(cities)
    } catch let error as PayloadError {
      return .failure(error)
    } catch {
      return .failure(PayloadError("unexpected \(error)"))
    }
  }

  @Test(arguments: bodies)
  func streamedDecodingMatchesTheWholeBody(_ text: String) {
    var body = Array(text.utf8)
    if text.contains("\u{FF}") { body = body.map { $0 == 0xC3 ? 0xFF : $0 } }  // invalid UTF-8
    let expected = Self.whole(body)
    for chunk in [1, 2, 7, 64, max(1, body.count)] {
      let got = Self.streamed(body, chunk: chunk)
      #expect(got == expected, "chunks of \(chunk): \(text.prefix(80))")
    }
  }

  /// A body opening with a byte order mark decodes as the body without it, however cut.
  @Test func aByteOrderMarkOpeningTheBodyIsSkipped() {
    let body = Array("\u{FEFF}[\(Self.good)]".utf8)
    guard case .success(let cities) = Self.whole(body) else { Issue.record("\(Self.whole(body))"); return }
    #expect(cities.count == 1 && Self.whole(Array(body.dropFirst(3))) == .success(cities))
    for chunk in [1, 2, 3, 4] { #expect(Self.streamed(body, chunk: chunk) == .success(cities), "chunks of \(chunk)") }
  }

  /// Cut inside an escape, an element can look wrong before it is whole: `"\ud83d\ude` is an
  /// unpaired surrogate until the rest arrives (found by the fuzzer, cut after 28 bytes). Every
  /// cut of these bodies reads like the whole body.
  @Test func everyChunkSizeAgreesWithTheWholeBody() {
    let bodies: [[UInt8]] = [
      [0x5B, 0x22, 0xE4, 0xE4, 0xE4, 0xE4, 0xE4] + Array("Floating".utf8) + [0xE4, 0xE4, 0xE4, 0xE4]
        + Array("id\\ud83d\\udeb:".utf8),
      Array("[\"\\ud83d\\ude00\", {\"a\": \"\\ud83d\\u0041\"}, [\"\\u00e9\", tru]]".utf8),
      Array("[\(Self.good),{\"id\":2,\"city\":\"\\ud83d\\u0041\"}]".utf8),
    ]
    for body in bodies {
      let expected = Self.whole(body)
      for chunk in 1...body.count {
        #expect(Self.streamed(body, chunk: chunk) == expected, "chunks of \(chunk): \(body.count) bytes")
      }
    }
  }

  /// Records of the usual shape are read straight from their bytes (no tree); everything else
  /// goes through the parser and the decoder. Both readings must agree: generated records at
  /// and past every limit, with escapes, odd spacing, extra and repeated fields, unsorted days.
  @Test func theDirectReadingAgreesWithTheDecoder() {
    var rng = SplitMix64(state: 77)
    func pick<T>(_ a: [T]) -> T { rng.pick(a) }
    let numbers = [
      "0", "-0", "12", "12.5", "-12.25", "1e1", "70", "70.0001", "-100", "-100.5", "90", "-90.01", "100",
      "500", "500.5", "180", "-181", "1E2", "0.1", "123456789012345", "1e15", "3.0", "-3", "\"7\"", "null", "true",
    ]
    let texts = [
      "\"Oslo\"", "\"S\\u00e3o Paulo\"", "\"\"", "\"  \"", "\"\\u001b[2J\"", "\"Z\u{FC}rich\"", "\"a\\\"b\"", "7",
      "\"\\ud83d\\ude00\"", "\"'\"", "\"" + String(repeating: "x", count: 257) + "\"", "\"\u{202E}x\"",
    ]
    let dates = [
      "\"2026-11-23\"", "\"2026-11-24\"", "\"2024-02-29\"", "\"2023-02-29\"", "\"2026-11-23 \"", "\"23/11/2026\"", "\"\"", "1",
    ]
    func value(_ key: String) -> String {
      switch key {
      case "city", "country", "weather_description": return rng.next() % 3 == 0 ? pick(texts) : "\"Place\""
      case "date": return rng.next() % 3 == 0 ? pick(dates) : "\"2026-11-2\(rng.next() % 8)\""
      case "id": return rng.next() % 4 == 0 ? pick(numbers) : "\(rng.next() % 1000)"
      default: return rng.next() % 3 == 0 ? pick(numbers) : "\(rng.next() % 30)"
      }
    }
    func object(_ keys: [String]) -> String {
      var members = keys.filter { _ in rng.next() % 25 != 0 }.map { key -> String in
        let space = rng.next() % 5 == 0 ? " \n" : ""
        if key == "forecast" {
          let days = (0..<Int(rng.next() % 4)).map { _ in
            object(["date", "temperature", "weather_description", "humidity", "wind_speed"])
          }
          let list = rng.next() % 10 == 0 ? "null" : "[\(space)" + days.joined(separator: ",") + "]"
          return "\"forecast\":\(list)"
        }
        return "\(space)\"\(key)\"\(space):\(space)\(value(key))\(space)"
      }
      if rng.next() % 12 == 0, let first = members.first { members.append(first) }  // a repeated field
      if rng.next() % 12 == 0 { members.append("\"extra\":{\"a\":[1]}") }
      if rng.next() % 4 == 0 { members.shuffle(using: &rng) }
      return "{" + members.joined(separator: ",") + "}"
    }
    let keys = [
      "id", "city", "country", "latitude", "longitude", "temperature", "weather_description", "humidity",
      "wind_speed", "forecast",
    ]
    var direct = 0
    for _ in 0..<3000 {
      let record = object(keys)
      let body = Array("[\(record)]".utf8)
      let expected = Self.whole(body)
      #expect(Self.streamed(body, chunk: body.count) == expected, "\(record)")
      let bytes = Array(record.utf8)
      if let (city, end) = bytes.withUnsafeBufferPointer({ FreeTestAPIFastRecord.read($0) }) {
        direct += 1
        #expect(end == bytes.count && expected == .success([city]), "\(record)")
      }
    }
    // The usual shape is the common case here too: most plain records went the direct way.
    #expect(direct > 100, "\(direct) records read directly")
    let plain = Array(Self.good.replacingOccurrences(of: ",\"extra\":{\"ignored\":[1]}", with: "").utf8)
    #expect(plain.withUnsafeBufferPointer { FreeTestAPIFastRecord.read($0) } != nil)
  }

  @Test func theBundledSampleStreamsToTheSameCities() throws {
    let data = try #require(FileManager.default.contents(atPath: sampleFile))
    let body = Array(data)
    #expect(Self.streamed(body, chunk: 1000) == Self.whole(body))
    #expect(Self.streamed(body, chunk: 3) == Self.whole(body))
  }

  @Test func aRecordIsHandedOverAsSoonAsItsLastByteArrives() throws {
    var stream = FreeTestAPIStream()
    var names: [String] = []
    let first = Array("[\(Self.good),".utf8)
    try first.withUnsafeBytes { try stream.feed($0) { names.append($0.name) } }
    #expect(names == ["Oslo"])
    let rest = Array("\(Self.good)]".utf8)
    try rest.withUnsafeBytes { try stream.feed($0) { names.append($0.name) } }
    try stream.finish { names.append($0.name) }
    #expect(names == ["Oslo", "Oslo"])
  }
}
