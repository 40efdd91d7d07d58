/// A strict RFC 8259 JSON parser and a writer, without Foundation.
///
/// The parser reports problems with the byte offset at which it found them ("unexpected end
/// of data at byte 1184"), rejects what JSON does not allow (NaN, Infinity, trailing commas,
/// invalid UTF-8, control characters in strings) and bounds nesting depth.
package enum JSON: Equatable, Sendable {
  case null
  case bool(Bool)
  /// A number, and whether it was written without fraction or exponent.
  case number(Double, integer: Bool)
  case string(String)
  case array([JSON])
  /// Members in document order (objects are small; lookups are linear).
  case object([Member])

  package struct Member: Equatable, Sendable {
    package var key: String
    package var value: JSON
  }

  package subscript(key: String) -> JSON? {
    guard case .object(let members) = self else { return nil }
    for m in members where m.key == key { return m.value }
    return nil
  }

  package var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// A JSON syntax error at a byte offset.
package struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
  package var offset: Int
  package var reason: String
  package var description: String { "\(reason) at byte \(offset)" }
}
