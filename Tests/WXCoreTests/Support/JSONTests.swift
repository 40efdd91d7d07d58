import Testing

@testable import WXCore

@Suite struct JSONTests {
  func parse(_ s: String) throws(JSONError) -> JSON { try JSON.parse(Array(s.utf8)) }

  /// One value type reads and writes: what a view builds parses back as the same value.
  @Test func writesWhatItParses() throws {
    let built = JSON.object([
      ("id", .int(9_007_199_254_740_991)), ("t", .number(-2.5)), ("n", .null), ("ok", .bool(true)),
      ("s", .string("é\u{1B}\"")), ("a", .array([.int(1), .object([JSON.Member]())])),
    ])
    #expect(built.text == #"{"id":9007199254740991,"t":-2.5,"n":null,"ok":true,"s":"é\u001b\"","a":[1,{}]}"#)
    #expect(try parse(built.text) == built)
  }

  @Test func parsesEveryKindOfValue() throws {
    let v = try parse(#" {"a":[1,-2.5,3e2,true,false,null,"x\u00e9\ud83d\ude00\n"],"b":{}} "#)
    #expect(
      v["a"]
        == .array([
          .number(1, integer: true), .number(-2.5, integer: false), .number(300, integer: false), .bool(true),
          .bool(false), .null, .string("xé😀\n"),
        ]))
    #expect(v["b"] == JSON.object([JSON.Member]()))
  }

  @Test(arguments: [
    ("[1,2", 4, "unexpected end of data"), ("[1,]", 3, "unexpected character"), ("{\"a\" 1}", 5, "expected ':'"),
    ("[NaN]", 1, "NaN"), ("[01]", 2, "leading zeros"), ("<html>", 0, "HTML"), ("[1] x", 4, "after the JSON value"),
    ("\"\u{01}\"", 1, "control character"), ("[\"\\ud800\"]", 8, "surrogate"), ("[1e999]", 1, "out of range"),
  ])
  func rejectsBadJSONWithTheOffset(_ input: String, _ offset: Int, _ reason: String) {
    #expect {
      _ = try parse(input)
    } throws: { error in
      guard let e = error as? JSONError else { return false }
      return e.offset == offset && e.reason.contains(reason)
    }
  }

  /// The parser's own fast paths (plain integers, short decimals, ASCII strings) must give
  /// exactly what strtod and the standard library's UTF-8 validation give.
  @Test func fastPathsAgreeWithTheStandardLibrary() throws {
    var rng = SystemRandomNumberGenerator()
    var texts = [
      "0.0", "-0.0", "0.1", "0.2", "0.3", "1.5", "-2.5", "12.345", "999999999999.999", "0.000000000000001",
      "123456789012345.0", "1234567890123.45", "9007199254740993.5", "0.1234567890123456", "3.141592653589793",
    ]
    for _ in 0..<3000 {
      let intDigits = Int.random(in: 1...9, using: &rng), fracDigits = Int.random(in: 1...9, using: &rng)
      var t = Bool.random(using: &rng) ? "-" : ""
      t += String(Int.random(in: 1...9, using: &rng))
      for _ in 1..<intDigits { t += String(Int.random(in: 0...9, using: &rng)) }
      t += "."
      for _ in 0..<fracDigits { t += String(Int.random(in: 0...9, using: &rng)) }
      texts.append(Bool.random(using: &rng) ? t : "0." + t.split(separator: ".")[1])
    }
    for t in texts {
      guard case .number(let d, integer: false) = try parse(t) else {
        Issue.record("\(t) is not a fraction")
        continue
      }
      #expect(d.bitPattern == Double(t)!.bitPattern, "\(t)")
    }
    let strings: [(String, String)] = [
      (#""plain""#, "plain"), (#""""#, ""), (#""Zürich""#, "Zürich"), (#""東京""#, "東京"),
      (#""a\u00e9b""#, "aéb"), (#""x\\y""#, "x\\y"), (#""N'Djamena""#, "N'Djamena"),
    ]
    for (json, expected) in strings { #expect(try parse(json) == .string(expected), "\(json)") }
  }

  @Test func rejectsInvalidUTF8AndNamesTheOffset() {
    let bytes: [UInt8] = Array("[\"ab".utf8) + [0xFF, 0xFE] + Array("\"]".utf8)
    #expect(throws: JSONError(offset: 4, reason: "invalid UTF-8 in a string")) { try JSON.parse(bytes) }
  }

  /// An unexpected byte is named as wx's terminal output names controls: two hex digits.
  @Test func namesAnUnexpectedByteWithTwoHexDigits() {
    #expect(throws: JSONError(offset: 0, reason: "unexpected character '\\x05'")) { try JSON.parse([0x05]) }
    #expect(throws: JSONError(offset: 0, reason: "unexpected character '\\xef'")) { try JSON.parse([0xEF, 0xBB, 0x31]) }
  }

  /// A UTF-8 byte order mark may open a document and is skipped (its bytes still count in
  /// offsets); anywhere else it is an unexpected byte.
  @Test func skipsAByteOrderMarkAtTheStart() throws {
    #expect(try JSON.parse(Array("\u{FEFF}[1]".utf8)) == .array([.int(1)]))
    #expect(try JSON.parse(Array("\u{FEFF} {\"a\":true} ".utf8))["a"] == .bool(true))
    for bad in [" \u{FEFF}[1]", "[\u{FEFF}1]", "\u{FEFF}\u{FEFF}1", "\u{FEFF}"] {
      #expect(throws: JSONError.self, "\(bad.debugDescription)") { try JSON.parse(Array(bad.utf8)) }
    }
    #expect(throws: JSONError(offset: 4, reason: "unexpected character 'x'")) { try JSON.parse(Array("\u{FEFF}[x]".utf8)) }
  }

  @Test func boundsNestingDepth() {
    let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect(throws: JSONError.self) { try parse(deep) }
  }

  @Test func writerEscapesAndRoundTrips() throws {
    let out = JSON.object([("s", .string("a\"b\\c\n\u{01}é")), ("n", .number(18)), ("f", .number(64.4)), ("i", .int(-3))])
    #expect(out.text == #"{"s":"a\"b\\c\n\u0001é","n":18,"f":64.4,"i":-3}"#)
    let back = try parse(out.text)
    #expect(back["s"] == .string("a\"b\\c\n\u{01}é"))
  }
}
