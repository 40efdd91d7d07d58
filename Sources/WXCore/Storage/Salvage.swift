/// Finds wx's values in the raw bytes of a damaged store, whatever state GDBM's own
/// structures (header, directory, buckets) are in.
///
/// GDBM keeps each value whole in one data block, and every wx value starts with an envelope
/// (magic, schema, kind, CRC-32: see ``Envelope``). The scan looks for envelope headers of the
/// store's kind and, not knowing the length, extends the CRC one byte at a time until it
/// matches and the payload decodes as a record of that kind; `key` decodes it and says which
/// record it is (the same key the store files it under), so a record is recovered whether or
/// not GDBM can still find it. A header whose CRC never matches is a damaged record: it is
/// counted as lost. (A record whose header itself was overwritten cannot be seen, or counted.)
package enum Salvage {
  package struct Result: Equatable, Sendable {
    /// Intact records: key → payload.
    package var records: [[UInt8]: [UInt8]] = [:]
    /// Records whose header was found but whose payload did not check out.
    package var damaged = 0
  }

  /// The longest payload tried for one header: far above any small-store record.
  package static let maxPayload = 1 << 16

  package static func scan(_ bytes: [UInt8], kind: Envelope.Kind, key: ([UInt8]) -> [UInt8]?) -> Result {
    var result = Result()
    let h = Envelope.headerSize
    var i = 0
    while i + h < bytes.count {
      guard bytes[i] == Envelope.magic, bytes[i + 1] == Envelope.schema, bytes[i + 2] == kind.rawValue else {
        i += 1
        continue
      }
      let want = UInt32(bytes[i + 3]) | UInt32(bytes[i + 4]) << 8 | UInt32(bytes[i + 5]) << 16 | UInt32(bytes[i + 6]) << 24
      var crc: UInt32 = 0
      var end = i + h
      var found = false
      while end < min(bytes.count, i + h + maxPayload) {
        crc = CRC32.extend(crc, bytes[end])
        end += 1
        guard crc == want else { continue }
        let payload = Array(bytes[(i + h)..<end])
        guard let k = key(payload) else { continue }
        if result.records[k] == nil { result.records[k] = payload }
        found = true
        break
      }
      if found {
        i = end
      } else {
        result.damaged += 1
        i += 1
      }
    }
    return result
  }
}
