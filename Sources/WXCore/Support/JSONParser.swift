// The parser behind `JSON.parse` (see JSON.swift).

extension JSON {
  /// A UTF-8 byte order mark, which may open a document: RFC 8259 §8.1 lets a parser ignore
  /// it, and wx does (offsets still count its three bytes).
  package static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// Parses one JSON document (surrounding whitespace allowed, and a byte order mark first).
  package static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSON {
    try bytes.withUnsafeBufferPointer { (buf) throws(JSONError) -> JSON in
      var p = Parser(buf: buf)
      if buf.starts(with: byteOrderMark) { p.i = byteOrderMark.count }
      p.skipSpace()
      let v = try p.value(depth: 0)
      p.skipSpace()
      if p.i != buf.count { throw p.fail("unexpected data after the JSON value") }
      return v
    }
  }

  /// Parses the value at the start of `buf` as if nested `depth` levels deep; returns it and
  /// the offset just past it. What follows it is not checked (``JSONStream`` does that).
  package static func parsePrefix(_ buf: UnsafeBufferPointer<UInt8>, depth: Int) throws(JSONError) -> (JSON, Int) {
    var p = Parser(buf: buf)
    let v = try p.value(depth: depth)
    return (v, p.i)
  }
}

extension JSON {
  /// The string that starts at `buf[at]` (a `"`), read exactly as the parser reads it, and
  /// the offset past it; nil where the parser would report an error.
  package static func string(in buf: UnsafeBufferPointer<UInt8>, at: Int) -> (String, Int)? {
    var p = Parser(buf: buf)
    p.i = at
    guard at < buf.count, buf[at] == UInt8(ascii: "\""), let s = try? p.string() else { return nil }
    return (s, p.i)
  }

  /// 10^0 … 10^15, all exact doubles: a number of at most 15 digits is its digits read as
  /// an integer over one of these, one correctly rounded division (Clinger's fast path).
  static let powersOfTen: [Double] = (0...15).map { k in (0..<k).reduce(1.0) { p, _ in p * 10 } }

  /// The number that starts at `buf[at]`, read exactly as the parser reads it, and the offset
  /// past it; nil where the parser would report an error. (The caller checks the byte after
  /// it: the parser reads "12" of "12x" and stops.)
  package static func number(in buf: UnsafeBufferPointer<UInt8>, at: Int) -> (Double, Int)? {
    var p = Parser(buf: buf)
    p.i = at
    guard at < buf.count, case .number(let d, _)? = try? p.number() else { return nil }
    return (d, p.i)
  }
}

extension JSONError {
  /// A byte as the parser's messages show it: itself when printable ASCII, else `\x1b`.
  static func show(_ b: UInt8) -> String {
    b >= 0x20 && b < 0x7F ? String(UnicodeScalar(b)) : "\\x" + (b < 0x10 ? "0" : "") + String(b, radix: 16)
  }
}

private struct Parser {
  let buf: UnsafeBufferPointer<UInt8>
  var i = 0
  static let maxDepth = 64

  init(buf: UnsafeBufferPointer<UInt8>) { self.buf = buf }

  func fail(_ reason: String, at: Int? = nil) -> JSONError { JSONError(offset: at ?? i, reason: reason) }

  mutating func skipSpace() {
    while i < buf.count {
      switch buf[i] {
      case 0x20, 0x0A, 0x0D, 0x09: i += 1
      default: return
      }
    }
  }

  mutating func value(depth: Int) throws(JSONError) -> JSON {
    guard i < buf.count else { throw fail("unexpected end of data") }
    guard depth < Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth) levels") }
    switch buf[i] {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    case UInt8(ascii: "N"), UInt8(ascii: "I"): throw fail("NaN and Infinity are not JSON numbers")
    case UInt8(ascii: "<"): throw fail("found HTML or XML instead of JSON")
    default: throw fail("unexpected character '\(Self.show(buf[i]))'")
    }
  }

  static func show(_ b: UInt8) -> String { JSONError.show(b) }

  mutating func literal(_ word: StaticString) throws(JSONError) {
    let n = word.utf8CodeUnitCount
    guard i + n <= buf.count else { throw fail("unexpected end of data") }
    for k in 0..<n where buf[i + k] != word.utf8Start[k] { throw fail("invalid literal") }
    i += n
  }

  mutating func object(depth: Int) throws(JSONError) -> JSON {
    i += 1
    var members: [JSON.Member] = []
    skipSpace()
    if i < buf.count && buf[i] == UInt8(ascii: "}") {
      i += 1
      return .object(members)
    }
    // One allocation for a typical record (10 members) instead of five as the array grows.
    members.reserveCapacity(16)
    while true {
      skipSpace()
      guard i < buf.count else { throw fail("unexpected end of data") }
      guard buf[i] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
      let key = try string()
      skipSpace()
      guard i < buf.count else { throw fail("unexpected end of data") }
      guard buf[i] == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
      i += 1
      skipSpace()
      members.append(JSON.Member(key: key, value: try value(depth: depth + 1)))
      skipSpace()
      guard i < buf.count else { throw fail("unexpected end of data") }
      if buf[i] == UInt8(ascii: ",") { i += 1; continue }
      if buf[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
      throw fail("expected ',' or '}' in an object")
    }
  }

  mutating func array(depth: Int) throws(JSONError) -> JSON {
    i += 1
    var items: [JSON] = []
    skipSpace()
    if i < buf.count && buf[i] == UInt8(ascii: "]") {
      i += 1
      return .array(items)
    }
    while true {
      skipSpace()
      items.append(try value(depth: depth + 1))
      skipSpace()
      guard i < buf.count else { throw fail("unexpected end of data") }
      if buf[i] == UInt8(ascii: ",") { i += 1; continue }
      if buf[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
      throw fail("expected ',' or ']' in an array")
    }
  }

  mutating func number() throws(JSONError) -> JSON {
    let start = i
    var integer = true
    if buf[i] == UInt8(ascii: "-") { i += 1 }
    guard i < buf.count, isDigit(buf[i]) else { throw fail("invalid number") }
    if buf[i] == UInt8(ascii: "0") {
      i += 1
      if i < buf.count, isDigit(buf[i]) { throw fail("numbers may not have leading zeros") }
    } else {
      while i < buf.count, isDigit(buf[i]) { i += 1 }
    }
    if i < buf.count, buf[i] == UInt8(ascii: ".") {
      integer = false
      i += 1
      guard i < buf.count, isDigit(buf[i]) else { throw fail("invalid number") }
      while i < buf.count, isDigit(buf[i]) { i += 1 }
    }
    var exponent = false
    if i < buf.count, buf[i] == UInt8(ascii: "e") || buf[i] == UInt8(ascii: "E") {
      integer = false
      exponent = true
      i += 1
      if i < buf.count, buf[i] == UInt8(ascii: "+") || buf[i] == UInt8(ascii: "-") { i += 1 }
      guard i < buf.count, isDigit(buf[i]) else { throw fail("invalid number") }
      while i < buf.count, isDigit(buf[i]) { i += 1 }
    }
    // Fast path for plain integers; strtod (via Double(String)) for the rest.
    if integer && i - start <= 15 {
      var v: Int64 = 0
      var k = start
      let negative = buf[k] == UInt8(ascii: "-")
      if negative { k += 1 }
      while k < i { v = v * 10 + Int64(buf[k] - 48); k += 1 }
      return .number(Double(negative ? -v : v), integer: true)
    }
    // Fast path for short decimals (12.5, -0.25): with at most 15 digits the digits as an
    // integer and the power of ten are both exact doubles, so one division is correctly
    // rounded, as strtod would be (Clinger's fast path).
    let negative = buf[start] == UInt8(ascii: "-")
    if !integer && !exponent && i - start - (negative ? 1 : 0) - 1 <= 15 {
      var m: UInt64 = 0
      var fraction = 0
      var seenPoint = false
      for k in (negative ? start + 1 : start)..<i {
        let b = buf[k]
        if b == UInt8(ascii: ".") {
          seenPoint = true
        } else {
          m = m * 10 + UInt64(b - 48)
          if seenPoint { fraction += 1 }
        }
      }
      let d = Double(m) / JSON.powersOfTen[fraction]
      return .number(negative ? -d : d, integer: false)
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self)
    guard let d = Double(text), d.isFinite else { throw fail("number out of range", at: start) }
    return .number(d, integer: integer)
  }

  func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }

  mutating func string() throws(JSONError) -> String {
    i += 1
    let start = i
    // Fast path: no escapes.
    while i < buf.count {
      let b = buf[i]
      if b == UInt8(ascii: "\"") {
        let raw = UnsafeBufferPointer(rebasing: buf[start..<i])
        guard let s = ByteReader.utf8(raw) else {
          throw fail("invalid UTF-8 in a string", at: start + Self.firstInvalidUTF8(raw))
        }
        i += 1
        return s
      }
      if b == UInt8(ascii: "\\") { break }
      if b < 0x20 { throw fail("control character in a string") }
      i += 1
    }
    var bytes = [UInt8](UnsafeBufferPointer(rebasing: buf[start..<i]))
    while i < buf.count {
      let b = buf[i]
      if b == UInt8(ascii: "\"") {
        i += 1
        guard let s = bytes.withUnsafeBufferPointer({ ByteReader.utf8($0) }) else {
          throw fail("invalid UTF-8 in a string", at: start)
        }
        return s
      }
      if b < 0x20 { throw fail("control character in a string") }
      if b != UInt8(ascii: "\\") {
        bytes.append(b)
        i += 1
        continue
      }
      i += 1
      guard i < buf.count else { break }
      let e = buf[i]
      i += 1
      switch e {
      case UInt8(ascii: "\""): bytes.append(0x22)
      case UInt8(ascii: "\\"): bytes.append(0x5C)
      case UInt8(ascii: "/"): bytes.append(0x2F)
      case UInt8(ascii: "b"): bytes.append(0x08)
      case UInt8(ascii: "f"): bytes.append(0x0C)
      case UInt8(ascii: "n"): bytes.append(0x0A)
      case UInt8(ascii: "r"): bytes.append(0x0D)
      case UInt8(ascii: "t"): bytes.append(0x09)
      case UInt8(ascii: "u"):
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
          guard i + 1 < buf.count, buf[i] == UInt8(ascii: "\\"), buf[i + 1] == UInt8(ascii: "u") else {
            throw fail("unpaired surrogate in a string")
          }
          i += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate in a string") }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
          throw fail("unpaired surrogate in a string")
        }
        guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
        bytes.append(contentsOf: Array(String(Character(scalar)).utf8))
      default: throw fail("invalid escape '\\\(Self.show(e))'", at: i - 1)
      }
    }
    throw fail("unexpected end of data")
  }

  mutating func hex4() throws(JSONError) -> UInt32 {
    guard i + 4 <= buf.count else { throw fail("unexpected end of data") }
    var v: UInt32 = 0
    for _ in 0..<4 {
      let c = buf[i]
      let d: UInt32
      switch c {
      case 48...57: d = UInt32(c - 48)
      case 65...70: d = UInt32(c - 55)
      case 97...102: d = UInt32(c - 87)
      default: throw fail("invalid \\u escape")
      }
      v = v << 4 | d
      i += 1
    }
    return v
  }

  static func firstInvalidUTF8(_ raw: UnsafeBufferPointer<UInt8>) -> Int {
    var k = 0
    while k < raw.count {
      let b = raw[k]
      let n: Int
      if b < 0x80 {
        n = 1
      } else if b & 0xE0 == 0xC0 {
        n = 2
      } else if b & 0xF0 == 0xE0 {
        n = 3
      } else if b & 0xF8 == 0xF0 {
        n = 4
      } else {
        return k
      }
      if k + n > raw.count { return k }
      if n > 1, String(validating: UnsafeBufferPointer(rebasing: raw[k..<k + n]), as: UTF8.self) == nil {
        return k
      }
      k += n
    }
    return k
  }
}
