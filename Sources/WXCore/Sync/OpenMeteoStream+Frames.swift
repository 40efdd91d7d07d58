/// The containers of ``OpenMeteoStream``: what to keep of each, where it is for messages,
/// and each value's way to its parent or, for a location, to the decoder.
extension OpenMeteoStream {
  static func isObject(_ s: Shape) -> Bool {
    if case .object = s { return true }
    return false
  }

  /// What to keep of a value starting here, or nil to skip it. Throws when a kept list is full.
  /// (The top frame is read in place: a copy of it would retain its lists.)
  func childShape() throws -> Shape? {
    guard let top = frames.indices.last else { return location }  // the document: a location object
    if top == 0 && rootIsArray { return frames[0].count < expected ? location : nil }
    switch frames[top].shape {
    case nil, .scalar?: return nil
    case .list?:
      if frames[top].items.count >= Self.maxValues {
        throw PayloadError("\(path(of: top)) has more than \(Self.maxValues) values")
      }
      return .scalar
    case .object(let fields)?:
      guard let key = frames[top].key, !frames[top].members.contains(where: { $0.key == key }) else { return nil }
      return fields.first { $0.0 == key }?.1
    }
  }

  /// Where frame `index` is, for messages: `location 3 daily temperature_2m_max` (its
  /// location's label, then the member each object below it is reading); "the answer" above
  /// the locations. Built only for a message.
  func path(of index: Int?) -> String {
    guard let index else { return "the answer" }
    var parts: [String] = []
    for k in 0...index {
      if let label = frames[k].label { parts = [label] }
      if frames[k].isObject, let key = frames[k].key { parts.append(key) }
    }
    return parts.isEmpty ? "the answer" : parts.joined(separator: " ")
  }

  mutating func open(object: Bool) throws {
    guard frames.count < Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth) levels") }
    if frames.isEmpty && !object {
      rootIsArray = true
      rootCount = 0
      frames.append(Frame(isObject: false, shape: nil, label: "the answer"))
      expect = .valueOrEnd
      return
    }
    if frames.isEmpty && expected != 1 {
      throw PayloadError("expected an array of \(expected) locations, found an object")
    }
    let shape = try childShape()
    if frames.count == 1 && rootIsArray { frames[0].count += 1 }
    var kept = shape
    if let s = shape {
      switch s {
      case .scalar: kept = .scalar
      case .list: kept = object ? .scalar : .list
      case .object: kept = object ? s : .scalar
      }
    }
    let location = frames.isEmpty || (frames.count == 1 && rootIsArray)
    var frame = Frame(isObject: object, shape: kept, label: location ? "location \(frames.first?.count ?? 1)" : nil)
    if !object {
      switch kept {
      case nil, .scalar?: frame.numbers = .skip
      case .list?: frame.numbers = .keep
      case .object?: break
      }
    }
    frames.append(frame)
    expect = object ? .keyOrEnd : .valueOrEnd
  }

  mutating func close() throws {
    let frame = frames.removeLast()
    if frames.isEmpty && rootIsArray {
      rootCount = frame.count
      expect = .done
      return
    }
    guard let shape = frame.shape else { return try value(nil, counted: false) }
    let json: JSON
    switch shape {
    case .scalar: json = frame.isObject ? JSON.object([JSON.Member]()) : JSON.array([])
    case .list: json = .array(frame.items)
    case .object: json = .object(frame.members)
    }
    try value(json, counted: false)
  }

  /// A value has ended: kept (`json`) where its parent keeps it, delivered when it is a
  /// location, skipped when nil.
  mutating func value(_ json: JSON?, counted: Bool = true) throws {
    expect = frames.isEmpty ? .done : .commaOrEnd
    // Only the top frame's index is held, never a copy of it: a copy would share its lists,
    // and every append below would copy the whole list first (measured: half of decoding's instructions).
    guard !frames.isEmpty else {
      if let json {
        guard case .object = json else {
          throw PayloadError(
            "expected \(expected == 1 ? "an object" : "an array of \(expected) locations"), found \(json.typeName)")
        }
        try deliver(0, json)
      }
      return
    }
    if frames.count == 1 && rootIsArray {
      if counted { frames[0].count += 1 }
      if let json, frames[0].count <= expected { try deliver(frames[0].count - 1, json) }
      return
    }
    guard let json else { return }
    let top = frames.count - 1
    if frames[top].isObject {
      frames[top].members.append(JSON.Member(key: frames[top].key ?? "", value: json))
    } else {
      frames[top].items.append(json)
    }
  }

  static func show(_ b: UInt8) -> String { JSONError.show(b) }
}
