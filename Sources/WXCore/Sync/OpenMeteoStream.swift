/// An Open-Meteo answer read as its bytes arrive, keeping only what the decoder asks for.
///
/// The answer for n locations is one object (n = 1) or an array of n objects. Each location
/// comes out, as soon as its last byte has arrived, as a small ``JSON`` tree holding only the
/// members its ``Shape`` names; everything else (an unknown member, a location past the n
/// asked, a list inside a number's place) is checked for JSON syntax and skipped without being
/// built or held. So memory is one location's wanted values, whatever the answer's size: a
/// member holding a 100 MB array costs nothing, and a wanted list longer than ``maxValues``
/// is bad data as soon as it is. A wanted member that is not the kind asked for (a list where
/// a number belongs) is kept as an empty value of its kind, so the decoder names what it found.
///
/// The grammar is the strict parser's (``JSON/parse(_:)``): numbers and kept strings are read
/// by it, with its messages and byte offsets; strings that are skipped are checked for control
/// characters and escapes, not for UTF-8. The first of a repeated member name counts, as for
/// ``JSON/subscript(_:)``.
package struct OpenMeteoStream {
  /// What to keep of a value.
  package indirect enum Shape: Sendable {
    /// A number, string, boolean or null.
    case scalar
    /// An array of scalars, at most ``OpenMeteoStream/maxValues``.
    case list
    /// An object of which these members are kept.
    case object([(String, Shape)])
  }

  /// The longest list kept: 16 days of hours is 384.
  package static let maxValues = 400
  /// The longest string kept (raw bytes, escapes included) and the longest member name read.
  static let maxText = 8192
  static let maxKey = 256
  static let maxNumber = 512
  static let maxDepth = 64

  enum Expect { case value, valueOrEnd, keyOrEnd, key, colon, commaOrEnd, done }
  enum Token { case none, value, key, number, literal }

  /// What ``OpenMeteoStream/readNumbers(_:from:keep:)`` does in an array: nothing (the
  /// root array of locations, objects), skip its numbers, or keep them (a wanted list).
  enum Numbers { case none, skip, keep }

  struct Frame {
    var isObject: Bool
    var numbers = Numbers.none
    /// nil: skipped; `.scalar`: a container where a scalar belongs (kept empty).
    var shape: Shape?
    var members: [JSON.Member] = []
    var items: [JSON] = []
    /// The member being read (objects); nil for a name too long to be one asked for.
    var key: String?
    /// Elements begun (arrays).
    var count = 0
    /// "location 3" for a location, "the answer" for the array of locations, else nil
    /// (``OpenMeteoStream/path(of:)``).
    var label: String?
  }

  let expected: Int
  let location: Shape
  let deliver: (Int, JSON) throws -> Void

  var expect = Expect.value
  var token = Token.none
  var text: [UInt8] = []
  var keeping = false
  var tooLong = false
  /// 0: none; 1: after a backslash; 2–5: hex digits of `\u` read so far + 2.
  var escape = 0
  /// The `\u` escape's value so far, and whether a high surrogate waits for its low half.
  var hex: UInt32 = 0
  var pendingHigh = false
  var tokenStart = 0
  var frames: [Frame] = []
  /// Whether the document is an array of locations (else one location object).
  var rootIsArray = false
  /// Bytes read so far.
  package private(set) var total = 0

  /// A reader of an answer for `count` locations; `deliver` gets each location's position
  /// (from 0) and its kept members, in order, for positions below `count` only.
  package init(count: Int, location: Shape, deliver: @escaping (Int, JSON) throws -> Void) {
    expected = count
    self.location = location
    self.deliver = deliver
    text.reserveCapacity(64)
  }

  /// Reads a chunk. Throws a ``PayloadError`` for bad data, or what `deliver` threw.
  package mutating func feed(_ chunk: UnsafeRawBufferPointer) throws {
    var i = 0
    while i < chunk.count {
      // What is skipped is mostly long runs of numbers or text: read those in a tight loop.
      // What is kept is mostly lists of numbers and short strings (the hours' times): read
      // as runs too, a number appended as soon as it is whole.
      if token == .none, let run = frames.last?.numbers, run != .none {
        i = readNumbers(chunk, from: i, keep: run == .keep)
        if i == chunk.count { break }
      } else if (token == .value || token == .key) && escape == 0 && !pendingHigh {
        let start = i
        while i < chunk.count, chunk[i] >= 0x20, chunk[i] != UInt8(ascii: "\""), chunk[i] != UInt8(ascii: "\\") { i += 1 }
        total += i - start
        if keeping && !tooLong && i > start {
          text.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start..<i]))
          if text.count > (token == .key ? Self.maxKey : Self.maxText) {
            tooLong = true
            text.removeAll()
          }
        }
        if i == chunk.count { break }
      }
      if try step(chunk[i]) { i += 1 }
    }
  }

  /// Reads numbers, commas and white space of an array from `chunk[i...]` while they are
  /// whole in the chunk and valid, appending each number to the top frame's list when `keep`;
  /// returns where the byte-by-byte reader takes over (a number cut by the chunk's end, a
  /// full list, anything else, or an error it will report).
  mutating func readNumbers(_ chunk: UnsafeRawBufferPointer, from i: Int, keep: Bool) -> Int {
    let n = chunk.count
    func digit(_ j: Int) -> Bool { j < n && chunk[j] >= UInt8(ascii: "0") && chunk[j] <= UInt8(ascii: "9") }
    var k = i
    loop: while k < n {
      switch chunk[k] {
      case 0x20, 0x0A, 0x0D, 0x09: k += 1
      case UInt8(ascii: ","):
        guard expect == .commaOrEnd else { break loop }
        expect = .value
        k += 1
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard expect == .value || expect == .valueOrEnd else { break loop }
        // The digits are read as one integer as they are scanned (at most 15 of them, so
        // exact), and the number is that over a power of ten: one correctly rounded division,
        // as the parser's fast path and strtod give.
        var j = k
        var mantissa: Int64 = 0
        var decimals = 0
        let negative = chunk[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        if j < n && chunk[j] == UInt8(ascii: "0") {
          j += 1
        } else {
          guard digit(j) else { break loop }
          while digit(j) {
            mantissa = mantissa &* 10 &+ Int64(chunk[j] &- 48)
            j += 1
          }
        }
        let point = j < n && chunk[j] == UInt8(ascii: ".")
        if point {
          j += 1
          guard digit(j) else { break loop }
          while digit(j) {
            mantissa = mantissa &* 10 &+ Int64(chunk[j] &- 48)
            decimals += 1
            j += 1
          }
        }
        // Cut by the chunk, followed by what cannot follow a plain number (an exponent too),
        // or long enough to be out of range: the slow reader decides, with the parser.
        guard j < n, j - k <= 15, !digit(j), chunk[j] != UInt8(ascii: "."), chunk[j] | 0x20 != UInt8(ascii: "e"),
          chunk[j] != UInt8(ascii: "+"), chunk[j] != UInt8(ascii: "-")
        else { break loop }
        if keep {
          let top = frames.count - 1
          guard frames[top].items.count < Self.maxValues else { break loop }
          let d = point ? Double(mantissa) / JSON.powersOfTen[decimals] : Double(mantissa)
          // -0 is 0 as the parser reads it; -0.0 keeps its sign.
          frames[top].items.append(.number(negative ? (point ? -d : Double(-mantissa)) : d, integer: !point))
        }
        k = j
        expect = .commaOrEnd
      default: break loop
      }
    }
    total += k - i
    return k
  }

  /// The answer ended: throws what is wrong with it as a whole, if anything.
  package mutating func finish() throws {
    if total == 0 { throw PayloadError("the response body is empty") }
    if token == .number || token == .literal { try endToken() }
    guard expect == .done, token == .none else {
      throw PayloadError("the JSON ends early (\(total) bytes, truncated?)")
    }
    if rootIsArray, let root = rootCount, root != expected {
      throw PayloadError("\(root) locations in the answer for \(expected) asked")
    }
  }

  var rootCount: Int?

  func fail(_ reason: String, at offset: Int? = nil) -> PayloadError {
    PayloadError("invalid JSON: \(reason) at byte \(offset ?? total)")
  }

  /// One byte; false when it must be read again in the state the byte left (the end of a
  /// number or literal, which only the next byte shows).
  mutating func step(_ b: UInt8) throws -> Bool {
    switch token {
    case .value, .key:
      try stringByte(b)
      total += 1
      return true
    case .number:
      if (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: ".") || b == UInt8(ascii: "e")
        || b == UInt8(ascii: "E") || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
      {
        guard text.count < Self.maxNumber else { throw fail("a number longer than \(Self.maxNumber) characters", at: tokenStart) }
        text.append(b)
        total += 1
        return true
      }
      try endToken()
      return false
    case .literal:
      if b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") && text.count < 5 {
        text.append(b)
        total += 1
        return true
      }
      try endToken()
      return false
    case .none:
      try structure(b)
      total += 1
      return true
    }
  }

  mutating func structure(_ b: UInt8) throws {
    if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { return }
    switch expect {
    case .value, .valueOrEnd:
      switch b {
      case UInt8(ascii: "{"), UInt8(ascii: "["): try open(object: b == UInt8(ascii: "{"))
      case UInt8(ascii: "]") where expect == .valueOrEnd: try close()
      case UInt8(ascii: "\""):
        keeping = try childShape() != nil
        begin(.value)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        begin(.number)
        text.append(b)
      case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
        begin(.literal)
        text.append(b)
      case UInt8(ascii: "N"), UInt8(ascii: "I"): throw fail("NaN and Infinity are not JSON numbers")
      case UInt8(ascii: "<"): throw fail("found HTML or XML instead of JSON")
      default: throw fail("unexpected character '\(Self.show(b))'")
      }
    case .keyOrEnd, .key:
      if b == UInt8(ascii: "\"") {
        keeping = frames.last.map { $0.shape.map(Self.isObject) ?? false } ?? false
        begin(.key)
      } else if b == UInt8(ascii: "}") && expect == .keyOrEnd {
        try close()
      } else {
        throw fail("expected a member name in quotes")
      }
    case .colon:
      guard b == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
      expect = .value
    case .commaOrEnd:
      let object = frames.last?.isObject ?? false
      if b == UInt8(ascii: ",") {
        expect = object ? .key : .value
      } else if b == UInt8(ascii: object ? "}" : "]") {
        try close()
      } else {
        throw fail(object ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array")
      }
    case .done:
      throw fail("unexpected data after the JSON value")
    }
  }

}
