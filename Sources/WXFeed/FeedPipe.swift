/// What the feed client `wx-aqi-watch` reports to `wx aqi watch` over a pipe.
///
/// The WebSocket client (SwiftNIO, and the system's OpenSSL for TLS) lives in its own executable so that `wx`
/// itself, and the start-up of every other command, carries none of it. `wx` spawns the
/// client, reads these records from its standard output, and does the rest (decoding
/// frames, recording, drawing).
///
/// Wire format: a header line `TAG INT… LENGTH\n` followed by LENGTH payload bytes.
/// `C attempt 0` connected · `T n` a text message of n bytes · `B size 0` a binary message ·
/// `L wasConnected retryMs failures n` connection lost, reason in the payload ·
/// `F n` the first connection failed (the client then exits 69), reason in the payload.
package enum FeedRecord: Equatable, Sendable {
  case connected(attempt: Int)
  case text([UInt8])
  case binary(Int)
  case lost(reason: String, wasConnected: Bool, retryMilliseconds: Int, failures: Int)
  case failed(String)

  package var encoded: [UInt8] {
    func record(_ tag: String, _ ints: [Int], _ payload: [UInt8]) -> [UInt8] {
      var head = tag
      for i in ints + [payload.count] { head += " \(i)" }
      return Array((head + "\n").utf8) + payload
    }
    switch self {
    case .connected(let attempt): return record("C", [attempt], [])
    case .text(let bytes): return record("T", [], bytes)
    case .binary(let size): return record("B", [size], [])
    case .lost(let reason, let wasConnected, let ms, let failures):
      return record("L", [wasConnected ? 1 : 0, ms, failures], Array(reason.utf8))
    case .failed(let reason): return record("F", [], Array(reason.utf8))
    }
  }
}

/// A malformed record from the feed client.
package struct FeedPipeError: Error, Equatable, Sendable, CustomStringConvertible {
  package var description: String { "the feed client sent a malformed record" }
}

/// Splits the feed client's output into records as bytes arrive.
package struct FeedRecordReader: Sendable {
  private var buffer: [UInt8] = []
  private var start = 0
  /// Largest message accepted (the client itself caps messages at 4 MiB).
  package static let maxPayload = 8 << 20

  package init() {}

  package mutating func append(_ bytes: some Sequence<UInt8>) {
    if start > 0 && start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next complete record, nil when more bytes are needed.
  package mutating func next() throws(FeedPipeError) -> FeedRecord? {
    guard let newline = buffer[start...].firstIndex(of: 0x0A) else {
      if buffer.count - start > 256 { throw FeedPipeError() }
      return nil
    }
    let fields = buffer[start..<newline].split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
    guard let tag = fields.first, fields.count >= 2 else { throw FeedPipeError() }
    var ints: [Int] = []
    for f in fields.dropFirst() {
      guard let v = Int(f), v >= 0 else { throw FeedPipeError() }
      ints.append(v)
    }
    let length = ints.removeLast()
    guard length <= Self.maxPayload else { throw FeedPipeError() }
    switch (tag, ints.count) {
    case ("C", 1), ("B", 1): guard length == 0 else { throw FeedPipeError() }
    case ("L", 3): guard ints[0] <= 1 else { throw FeedPipeError() }
    case ("T", 0), ("F", 0): break
    default: throw FeedPipeError()
    }
    let bodyStart = newline + 1
    guard buffer.count - bodyStart >= length else { return nil }
    let payload = Array(buffer[bodyStart..<bodyStart + length])
    start = bodyStart + length
    if start > 1 << 16 {
      buffer.removeFirst(start)
      start = 0
    }
    let text = String(decoding: payload, as: UTF8.self)
    switch tag {
    case "C": return .connected(attempt: ints[0])
    case "T": return .text(payload)
    case "B": return .binary(ints[0])
    case "L": return .lost(reason: text, wasConnected: ints[0] == 1, retryMilliseconds: ints[1], failures: ints[2])
    default: return .failed(text)
    }
  }
}
