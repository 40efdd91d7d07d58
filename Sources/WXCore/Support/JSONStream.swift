/// An incremental reader of one JSON document that is an array: bytes go in chunk by chunk
/// (``feed(_:)``, then ``finish()``) and each element comes out as soon as its last byte has
/// arrived, parsed by the same strict parser as ``JSON/parse(_:)``. Only the element being
/// read is held, never the document: memory is O(element), whatever the document's size.
///
/// Errors are the ones ``JSON/parse(_:)`` reports for the whole document, at the same byte
/// offsets: the parser reads an element with what follows it, and the array's own
/// punctuation is checked here with the parser's words. An element that has not all arrived
/// is not parsed again with every chunk: a cheap scanner finds where it ends (brackets,
/// strings and escapes) before the parser reads it. A document that is not an array is read the same way as one
/// element and reported through ``other``.
package struct JSONStream {
  /// Largest element held while it arrives: a record larger than this is refused.
  package static let maxElement = 16 << 20

  private enum State { case start, first, item, after, trailing }
  private var state = State.start
  /// Unconsumed bytes; `pending[head]` is at document offset `base`.
  private var pending: [UInt8] = []
  private var head = 0
  private var base = 0
  /// Scanner state for the element starting at `head`: bytes scanned, nesting, string.
  private var scanned = 0
  private var depth = 0
  private var inString = false
  private var escaped = false
  /// The scanner found the element's end; the parser asked for more bytes after it.
  private var ready = false
  /// True while reading a document that is not an array as one value.
  private var topLevel = false
  package private(set) var total = 0
  /// The type of a complete document that is not an array ("an object").
  package private(set) var other: String?

  package init() {}

  /// Reads `bytes`, calling `element` for each complete element (with its document offset).
  package mutating func feed(
    _ bytes: UnsafeRawBufferPointer, _ element: (JSON, Int) throws(JSONError) -> Void
  ) throws(JSONError) {
    try feed(bytes, direct: { _ in nil }, element)
  }

  /// ``feed(_:_:)`` with a reader that may take an element that has arrived whole straight
  /// from its bytes (an object: `direct` gets the bytes from its `{` on, and returns the
  /// offset just past it, or nil to have it parsed and handed to `element`).
  package mutating func feed(
    _ bytes: UnsafeRawBufferPointer, direct: (UnsafeBufferPointer<UInt8>) -> Int?,
    _ element: (JSON, Int) throws(JSONError) -> Void
  ) throws(JSONError) {
    var bytes = bytes
    if head == pending.count && state != .item {
      // Between values with nothing held: white space is skipped where it arrives (a body of
      // padding is never copied; eight spaces at a time).
      var k = 0
      while k + 8 <= bytes.count && bytes.loadUnaligned(fromByteOffset: k, as: UInt64.self) == 0x2020_2020_2020_2020 {
        k += 8
      }
      while k < bytes.count && Self.isSpace(bytes[k]) { k += 1 }
      pending.removeAll(keepingCapacity: true)
      head = 0
      base += k
      total += k
      bytes = UnsafeRawBufferPointer(rebasing: bytes[k...])
    }
    pending.append(contentsOf: bytes)
    total += bytes.count
    try run(finished: false, direct: direct, element)
    if head > 0 && head * 2 >= pending.count {
      pending.removeFirst(head)
      head = 0
    }
  }

  /// The document ended: reports what is missing, if anything.
  package mutating func finish(_ element: (JSON, Int) throws(JSONError) -> Void) throws(JSONError) {
    try run(finished: true, direct: { _ in nil }, element)
    switch state {
    case .trailing: return
    default: throw JSONError(offset: total, reason: "unexpected end of data")
    }
  }

  private func fail(_ reason: String, at k: Int) -> JSONError { JSONError(offset: base + (k - head), reason: reason) }

  private mutating func consume(to k: Int) {
    guard k != head else { return }
    base += k - head
    head = k
    scanned = 0
    depth = 0
    inString = false
    escaped = false
    ready = false
  }

  private mutating func skipSpace() {
    var k = head
    while k < pending.count, Self.isSpace(pending[k]) { k += 1 }
    consume(to: k)
  }

  private mutating func run(
    finished: Bool, direct: (UnsafeBufferPointer<UInt8>) -> Int?, _ element: (JSON, Int) throws(JSONError) -> Void
  ) throws(JSONError) {
    while true {
      skipSpace()
      guard head < pending.count else { return }
      let b = pending[head]
      switch state {
      case .start:
        // A byte order mark opening the document is skipped (``JSON/byteOrderMark``), also
        // when it arrives split across chunks.
        if base == 0 && b == JSON.byteOrderMark[0] {
          let held = pending[head...].prefix(3)
          if held.count < 3 && !finished && held.elementsEqual(JSON.byteOrderMark.prefix(held.count)) { return }
          if held.elementsEqual(JSON.byteOrderMark) {
            consume(to: head + 3)
            continue
          }
        }
        if b == UInt8(ascii: "[") {
          consume(to: head + 1)
          state = .first
        } else {
          topLevel = true
          state = .item
        }
      case .first:
        if b == UInt8(ascii: "]") {
          consume(to: head + 1)
          state = .trailing
        } else {
          state = .item
        }
      case .item:
        guard try readElement(finished: finished, direct: direct, element) else { return }
        state = topLevel ? .trailing : .after
      case .after:
        if b == UInt8(ascii: ",") {
          consume(to: head + 1)
          state = .item
        } else if b == UInt8(ascii: "]") {
          consume(to: head + 1)
          state = .trailing
        } else {
          throw fail("expected ',' or ']' in an array", at: head)
        }
      case .trailing:
        throw fail("unexpected data after the JSON value", at: head)
      }
    }
  }

  /// Scans for the end of the element at `head`; when it is there, parses and delivers it.
  /// Returns false when more bytes are needed.
  private mutating func readElement(
    finished: Bool, direct: (UnsafeBufferPointer<UInt8>) -> Int?, _ element: (JSON, Int) throws(JSONError) -> Void
  ) throws(JSONError) -> Bool {
    if scanned == 0 && !ready && !topLevel && pending[head] == UInt8(ascii: "{"),
      let end = pending.withUnsafeBufferPointer({ direct(UnsafeBufferPointer(rebasing: $0[head...])) })
    {
      consume(to: head + end)
      return true
    }
    // Most elements arrive whole in the chunk that holds their start: the parser reads them
    // at once, and the scanner runs only over one still arriving. Only an element that ends
    // with its own closing byte (a number or literal needs the byte after it), and only a
    // success counts: an error may be the cut (`"\ud83d\ude` is an unpaired surrogate until
    // the rest arrives), so the element is read again, whole, to report it.
    if scanned == 0 && !ready && !finished,
      pending[head] == UInt8(ascii: "{") || pending[head] == UInt8(ascii: "[") || pending[head] == UInt8(ascii: "\""),
      let (value, end) = pending.withUnsafeBufferPointer({ buf -> (JSON, Int)? in
        try? JSON.parsePrefix(UnsafeBufferPointer(rebasing: buf[head...]), depth: topLevel ? 0 : 1)
      })
    {
      let at = base
      consume(to: head + end)
      if topLevel { other = value.typeName } else { try element(value, at) }
      return true
    }
    var k = head + scanned
    var complete = finished || ready
    scan: while !complete && k < pending.count {
      let c = pending[k]
      k += 1
      if inString {
        if escaped {
          escaped = false
        } else if c == UInt8(ascii: "\\") {
          escaped = true
        } else if c == UInt8(ascii: "\"") {
          inString = false
          if depth == 0 { complete = true; break scan }
        }
        continue
      }
      switch c {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if depth <= 1 { complete = true; if depth == 0 { k -= 1 }; break scan }
        depth -= 1
      case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
        if depth == 0 { complete = true; k -= 1; break scan }
      default: break
      }
    }
    scanned = k - head
    ready = complete
    if !complete {
      if scanned > Self.maxElement {
        _ = try parse(finished: finished) { _, _ throws(JSONError) in }  // a syntax error in it comes first
        throw fail("a JSON value larger than \(Self.maxElement >> 20) MiB", at: head)
      }
      return false
    }
    return try parse(finished: finished, element)
  }

  /// Parses the element at `head` with every byte that has arrived after it (the parser looks
  /// one byte past a number, four past a literal's start). An error at the end of what has
  /// arrived means: wait for more.
  private mutating func parse(
    finished: Bool, _ element: (JSON, Int) throws(JSONError) -> Void
  ) throws(JSONError) -> Bool {
    let available = pending.count - head
    let result = pending.withUnsafeBufferPointer { (buf) -> Result<(JSON, Int), JSONError> in
      do throws(JSONError) {
        return .success(try JSON.parsePrefix(UnsafeBufferPointer(rebasing: buf[head...]), depth: topLevel ? 0 : 1))
      } catch {
        return .failure(error)
      }
    }
    switch result {
    case .success(let (value, end)):
      let at = base
      consume(to: head + end)
      // Not an array (it did not start with '['): its type, for the caller's message.
      if topLevel { other = value.typeName } else { try element(value, at) }
      return true
    case .failure(let error):
      // The parser ran out of bytes (a literal reports it at its start): wait for more.
      if !finished && (error.offset >= available || error.reason == "unexpected end of data") { return false }
      throw JSONError(offset: base + error.offset, reason: error.reason)
    }
  }

  private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
}
