import WXCore
import WXFeed

/// Untrusted text made safe for a terminal.
///
/// City names, countries, descriptions and dates come from an API, favourites and the
/// catalogue from files, and arguments are echoed back in messages: none of it may move the
/// cursor, retitle or clear the terminal, or reorder what follows. Every scalar of
/// ``UnsafeScalars`` (C0 but newline, DEL, C1, bidi controls, line/paragraph separators) is
/// shown as an escape: `\x1b`, `\x7f`, `\u{202e}`.
enum Escape {
  /// `s` with every control shown as an escape (newlines too when `newlines` is false).
  /// With `keepingColors`, well-formed SGR colour sequences (`ESC [ digits/; m`) are kept:
  /// only the runner's own output, whose untrusted parts are already escaped, uses that.
  /// With `invisibles`, every other format character is escaped too (`\u{200b}`): an echoed
  /// argument shows what was typed, a zero-width space included.
  static func visible(_ s: String, newlines: Bool = false, keepingColors: Bool = false, invisibles: Bool = false) -> String {
    // Fast path: nothing to escape (the usual case), decided on the UTF-8 bytes alone.
    if !UnsafeScalars.found(in: s, allowingNewline: newlines) && !(invisibles && hasFormat(s)) { return s }
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
      } else if invisibles && isInvisible(u) {
        out += Redact.escaped(u)
      } else {
        out.unicodeScalars.append(u)
      }
      i = scalars.index(after: i)
    }
    return out
  }

  /// The escape for one scalar (``UnsafeScalars``), or nil when it may be shown as is.
  static func escape(_ u: Unicode.Scalar) -> String? {
    UnsafeScalars.contains(u) ? Redact.escaped(u) : nil
  }

  /// A format character an echo shows as an escape (a zero-width space, a BOM); not the
  /// zero-width non-joiner and joiner, which spell Persian and Indic names.
  private static func isInvisible(_ u: Unicode.Scalar) -> Bool {
    StoredText.isControlOrFormat(u) && u.value != 0x200C && u.value != 0x200D
  }

  /// Whether `s` holds an ``isInvisible(_:)`` character (all of them lie past ASCII and C1).
  private static func hasFormat(_ s: String) -> Bool {
    s.utf8.contains { $0 >= 0xC0 } && s.unicodeScalars.contains(where: isInvisible)
  }

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

  /// At most `limit` characters of an echoed argument, with "…" when cut, escaped, its
  /// invisible format characters too.
  func quoted(limit: Int = 60) -> String { "\"" + Escape.visible(cut(limit), invisibles: true) + "\"" }

  /// At most `limit` characters, with "…" when cut: how an echoed value is kept from filling
  /// the terminal.
  func cut(_ limit: Int = 60) -> String { count > limit ? String(prefix(limit)) + "…" : self }
}
