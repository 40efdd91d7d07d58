import Testing

@testable import WXCore
@testable import WXFeed

/// One definition of the scalars no terminal receives raw, and the byte fast path agrees
/// with it for every scalar, alone and between other text.
@Suite struct UnsafeScalarsTests {
  @Test func theBytePathAgreesForEveryScalar() {
    var unsafe = 0
    for v in UInt32(0)...0x10FFFF {
      guard let u = Unicode.Scalar(v) else { continue }  // surrogates
      let expected = UnsafeScalars.contains(u)
      if expected { unsafe += 1 }
      let alone = String(Character(u))
      if UnsafeScalars.found(in: alone) != expected || UnsafeScalars.found(in: "é" + alone + "x") != expected {
        Issue.record("U+\(String(v, radix: 16)): found \(UnsafeScalars.found(in: alone)), contains \(expected)")
      }
    }
    // 32 C0, DEL and 32 C1, U+061C, U+200E-F, U+202A-E, U+2066-9, U+2028-9.
    #expect(unsafe == 32 + 1 + 32 + 1 + 2 + 5 + 4 + 2)
    #expect(!UnsafeScalars.found(in: "a\nb", allowingNewline: true) && UnsafeScalars.found(in: "a\nb"))
  }

  /// The JSON writer escapes exactly those (besides its named escapes), and stored-text
  /// cleaning treats every one of them as a control or format character.
  @Test func everyUserOfTheRuleAgrees() {
    for v in UInt32(0)...0x3000 {
      guard let u = Unicode.Scalar(v) else { continue }
      let quoted = JSONWriter.quote(String(Character(u)))
      let escaped = quoted.hasPrefix("\"\\u")
      if "\n\r\t\"\\".unicodeScalars.contains(u) { continue }
      #expect(escaped == UnsafeScalars.contains(u), "U+\(String(v, radix: 16)): \(quoted)")
      if UnsafeScalars.contains(u) { #expect(StoredText.isControlOrFormat(u), "U+\(String(v, radix: 16))") }
    }
  }
}
