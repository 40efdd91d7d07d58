import WXCore

/// Footer lines (`page 1 of 16 · 62 cities · synced 2026-11-23 12:10 (2d ago) · 59 of 62 cities
/// sample data`) on a terminal narrower than they are. Lines never wrap, so the edge cuts what
/// is last: the age and the sample mark, the two things a footer is for (at 40 columns it read
/// `synced 2026-…`). Shortened first, step by step until it fits: the sync's date goes and
/// its age stays (`synced 2d ago`), then the sample's words (`sample`, `59 of 62 sample`), then
/// the page (`1/16`), then the count of cities; then `sample` alone for `59 of 62 sample`,
/// `2d ago` for `synced 2d ago`, and no page.
enum Footer {
  static let steps: [@Sendable (String) -> String] = [
    withoutSyncDate,
    { $0.replacing("sample data, run `wx sync`", with: "sample data") },
    { $0.replacing(" cities sample data", with: " sample").replacing("sample data", with: "sample") },
    shortPage,
    withoutCount,
    // Still too wide (20 to 30 columns after a partial sync): the mark alone, the age alone,
    // then no page.
    { s in
      s.split(separator: " · ", omittingEmptySubsequences: false).map { $0.hasSuffix(" sample") ? "sample" : $0 }.joined(
        separator: " · ")
    },
    { $0.replacing("synced ", with: "") },
    withoutPage,
  ]

  static func fit(_ line: String, width: Int?) -> String {
    guard let width, DisplayWidth.of(line) > width else { return line }
    var t = line
    for step in steps where DisplayWidth.of(t) > width { t = step(t) }
    return t
  }

  /// `synced 2026-11-23 12:10 (2d ago)` → `synced 2d ago`; anything else as it is.
  static func withoutSyncDate(_ s: String) -> String {
    guard let r = s.firstRange(of: "synced "), let open = s[r.upperBound...].firstIndex(of: "("),
      s.distance(from: r.upperBound, to: open) == "2026-11-23 12:10 ".count,
      let close = s[open...].firstIndex(of: ")")
    else { return s }
    return String(s[..<r.upperBound]) + s[s.index(after: open)..<close] + s[s.index(after: close)...]
  }

  /// `page 1 of 16 · …` → `1/16 · …`; nothing else (`61 of 62 sample` stays).
  static func shortPage(_ s: String) -> String {
    s.split(separator: " · ", omittingEmptySubsequences: false).map { part in
      part.hasPrefix("page ") ? String(part.dropFirst(5)).replacing(" of ", with: "/") : String(part)
    }.joined(separator: " · ")
  }

  /// `1/4 · 3h ago · sample` → `3h ago · sample` (a first part `N/M`).
  static func withoutPage(_ s: String) -> String {
    let parts = s.split(separator: " · ", omittingEmptySubsequences: false)
    guard parts.count > 1, parts[0].contains("/"), parts[0].allSatisfy({ $0.isNumber || $0 == "/" }) else { return s }
    return parts.dropFirst().joined(separator: " · ")
  }

  /// `1/16 · 62 cities · synced …` → `1/16 · synced …`, `2 favourites · synced …` →
  /// `synced …` (the first ` · N word` part, never the only one).
  static func withoutCount(_ s: String) -> String {
    let parts = s.split(separator: " · ", omittingEmptySubsequences: false)
    guard parts.count > 1,
      let k = parts.firstIndex(where: { $0.first?.isNumber == true && $0.contains(" ") && !$0.contains("sample") })
    else {
      return s
    }
    return parts.enumerated().filter { $0.offset != k }.map(\.element).joined(separator: " · ")
  }
}

extension Terminal {
  /// A footer line, dimmed, fitted to the width (``Footer``).
  func footer(_ line: String) -> String { dim(Footer.fit(line, width: width)) }
}
