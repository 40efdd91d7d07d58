import WXCore

/// Untrusted text made safe for a terminal.
///
/// City names, countries, descriptions and dates come from an API, favourites and the
/// catalogue from files, and arguments are echoed back in messages: none of it may move the
/// cursor, retitle or clear the terminal, or reorder what follows. Every C0 control but
/// newline, DEL, every C1 control (U+0080–U+009F) and the invisible bidirectional controls
/// (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069) and line/paragraph separators
/// (U+2028–U+2029) are shown as escapes: `\x1b`, `\x7f`, `\u{202e}`.
enum Escape {
  /// `s` with every control shown as an escape (newlines too when `newlines` is false).
  /// With `keepingColors`, well-formed SGR colour sequences (`ESC [ digits/; m`) are kept:
  /// only the runner's own output, whose untrusted parts are already escaped, uses that.
  static func visible(_ s: String, newlines: Bool = false, keepingColors: Bool = false) -> String {
    // Fast path: nothing to escape (the usual case), decided on the UTF-8 bytes alone.
    if !needsWork(s, newlines: newlines) { return s }
    var out = ""
    out.reserveCapacity(s.utf8.count + 16)
    let scalars = s.unicodeScalars
    var i = scalars.startIndex
    while i < scalars.endIndex {
      let u = scalars[i]
      if u == "\u{1B}", keepingColors, let end = sgrEnd(scalars, from: i) {
        out.unicodeScalars.append(contentsOf: scalars[i...end])
        i = scalars.index(after: end)
        continue
      }
      if u == "\n" && newlines {
        out.unicodeScalars.append(u)
      } else if let escape = escape(u) {
        out += escape
      } else {
        out.unicodeScalars.append(u)
      }
      i = scalars.index(after: i)
    }
    return out
  }

  /// Whether `s` holds a byte ``escape(_:)`` is about, read on its UTF-8: C0 (but an allowed
  /// newline, and ESC, which a colour sequence starts with), DEL, C1 (C2 80–9F), U+061C (D8 9C),
  /// U+200E–F and U+2028–202E (E2 80 8E/8F/A8–AE), U+2066–2069 (E2 81 A6–A9).
  private static func needsWork(_ s: String, newlines: Bool) -> Bool {
    var previous: UInt8 = 0
    var beforePrevious: UInt8 = 0
    for b in s.utf8 {
      if (b < 0x20 && !(b == 0x0A && newlines)) || b == 0x7F { return true }
      switch (beforePrevious, previous) {
      case (_, 0xC2) where b >= 0x80 && b <= 0x9F: return true
      case (_, 0xD8) where b == 0x9C: return true
      case (0xE2, 0x80) where b == 0x8E || b == 0x8F || (b >= 0xA8 && b <= 0xAE): return true
      case (0xE2, 0x81) where b >= 0xA6 && b <= 0xA9: return true
      default: break
      }
      beforePrevious = previous
      previous = b
    }
    return false
  }

  /// The escape for one scalar, or nil when it may be shown as is.
  static func escape(_ u: Unicode.Scalar) -> String? {
    let v = u.value
    switch v {
    case 0..<0x20, 0x7F, 0x80...0x9F, 0x61C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029:
      return Redact.escaped(u)
    default: return nil
    }
  }

  /// Whether `s` holds anything ``escape(_:)`` would change.
  static func needsEscaping(_ s: String) -> Bool { s.unicodeScalars.contains { escape($0) != nil } }

  /// The index of the `m` ending an SGR sequence that starts at `start` (ESC), if it is one.
  private static func sgrEnd(_ s: String.UnicodeScalarView, from start: String.Index) -> String.Index? {
    var k = s.index(after: start)
    guard k < s.endIndex, s[k] == "[" else { return nil }
    k = s.index(after: k)
    var length = 0
    while k < s.endIndex, length < 30 {
      let c = s[k]
      if c == "m" { return k }
      guard ("0"..."9").contains(c) || c == ";" else { return nil }
      k = s.index(after: k)
      length += 1
    }
    return nil
  }
}

extension String {
  /// This untrusted text, safe to print (see ``Escape``).
  var visible: String { Escape.visible(self) }

  /// At most `limit` characters of an echoed argument, with "…" when cut, escaped.
  func quoted(limit: Int = 60) -> String {
    let cut = count > limit ? String(prefix(limit)) + "…" : self
    return "\"" + cut.visible + "\""
  }
}
