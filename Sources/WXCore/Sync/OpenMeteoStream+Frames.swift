/// The containers of ``OpenMeteoStream``: what to keep of each, where it is for messages,
/// and each value's way to its parent or, for a location, to the decoder.
extension OpenMeteoStream {
  static func isObject(_ s: Shape) -> Bool {
    if case .object = s { return true }
    return false
  }

  /// What to keep of a value starting here, or nil to skip it. Throws when a kept list is full.
  func childShape() throws -> Shape? {
    guard let top = frames.last else { return location }  // the document: a location object
    if frames.count == 1 && rootIsArray { return top.count < expected ? location : nil }
    guard let shape = top.shape else { return nil }
    switch shape {
    case .scalar: return nil
    case .list:
      if top.items.count >= Self.maxValues {
        throw PayloadError("\(path(of: top)) has more than \(Self.maxValues) values")
      }
      return .scalar
    case .object(let fields):
      guard let key = top.key, !top.members.contains(where: { $0.key == key }) else { return nil }
      return fields.first { $0.0 == key }?.1
    }
  }

  func path(of frame: Frame?) -> String {
    guard let frame else { return "the answer" }
    return frame.isObject && frame.key != nil ? "\(frame.path) \(frame.key!)" : frame.path
  }

  mutating func open(object: Bool) throws {
    guard frames.count < Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth) levels") }
    if frames.isEmpty && !object {
      rootIsArray = true
      rootCount = 0
      frames.append(Frame(isObject: false, shape: nil, path: "the answer"))
      expect = .valueOrEnd
      return
    }
    if frames.isEmpty && expected != 1 {
      throw PayloadError("expected an array of \(expected) locations, found an object")
    }
    let parent = frames.last
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
    let name = parent == nil || (frames.count == 1 && rootIsArray) ? "location \(frames.first?.count ?? 1)" : path(of: parent)
    frames.append(Frame(isObject: object, shape: kept, path: name))
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
    guard let top = frames.last else {
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
    if top.isObject {
      frames[frames.count - 1].members.append(JSON.Member(key: top.key ?? "", value: json))
    } else {
      frames[frames.count - 1].items.append(json)
    }
  }

  static func show(_ b: UInt8) -> String { JSONError.show(b) }
}
