/// The one definition of the scalars no terminal may receive raw: C0 controls, DEL, C1
/// controls (U+0080–U+009F), the invisible bidirectional controls (U+061C, U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators (U+2028, U+2029). They
/// move the cursor, retitle or clear a terminal, or reorder what follows on a line.
///
/// Escaping for the terminal, the JSON writer, completion, browse's key decoder and stored-text
/// cleaning (which also drops every other format character) all ask here; ``found(in:allowingNewline:)``
/// is the byte-level fast path they take first, and a test checks it against
/// ``contains(_:)`` for every scalar.
package enum UnsafeScalars {
  package static func contains(_ u: Unicode.Scalar) -> Bool {
    switch u.value {
    case 0..<0x20, 0x7F...0x9F, 0x61C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
    default: false
    }
  }

  /// Whether `s` holds such a scalar (a newline aside when `allowingNewline`), decided on its
  /// UTF-8 alone: C0 and DEL bytes, C1 (C2 80–9F), U+061C (D8 9C), U+200E–F and U+2028–202E
  /// (E2 80 8E/8F/A8–AE), U+2066–2069 (E2 81 A6–A9).
  package static func found(in s: String, allowingNewline: Bool = false) -> Bool {
    var s = s
    return s.withUTF8 { found(in: $0, allowingNewline: allowingNewline) }
  }

  /// ``found(in:allowingNewline:)`` of valid UTF-8: printable ASCII, most of what is asked,
  /// costs a comparison a byte; a sequence is read at its lead byte (C2, D8 and E2 are never
  /// continuation bytes).
  static func found(in b: UnsafeBufferPointer<UInt8>, allowingNewline: Bool) -> Bool {
    var i = 0
    while i < b.count {
      let c = b[i]
      i += 1
      if c >= 0x20 && c < 0x7F { continue }
      if c < 0x80 {
        if c == 0x7F || !(c == 0x0A && allowingNewline) { return true }
        continue
      }
      switch c {
      case 0xC2: if i < b.count && b[i] <= 0x9F { return true }  // a continuation byte is 80 or more
      case 0xD8: if i < b.count && b[i] == 0x9C { return true }
      case 0xE2:
        guard i + 1 < b.count else { continue }
        let (c1, c2) = (b[i], b[i + 1])
        if c1 == 0x80 && (c2 == 0x8E || c2 == 0x8F || (c2 >= 0xA8 && c2 <= 0xAE)) { return true }
        if c1 == 0x81 && c2 >= 0xA6 && c2 <= 0xA9 { return true }
      default: break
      }
    }
    return false
  }
}
