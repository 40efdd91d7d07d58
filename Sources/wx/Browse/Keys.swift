import WXCore
import WXFeed

/// A key press, decoded from the bytes a terminal sends.
enum Key: Equatable {
  case char(Character)
  case up, down, left, right, pageUp, pageDown, home, end
  case enter, escape, backspace, delete, tab, backTab
  /// Ctrl and a letter: `ctrl(0x03)` is Ctrl-C.
  case ctrl(UInt8)
}

/// Turns terminal input into keys: UTF-8 text, C0 controls and the escape sequences of
/// arrows, PgUp/PgDn, Home/End (CSI `ESC [` and SS3 `ESC O` forms, xterm and VT220 styles).
///
/// An ESC alone is the Esc key only once no more bytes follow it shortly (the caller waits
/// a moment and then calls ``decode(final:)`` with `final`): a sequence split across reads
/// is never taken for Esc plus letters. Unknown sequences are dropped whole.
struct KeyDecoder {
  private(set) var pending: [UInt8] = []

  mutating func feed(_ bytes: some Sequence<UInt8>) { pending.append(contentsOf: bytes) }

  /// The keys complete so far. With `final`, an unfinished sequence or character is given up:
  /// a lone ESC becomes ``Key/escape``, a broken UTF-8 lead byte is dropped.
  mutating func decode(final: Bool = false) -> [Key] {
    var keys: [Key] = []
    var i = 0
    let b = pending
    while i < b.count {
      guard let (key, used) = Self.one(b, from: i) else {
        if !final { break }
        if b[i] == 0x1B { keys.append(.escape) }
        i += 1
        continue
      }
      if let key { keys.append(key) }
      i += used
    }
    pending.removeFirst(i)
    return keys
  }

  /// One key at `i`: (key or nil for an ignored input, bytes used), or nil when more bytes
  /// are needed to tell.
  private static func one(_ b: [UInt8], from i: Int) -> (Key?, Int)? {
    let c = b[i]
    switch c {
    case 0x1B: return escape(b, from: i)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0..<0x20: return (.ctrl(c), 1)
    case 0x20..<0x7F: return (.char(Character(Unicode.Scalar(c))), 1)
    default: return utf8(b, from: i)
    }
  }

  private static func escape(_ b: [UInt8], from i: Int) -> (Key?, Int)? {
    guard i + 1 < b.count else { return nil }
    let kind = b[i + 1]
    if kind == 0x1B { return (.escape, 1) }  // Esc pressed twice
    if kind == UInt8(ascii: "O") {
      guard i + 2 < b.count else { return nil }
      let map: [UInt8: Key] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x48: .home, 0x46: .end]
      return (map[b[i + 2]], 3)
    }
    guard kind == UInt8(ascii: "[") else { return (.escape, 1) }  // Alt-x: Esc, then x
    // CSI: parameters 0x30–0x3F, intermediates 0x20–0x2F, one final byte 0x40–0x7E.
    var k = i + 2
    while k < b.count, (0x20...0x3F).contains(b[k]) { k += 1 }
    guard k < b.count else { return k - i > 16 ? (nil, k - i) : nil }
    guard (0x40...0x7E).contains(b[k]) else { return (nil, k - i) }
    let params = String(decoding: b[(i + 2)..<k], as: UTF8.self)
    let first = params.split(separator: ";").first.map(String.init) ?? ""
    let key: Key?
    switch b[k] {
    case 0x41: key = .up
    case 0x42: key = .down
    case 0x43: key = .right
    case 0x44: key = .left
    case 0x48: key = .home
    case 0x46: key = .end
    case 0x5A: key = .backTab
    case UInt8(ascii: "~"):
      switch first {
      case "1", "7": key = .home
      case "4", "8": key = .end
      case "5": key = .pageUp
      case "6": key = .pageDown
      case "3": key = .delete
      default: key = nil
      }
    default: key = nil
    }
    return (key, k - i + 1)
  }

  private static func utf8(_ b: [UInt8], from i: Int) -> (Key?, Int)? {
    let c = b[i]
    let length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1
    guard length > 1, c < 0xF8 else { return (nil, 1) }  // a stray continuation byte
    guard i + length <= b.count else { return nil }
    let bytes = b[i..<(i + length)]
    guard bytes.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }) else { return (nil, 1) }
    let text = String(decoding: bytes, as: UTF8.self)
    guard let ch = text.first, !text.unicodeScalars.contains(where: { $0.value == 0xFFFD }) else { return (nil, length) }
    // C1 controls and bidirectional overrides are not text to search for.
    if UnsafeScalars.found(in: text) { return (nil, length) }
    return (.char(ch), length)
  }
}
