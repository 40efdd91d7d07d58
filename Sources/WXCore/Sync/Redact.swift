/// Keeps secrets and terminal controls out of what wx prints and stores about a URL.
package enum Redact {
  /// Query and fragment parameters whose value is hidden: any name that contains one of these,
  /// in any case (`apikey`, `api_key`, `access_token`, `password`, `X-Amz-Signature`…).
  static let secretNames = ["key", "token", "secret", "pass", "pwd", "auth", "sig", "session", "credential"]
  /// The longest URL shown, in code points.
  static let maxURL = 512

  /// `url` as wx prints and stores it: the userinfo (`user:password@`) becomes `…@`, the
  /// value of every secret parameter (``secretNames``) becomes `…`, and what is left is made
  /// printable by ``text(_:limit:)``. Idempotent, and harmless on text that is not a URL.
  package static func url(_ url: String) -> String {
    text(secretsRemoved(url), limit: maxURL)
  }

  /// (Substrings are turned into Strings before they are added: `String += Substring` is the
  /// generic `+=`, whose first use costs a run-time type lookup on every read command's path.)
  static func secretsRemoved(_ url: String) -> String {
    var out = ""
    var rest = Substring(url)
    // `scheme:` (only when a slash follows, so `user:pass@host` is not taken for one), slashes.
    if let colon = rest.firstIndex(of: ":"), rest[..<colon].first?.isLetter == true,
      rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
      rest[colon...].dropFirst().first == "/"
    {
      let afterSlashes = rest[colon...].dropFirst().drop(while: { $0 == "/" || $0 == "\\" })
      out += String(rest[..<afterSlashes.startIndex])
      rest = afterSlashes
    }
    let authorityEnd = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
    if let at = rest[..<authorityEnd].lastIndex(of: "@") {
      out += "…"
      rest = rest[at...]
    }
    guard let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return out + String(rest) }
    out += String(rest[..<query])
    var parameter = ""
    for c in rest[query...] {
      if "?#&;".contains(c) {
        out += hidingSecret(parameter)
        out.append(c)
        parameter = ""
      } else {
        parameter.append(c)
      }
    }
    return out + hidingSecret(parameter)
  }

  static func hidingSecret(_ parameter: String) -> String {
    guard let eq = parameter.firstIndex(of: "="), parameter.index(after: eq) != parameter.endIndex else { return parameter }
    let name = parameter[..<eq].lowercased()
    guard secretNames.contains(where: name.contains) else { return parameter }
    // A URL holds no spaces: what follows one is a note added to it ("… (Paris)").
    let note = parameter[eq...].firstIndex(where: \.isWhitespace).map { parameter[$0...] } ?? ""
    return String(parameter[...eq]) + "…" + String(note)
  }

  /// How a control or format character is shown, here and in everything wx prints: `\x1b`
  /// for C0 and DEL, `\u{202e}` for the rest.
  package static func escaped(_ u: Unicode.Scalar) -> String {
    let h = String(u.value, radix: 16)
    if u.value < 0x20 || u.value == 0x7F { return "\\x" + (h.count < 2 ? "0" : "") + h }
    return "\\u{" + String(repeating: "0", count: max(0, 4 - h.count)) + h + "}"
  }

  /// Untrusted text (a header, a URL, a library's message) made safe for a one-line message:
  /// control and format characters (see ``StoredText``) are shown as `\x1b` or `\u{202e}`, and text longer
  /// than `limit` code points is cut, ending in `…`. Idempotent.
  package static func text(_ s: String, limit: Int = 200) -> String {
    if StoredText.isClean(s) && s.utf8.count <= limit { return s }
    var out = String.UnicodeScalarView()
    var fits = out.startIndex  // where `…` goes if the text turns out too long
    var count = 0
    for u in s.unicodeScalars {
      let shown = StoredText.isControlOrFormat(u) ? escaped(u) : String(u)
      count += shown.unicodeScalars.count
      if count > limit {
        out.removeSubrange(fits...)
        out.append("…")
        break
      }
      out.append(contentsOf: shown.unicodeScalars)
      if count < limit { fits = out.endIndex }
    }
    return String(out)
  }
}
