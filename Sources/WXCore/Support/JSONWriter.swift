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
        // line separators), as \u escapes: JSON read by people in a terminal stays inert.
        let v = u.value
        if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x61C || v == 0x200E || v == 0x200F
          || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x2028 || v == 0x2029
        {
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

/// A value that can be written as JSON, built with literals at the call site.
package indirect enum JSONOut {
  case null
  case bool(Bool)
  case number(Double)
  case int(Int)
  case string(String)
  case array([JSONOut])
  case object([(String, JSONOut)])

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
    case .number(let d): s += JSONWriter.number(d)
    case .int(let i): s += String(i)
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
      for (k, (key, value)) in members.enumerated() {
        if k > 0 { s += "," }
        s += JSONWriter.quote(key)
        s += ":"
        value.write(into: &s)
      }
      s += "}"
    }
  }
}
