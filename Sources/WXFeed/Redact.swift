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
    // Parameters: the query's and the fragment's (`&`, `;`), and the path's own
    // (`/app;jsessionid=…/`), each up to the next separator.
    var inQuery = false
    var parameter: String?
    for c in rest {
      let ends = inQuery ? "?#&;".contains(c) : "/?#;".contains(c)
      guard ends else {
        if parameter != nil { parameter!.append(c) } else { out.append(c) }
        continue
      }
      if let p = parameter { out += hidingSecret(p) }
      out.append(c)
      if c == "?" || c == "#" { inQuery = true }
      parameter = inQuery || c == ";" ? "" : nil
    }
    if let p = parameter { out += hidingSecret(p) }
    return out
  }

  static func hidingSecret(_ parameter: String) -> String {
    guard let eq = parameter.firstIndex(of: "="), parameter.index(after: eq) != parameter.endIndex else { return parameter }
    // The name as the server reads it: `my%6Bey` is `mykey`.
    let name = percentDecoded(String(parameter[..<eq])).lowercased()
    guard secretNames.contains(where: name.contains) else { return parameter }
    // A URL holds no spaces: what follows one is a note added to it ("… (Paris)").
    let note = parameter[eq...].firstIndex(where: \.isWhitespace).map { parameter[$0...] } ?? ""
    return String(parameter[...eq]) + "…" + String(note)
  }

  /// `s` with its `%XX` escapes decoded (`+` kept); an escape that is not two hex digits stays.
  static func percentDecoded(_ s: String) -> String {
    guard s.contains("%") else { return s }
    var bytes: [UInt8] = []
    let u = Array(s.utf8)
    var i = 0
    func hex(_ b: UInt8) -> UInt8? {
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
      default: return nil
      }
    }
    while i < u.count {
      if u[i] == UInt8(ascii: "%"), i + 2 < u.count, let h = hex(u[i + 1]), let l = hex(u[i + 2]) {
        bytes.append(h << 4 | l)
        i += 3
      } else {
        bytes.append(u[i])
        i += 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The shortest secret ``hiding(_:in:)`` looks for: a shorter one would hide ordinary
  /// letters of every message (real API keys are 32 characters).
  package static let shortestSecret = 4

  /// `text` (anything a server sent: a reason, a header, a field, a URL it redirects to) with
  /// every occurrence of each secret, as given or percent-encoded, replaced by `…`.
  package static func hiding(_ secrets: [String], in text: String) -> String {
    var out = text
    for secret in secrets where secret.unicodeScalars.count >= shortestSecret {
      for form in Set([secret, percentEncoded(secret), percentEncoded(secret, lowercase: true)]) where out.contains(form) {
        out = out.split(separator: form, omittingEmptySubsequences: false).joined(separator: "…")
      }
    }
    return out
  }

  /// Percent-encodes everything but unreserved characters (RFC 3986).
  package static func percentEncoded(_ s: String, lowercase: Bool = false) -> String {
    var out = ""
    for b in s.utf8 {
      switch b {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(UnicodeScalar(b))
      default:
        let h = String(b, radix: 16, uppercase: !lowercase)
        out += "%" + (h.count == 1 ? "0" + h : h)
      }
    }
    return out
  }

  /// A path as messages show it: whole up to 160 code points, else its first 60 and last 90
  /// around `…` (a 128 KiB `WX_HOME` is not echoed whole; the file's name stays).
  package static func path(_ path: String) -> String {
    let scalars = path.unicodeScalars
    guard scalars.count > 160 else { return path }
    return String(String.UnicodeScalarView(scalars.prefix(60))) + "…" + String(String.UnicodeScalarView(scalars.suffix(90)))
  }

  /// How a control or format character is shown, here and in everything wx prints: `\x1b`
  /// for C0 and DEL, `\u{202e}` for the rest.
  package static func escaped(_ u: Unicode.Scalar) -> String {
    let h = String(u.value, radix: 16)
    if u.value < 0x20 || u.value == 0x7F { return "\\x" + (h.count < 2 ? "0" : "") + h }
    return "\\u{" + String(repeating: "0", count: max(0, 4 - h.count)) + h + "}"
  }

  /// Untrusted text quoted in a message: `"…"` around ``text(_:limit:)`` (at most `limit`
  /// code points), escaped as everything wx prints is (`\x1b`, `\u{202e}`), never as JSON
  /// (`\u001b`): JSON escaping is for JSON output only.
  package static func quoted(_ s: String, limit: Int = 40) -> String { "\"" + text(s, limit: limit) + "\"" }

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
