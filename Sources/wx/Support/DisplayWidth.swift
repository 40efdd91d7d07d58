import Glibc
import WXCore

/// Display width of text in a terminal: East Asian wide characters take two columns,
/// combining marks none, ANSI colour sequences none.
enum DisplayWidth {
  static func of(_ s: String) -> Int {
    // ASCII and Latin without escapes (nearly every cell, `°C` included): a column for each
    // printable byte or two-byte sequence below U+0300, without decoding scalars.
    var s = s
    let latin: Int? = s.withUTF8 { b in
      var width = 0
      var i = 0
      while i < b.count {
        let c = b[i]
        if c < 0x80 {
          guard c != 0x1B else { return nil }
          if c >= 0x20 { width += 1 }
          i += 1
        } else if c >= 0xC2 && c <= 0xCB {  // U+0080–U+02FF: its lead byte and one more
          width += 1
          i += 2
        } else {
          return nil
        }
      }
      return width
    }
    return latin ?? scalarWidth(s)
  }

  private static func scalarWidth(_ s: String) -> Int {
    var width = 0
    var inEscape = false
    for u in s.unicodeScalars {
      if inEscape {
        if u == "m" { inEscape = false }
        continue
      }
      if u == "\u{1B}" { inEscape = true; continue }
      let v = u.value
      if v < 0x20 { continue }
      if v < 0x300 {  // Latin: one column each, and no combining marks below U+0300
        width += 1
        continue
      }
      if u.properties.generalCategory == .nonspacingMark || u.properties.generalCategory == .enclosingMark { continue }
      if Fold.isWide(v) {
        width += 2
      } else {
        width += 1
      }
    }
    return width
  }

  static func pad(_ s: String, to width: Int, right: Bool = false) -> String {
    let w = of(s)
    guard w < width else { return s }
    let fill = spaces(width - w)
    return right ? fill + s : s + fill
  }

  /// `n` spaces (none for 0 or less).
  static func spaces(_ n: Int) -> String {
    n <= 0 ? "" : n <= blanks.utf8.count ? String(blanks.utf8.prefix(n))! : String(repeating: " ", count: n)
  }
  private static let blanks = String(repeating: " ", count: 64)

  /// Cuts `s` to at most `width` columns, ending with `ellipsis` when cut. Colour sequences
  /// cost no columns and are kept; a colour left open is closed.
  static func truncate(_ s: String, to width: Int, ellipsis: String) -> String {
    guard of(s) > width else { return s }
    let room = width - of(ellipsis)
    var out = ""
    var used = 0
    var inEscape = false
    var painted = false
    for ch in s {
      if inEscape {
        out.append(ch)
        if ch == "m" { inEscape = false }
        continue
      }
      if ch == "\u{1B}" {
        inEscape = true
        painted = true
        out.append(ch)
        continue
      }
      let w = of(String(ch))
      if used + w > room { break }
      out.append(ch)
      used += w
    }
    return out + (painted ? "\u{1B}[0m" : "") + ellipsis
  }
}
