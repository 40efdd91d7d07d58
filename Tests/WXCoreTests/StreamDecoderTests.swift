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

  @Test func theBundledSampleStreamsToTheSameCities() throws {
    let data = try #require(FileManager.default.contents(atPath: DecoderTests.root + "/Data/sample-weathers.json"))
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
