/// What sync does to every text field before it is stored (city, country, description,
/// forecast date and description, AccuWeather names): the rule wx(1) states under `wx sync`.
///
/// 1. Control characters (C0 U+0000–U+001F with tab, CR, LF, ESC, BEL and NUL; DEL U+007F;
///    C1 U+0080–U+009F) and the line and paragraph separators U+2028, U+2029 become a space.
/// 2. Invisible format characters (Unicode category Cf: the bidi embeddings, overrides and
///    isolates U+202A–U+202E and U+2066–U+2069, the marks U+200E, U+200F and U+061C,
///    zero-width spaces and joiners, U+FEFF, the soft hyphen, tag characters) are removed.
/// 3. Runs of white space become one space; leading and trailing spaces are removed.
/// 4. A field longer than ``maxScalars`` code points after that is bad data, as is an empty
///    city, country or date (the decoders say which record and field).
///
/// So nothing a provider sends can move the cursor, retitle or clear a terminal, or reorder
/// what is printed after it; the lead's renderers escape again whatever an older catalogue holds.
package enum StoredText {
  /// The longest text field accepted, in Unicode code points (Bangkok's full name has 168).
  package static let maxScalars = 256

  /// A field was refused: it has `scalars` code points, more than ``maxScalars``.
  package struct TooLong: Error, Equatable {
    package var scalars: Int
  }

  /// `raw` made safe to store, per the rule above.
  package static func clean(_ raw: String) throws(TooLong) -> String {
    if isClean(raw) { return raw }
    var out = String.UnicodeScalarView()
    var count = 0
    var pendingSpace = false
    for u in raw.unicodeScalars {
      switch disposition(u) {
      case .drop: continue
      case .space: pendingSpace = true
      case .keep:
        if pendingSpace && !out.isEmpty {
          out.append(" ")
          count += 1
        }
        pendingSpace = false
        out.append(u)
        count += 1
        if count > maxScalars { throw TooLong(scalars: raw.unicodeScalars.count) }
      }
    }
    return String(out)
  }

  enum Disposition { case keep, space, drop }

  static func disposition(_ u: Unicode.Scalar) -> Disposition {
    let v = u.value
    if v < 0x7F { return v < 0x20 || v == 0x20 ? .space : .keep }
    if isControlOrFormat(u) { return v <= 0x9F || v == 0x2028 || v == 0x2029 ? .space : .drop }
    return u.properties.isWhitespace ? .space : .keep
  }

  /// C0, DEL, C1, U+2028, U+2029 and format characters (Cf): what no terminal may receive raw.
  package static func isControlOrFormat(_ u: Unicode.Scalar) -> Bool {
    if UnsafeScalars.contains(u) { return true }
    return u.value > 0x9F && u.properties.generalCategory == .format
  }

  /// The usual case, checked on bytes: printable ASCII, no space at either end or twice in a
  /// row, short enough. Such a string is its own clean form.
  static func isClean(_ s: String) -> Bool {
    var s = s
    return s.withUTF8 { bytes in
      guard bytes.count <= maxScalars, let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20
      else { return bytes.isEmpty }
      var previous: UInt8 = 0
      for b in bytes {
        guard b >= 0x20, b < 0x7F, !(b == 0x20 && previous == 0x20) else { return false }
        previous = b
      }
      return true
    }
  }
}
