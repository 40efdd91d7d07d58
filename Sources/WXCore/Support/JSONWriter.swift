import WXFeed

/// Builds compact JSON text.
package struct JSONWriter {
  package private(set) var text = ""

  package init() { text.reserveCapacity(256) }

  package static func quote(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        // Controls, and the invisible characters that reorder a terminal line (C1, bidi,
        // line separators: ``UnsafeScalars``), as \u escapes: JSON read by people in a
        // terminal stays inert.
        if UnsafeScalars.contains(u) {
          let h = String(u.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    return out + "\""
  }

  /// Shortest text that reads back as `d`; whole numbers without ".0".
  package static func number(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return "\(d)"
  }
}

/// Writing: the same ``JSON`` value the parser reads is what views build and print, with
/// shorthands for the call sites (`.int(id)`, `.number(celsius)`, `.object([("k", v)])`).
extension JSON {
  package static func int(_ i: Int) -> JSON { .number(Double(i), integer: true) }
  package static func number(_ d: Double) -> JSON { .number(d, integer: false) }
  /// An object from (key, value) pairs, in this order.
  package static func object(_ pairs: [(String, JSON)]) -> JSON { .object(pairs.map { Member(key: $0.0, value: $0.1) }) }

  /// Compact JSON text.
  package var text: String {
    var s = ""
    write(into: &s)
    return s
  }

  private func write(into s: inout String) {
    switch self {
    case .null: s += "null"
    case .bool(let b): s += b ? "true" : "false"
    case .number(let d, let integer):
      s += integer && d.isFinite && abs(d) <= 9_007_199_254_740_992 ? String(Int64(d)) : JSONWriter.number(d)
    case .string(let t): s += JSONWriter.quote(t)
    case .array(let items):
      s += "["
      for (k, item) in items.enumerated() {
        if k > 0 { s += "," }
        item.write(into: &s)
      }
      s += "]"
    case .object(let members):
      s += "{"
      for (k, m) in members.enumerated() {
        if k > 0 { s += "," }
        s += JSONWriter.quote(m.key)
        s += ":"
        m.value.write(into: &s)
      }
      s += "}"
    }
  }
}
