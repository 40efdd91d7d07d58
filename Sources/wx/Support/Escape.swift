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
    // Fast path: printable ASCII (and newlines where allowed) needs nothing.
    if s.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || ($0 == 0x0A && newlines) }) { return s }
    var out = String.UnicodeScalarView()
    let scalars = Array(s.unicodeScalars)
    var i = 0
    while i < scalars.count {
      let u = scalars[i]
      if u == "\u{1B}", keepingColors, let end = sgrEnd(scalars, from: i) {
        out.append(contentsOf: scalars[i...end])
        i = end + 1
        continue
      }
      if u == "\n" && newlines {
        out.append(u)
      } else if let escape = escape(u) {
        out.append(contentsOf: escape.unicodeScalars)
      } else {
        out.append(u)
      }
      i += 1
    }
    return String(out)
  }

  /// The escape for one scalar, or nil when it may be shown as is.
  static func escape(_ u: Unicode.Scalar) -> String? {
    let v = u.value
    switch v {
    case 0..<0x20, 0x7F: return "\\x" + hex(v, 2)
    case 0x80...0x9F, 0x61C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029:
      return "\\u{" + hex(v, 4) + "}"
    default: return nil
    }
  }

  /// Whether `s` holds anything ``escape(_:)`` would change.
  static func needsEscaping(_ s: String) -> Bool { s.unicodeScalars.contains { escape($0) != nil } }

  /// The index of the `m` ending an SGR sequence that starts at `start` (ESC), if it is one.
  private static func sgrEnd(_ s: [Unicode.Scalar], from start: Int) -> Int? {
    guard start + 2 < s.count, s[start + 1] == "[" else { return nil }
    var k = start + 2
    while k < s.count, k - start < 32 {
      let c = s[k]
      if c == "m" { return k }
      guard ("0"..."9").contains(c) || c == ";" else { return nil }
      k += 1
    }
    return nil
  }

  private static func hex(_ v: UInt32, _ digits: Int) -> String {
    let h = String(v, radix: 16)
    return String(repeating: "0", count: max(0, digits - h.count)) + h
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
