/// The tokens of ``OpenMeteoStream``: strings (kept ones read by the strict parser, skipped
/// ones checked for control characters and escapes), numbers and literals.
extension OpenMeteoStream {
  mutating func begin(_ t: Token) {
    token = t
    tokenStart = total
    text.removeAll(keepingCapacity: true)
    tooLong = false
    escape = 0
    pendingHigh = false
  }

  mutating func stringByte(_ b: UInt8) throws {
    // The parser's rule: a high surrogate escape is followed at once by a low one.
    if pendingHigh && ((escape == 0 && b != UInt8(ascii: "\\")) || (escape == 1 && b != UInt8(ascii: "u"))) {
      throw fail("unpaired surrogate in a string")
    }
    if escape == 1 {
      switch b {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
        escape = 0
      case UInt8(ascii: "u"):
        escape = 2
        hex = 0
      default: throw fail("invalid escape '\\\(Self.show(b))'")
      }
    } else if escape >= 2 {
      let digit: UInt32? =
        switch b {
        case 48...57: UInt32(b - 48)
        case 65...70: UInt32(b - 55)
        case 97...102: UInt32(b - 87)
        default: nil
        }
      guard let digit else { throw fail("invalid \\u escape") }
      hex = hex << 4 | digit
      escape = escape == 5 ? 0 : escape + 1
      if escape == 0 {
        let high = (0xD800..<0xDC00).contains(hex), low = (0xDC00..<0xE000).contains(hex)
        if pendingHigh ? !low : low { throw fail("unpaired surrogate in a string") }
        pendingHigh = high && !pendingHigh
      }
    } else if b == UInt8(ascii: "\"") {
      return try endToken()
    } else if b == UInt8(ascii: "\\") {
      escape = 1
    } else if b < 0x20 {
      throw fail("control character in a string")
    }
    if keeping && !tooLong {
      text.append(b)
      if text.count > (token == .key ? Self.maxKey : Self.maxText) {
        tooLong = true
        text.removeAll()
      }
    }
  }

  /// A string, number or literal has ended: it is read and kept where it belongs.
  mutating func endToken() throws {
    let t = token
    token = .none
    switch t {
    case .key:
      if !frames.isEmpty { frames[frames.count - 1].key = keeping && !tooLong ? try string() : nil }
      expect = .colon
      return
    case .value:
      if keeping {
        if tooLong {
          throw PayloadError("\(path(of: frames.indices.last)) holds a string longer than \(Self.maxText) bytes")
        }
        try value(.string(try string()))
      } else {
        try value(nil)
      }
    case .number:
      let read = text.withUnsafeBufferPointer { JSON.number(in: $0, at: 0) }
      guard let (d, end) = read, end == text.count else { throw fail("invalid number", at: tokenStart) }
      let integer = !text.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
      try value(try childShape() != nil ? .number(d, integer: integer) : nil)
    case .literal:
      let literal: JSON
      switch text {
      case Array("true".utf8): literal = .bool(true)
      case Array("false".utf8): literal = .bool(false)
      case Array("null".utf8): literal = .null
      default: throw fail(text.count < 4 ? "unexpected end of data" : "invalid literal", at: tokenStart)
      }
      try value(try childShape() != nil ? literal : nil)
    case .none: return
    }
  }

  /// The kept string's bytes read by the parser (its escapes and UTF-8 checks, its words).
  func string() throws -> String {
    // Most kept strings are ASCII without escapes (times, units' names): nothing to check.
    if !text.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }) { return String(decoding: text, as: UTF8.self) }
    let quoted = [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]
    do throws(JSONError) {
      return try quoted.withUnsafeBufferPointer { (buf) throws(JSONError) -> String in
        guard case .string(let s) = try JSON.parsePrefix(buf, depth: 0).0 else { return "" }
        return s
      }
    } catch {
      throw fail(error.reason, at: tokenStart + error.offset)
    }
  }
}
