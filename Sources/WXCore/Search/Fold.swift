/// Search folding: turns a place name (or a query) into the byte key that city search compares.
///
/// Folding makes matching case- and accent-insensitive while leaving everything else as typed:
///
/// - **Lower-case.** ASCII `A`–`Z` become `a`–`z`; other scripts with case (Greek, Cyrillic,
///   Armenian, …) are lower-cased with the standard library's Unicode data.
/// - **Strip accents.** Latin, Greek and Cyrillic letters lose their diacritics (`São` → `sao`,
///   `Đà Nẵng` → `da nang`, `Αθήνα` → `αθηνα`); letters that have no decomposition are spelled
///   out (`Łódź` → `lodz`, `Gießen` → `giessen`, `Ærøskøbing` → `aeroskobing`). Combining marks
///   in names that arrive already decomposed (NFD) are dropped, so NFC and NFD input fold alike.
///   Fullwidth ASCII (`ＮＹ`) folds to ASCII.
/// - **Keep non-Latin scripts as typed.** Scripts without case or accents (CJK, Arabic, Hebrew,
///   Devanagari, Thai, …) pass through unchanged: `東京` → `東京`.
/// - **Whitespace** runs collapse to a single ASCII space; leading and trailing whitespace is
///   trimmed. Invisible format characters (soft hyphen, bidi marks, zero-width space) are dropped.
/// - **Apostrophes, hyphens and periods do not matter** (fold version 2): apostrophes (`'` `’`
///   `‘` `ʼ` `ʻ` `` ` ``) and periods are dropped and hyphens (ASCII and Unicode) count as a space,
///   so `N'Djamena` → `ndjamena`, `Winston-Salem` → `winston salem`, `St. Louis` → `st louis`.
///   Other punctuation (commas, slashes, parentheses) is kept. Version 1, which catalogues
///   written by earlier releases were indexed with, kept all punctuation (`n'djamena`); a
///   catalogue records its version and is searched with the same one.
///
/// Folding is idempotent (`key(string(s)) == key(s)`) and needs neither Foundation nor ICU: the
/// accent table is generated into `FoldTable.swift` by `scripts/gen-fold-table.py`, and the rest
/// uses `Unicode.Scalar.Properties` from the standard library.
package enum Fold {
  /// The folding rules new catalogues are indexed with (see the type's documentation).
  package static let version = 2

  /// Folds `s` to the search key bytes (UTF-8).
  package static func key(_ s: String, version: Int = Fold.version) -> [UInt8] {
    var unused: [Int]? = nil
    return fold(s, version: version, boundaries: &unused)
  }

  /// Whether `key(s)` is not empty, without folding when an ASCII byte that folding keeps
  /// is there (any but white space, hyphens, apostrophes and periods).
  package static func hasKey(_ s: String) -> Bool {
    for b in s.utf8 where b < 0x80 {
      switch b {
      case 0x09...0x0D, 0x20, 0x27, 0x2D, 0x2E, 0x60: continue
      default: return true
      }
    }
    return !key(s).isEmpty
  }

  /// The offsets (> 0) in `key(name)` at which a later word of `name` starts: after a space
  /// (or hyphen), a slash or `(`, and after a dropped apostrophe or period, so `L'Aquila`
  /// is found by `aquila` and `N'Djamena` by `djamena`.
  ///
  /// `"Winston-Salem"` → `[8]`, `"Ho Chi Minh City"` → `[3, 7, 12]`, `"N'Djamena"` → `[1]`.
  package static func wordStarts(of name: String) -> [Int] {
    keyAndWordStarts(name).starts
  }

  /// `key(name)` and `wordStarts(of: name)`, folding the name once.
  package static func keyAndWordStarts(_ name: String) -> (key: [UInt8], starts: [Int]) {
    var dropped: [Int]? = []
    let folded = fold(name, version: version, boundaries: &dropped)
    var starts = wordStarts(folded)
    for b in dropped ?? [] where b > 0 && b < folded.count && startsLetterOrDigit(folded, at: b) {
      starts.append(b)
    }
    if dropped?.isEmpty == false { starts = Array(Set(starts)).sorted() }
    return (folded, starts)
  }

  /// The folding loop. `boundaries`, when not nil, collects the output offsets at which an
  /// apostrophe or period was dropped.
  private static func fold(_ s: String, version: Int, boundaries: inout [Int]?) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count)
    var pendingSpace = false
    let loose = version >= 2

    for scalar in s.unicodeScalars {
      let v = scalar.value

      // ASCII fast path.
      if v < 0x80 {
        let b = UInt8(truncatingIfNeeded: v)
        if b == 0x20 || (b &- 0x09) < 5 || (loose && b == 0x2D) {  // space, \t \n \v \f \r; hyphen
          pendingSpace = true
          continue
        }
        if loose && (b == 0x27 || b == 0x2E || b == 0x60) {  // ' . `
          boundaries?.append(out.count)
          continue
        }
        if pendingSpace {
          if !out.isEmpty { out.append(0x20) }
          pendingSpace = false
        }
        out.append((b &- 0x41) < 26 ? b | 0x20 : b)
        continue
      }

      // Table keys are never marks, spaces or format characters, so look them up first:
      // this is the common case for non-ASCII letters in Latin names.
      if let i = tableIndex(v) {
        let start = Int(foldTableOffsets[i]), end = Int(foldTableOffsets[i + 1])
        if loose && end == start + 1 {
          // Typographic apostrophes fold to ', Unicode hyphens to -.
          let b = foldTableBytes[start]
          if b == 0x27 || b == 0x2E { boundaries?.append(out.count); continue }
          if b == 0x2D { pendingSpace = true; continue }
        }
        if pendingSpace {
          if !out.isEmpty { out.append(0x20) }
          pendingSpace = false
        }
        out.append(contentsOf: foldTableBytes[start..<end])
        continue
      }

      let props = scalar.properties
      switch props.generalCategory {
      case .nonspacingMark, .enclosingMark, .spacingMark, .format:
        continue  // combining accents of decomposed input; invisible format characters
      case .spaceSeparator, .lineSeparator, .paragraphSeparator:
        pendingSpace = true
        continue
      case .control where v == 0x85:  // NEXT LINE
        pendingSpace = true
        continue
      default:
        break
      }

      if pendingSpace {
        if !out.isEmpty { out.append(0x20) }
        pendingSpace = false
      }
      if props.changesWhenLowercased {
        out.append(contentsOf: props.lowercaseMapping.utf8)
      } else {
        appendUTF8(scalar, to: &out)
      }
    }
    return out
  }

  /// `s` in ASCII letters, case kept: what an ASCII terminal shows of a name (`Kraków` →
  /// `Krakow`, `Łódź` → `Lodz`, `Gießen` → `Giessen`) with the folding table's spellings. A
  /// character with no Latin spelling (`東京`) becomes one `?` per column it takes, so a table
  /// laid out for the name keeps its columns.
  package static func ascii(_ s: String) -> String {
    guard s.utf8.contains(where: { $0 >= 0x80 }) else { return s }
    var out = ""
    for scalar in s.unicodeScalars {
      let v = scalar.value
      if v < 0x80 {
        out.unicodeScalars.append(scalar)
        continue
      }
      if let i = tableIndex(v) {
        let spelled = String(decoding: foldTableBytes[Int(foldTableOffsets[i])..<Int(foldTableOffsets[i + 1])], as: UTF8.self)
        if spelled.utf8.allSatisfy({ $0 < 0x80 }) {
          out += scalar.properties.isUppercase ? spelled.prefix(1).uppercased() + spelled.dropFirst() : spelled
          continue
        }
      }
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .spacingMark, .format: continue
      case .spaceSeparator: out += " "
      default: out += isWide(v) ? "??" : "?"
      }
    }
    return out
  }

  /// East Asian wide characters (two terminal columns).
  package static func isWide(_ v: UInt32) -> Bool {
    (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
      || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
      || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
  }

  /// Folds `s` to the search key; the same as `key(_:)`, as a `String`.
  package static func string(_ s: String) -> String {
    String(decoding: key(s), as: UTF8.self)
  }

  /// Byte offsets (> 0) in a folded key at which a later word starts: a letter or digit right
  /// after a space, hyphen, apostrophe, period, slash or `(`.
  ///
  /// `"winston-salem"` → `[8]`, `"ho chi minh city"` → `[3, 7, 12]`, `"n'djamena"` → `[2]`.
  package static func wordStarts(_ folded: [UInt8]) -> [Int] {
    var starts: [Int] = []
    var i = 1
    let n = folded.count
    while i < n {
      // Separators are ASCII, so "previous scalar is a separator" is "previous byte is one".
      switch folded[i - 1] {
      case 0x20, 0x2D, 0x27, 0x2E, 0x2F, 0x28:  // space - ' . / (
        if startsLetterOrDigit(folded, at: i) { starts.append(i) }
      default:
        break
      }
      i += 1
    }
    return starts
  }

  // MARK: - Private

  /// Index of `v` in `foldTableKeys`, or nil.
  @inline(__always)
  private static func tableIndex(_ v: UInt32) -> Int? {
    foldTableKeys.withUnsafeBufferPointer { keys -> Int? in
      guard let first = keys.first, let last = keys.last, v >= first, v <= last else { return nil }
      var lo = 0, hi = keys.count
      while lo < hi {
        let mid = (lo &+ hi) >> 1
        if keys[mid] < v { lo = mid &+ 1 } else { hi = mid }
      }
      return lo < keys.count && keys[lo] == v ? lo : nil
    }
  }

  @inline(__always)
  private static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
    let v = scalar.value
    if v < 0x800 {
      out.append(UInt8(truncatingIfNeeded: 0xC0 | (v >> 6)))
      out.append(UInt8(truncatingIfNeeded: 0x80 | (v & 0x3F)))
    } else if v < 0x10000 {
      out.append(UInt8(truncatingIfNeeded: 0xE0 | (v >> 12)))
      out.append(UInt8(truncatingIfNeeded: 0x80 | ((v >> 6) & 0x3F)))
      out.append(UInt8(truncatingIfNeeded: 0x80 | (v & 0x3F)))
    } else {
      out.append(UInt8(truncatingIfNeeded: 0xF0 | (v >> 18)))
      out.append(UInt8(truncatingIfNeeded: 0x80 | ((v >> 12) & 0x3F)))
      out.append(UInt8(truncatingIfNeeded: 0x80 | ((v >> 6) & 0x3F)))
      out.append(UInt8(truncatingIfNeeded: 0x80 | (v & 0x3F)))
    }
  }

  /// Whether the scalar whose UTF-8 starts at `bytes[i]` is a letter or a decimal digit.
  /// Returns false at a continuation byte or on malformed UTF-8.
  private static func startsLetterOrDigit(_ bytes: [UInt8], at i: Int) -> Bool {
    let b0 = bytes[i]
    if b0 < 0x80 {
      return (b0 | 0x20) &- 0x61 < 26 || b0 &- 0x30 < 10
    }
    let len: Int, initial: UInt32
    switch b0 {
    case 0xC2...0xDF: len = 2; initial = UInt32(b0 & 0x1F)
    case 0xE0...0xEF: len = 3; initial = UInt32(b0 & 0x0F)
    case 0xF0...0xF4: len = 4; initial = UInt32(b0 & 0x07)
    default: return false
    }
    guard i + len <= bytes.count else { return false }
    var v = initial
    for k in 1..<len {
      let b = bytes[i + k]
      guard b & 0xC0 == 0x80 else { return false }
      v = v << 6 | UInt32(b & 0x3F)
    }
    guard let scalar = Unicode.Scalar(v) else { return false }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber:
      return true
    default:
      return false
    }
  }
}
