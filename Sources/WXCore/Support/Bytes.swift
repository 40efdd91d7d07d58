import CCRC32

/// Little binary codec for values stored in GDBM: compact, fast to decode and free of
/// Foundation, because every read command decodes records on its start-up path.
///
/// Integers are little-endian or LEB128 varints, doubles are IEEE-754 bit patterns,
/// strings are a varint length followed by UTF-8.
package struct ByteWriter {
  package private(set) var bytes: [UInt8] = []

  package init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

  package mutating func u8(_ v: UInt8) { bytes.append(v) }

  package mutating func u32(_ v: UInt32) {
    bytes.append(UInt8(truncatingIfNeeded: v))
    bytes.append(UInt8(truncatingIfNeeded: v >> 8))
    bytes.append(UInt8(truncatingIfNeeded: v >> 16))
    bytes.append(UInt8(truncatingIfNeeded: v >> 24))
  }

  package mutating func varint(_ v: UInt64) {
    var v = v
    while v >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  package mutating func int(_ v: Int) { varint(UInt64(bitPattern: Int64((v << 1) ^ (v >> 63)))) }

  package mutating func double(_ v: Double) {
    let b = v.bitPattern
    for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: b >> UInt64(shift))) }
  }

  package mutating func bytes(_ b: some Collection<UInt8>) {
    varint(UInt64(b.count))
    bytes.append(contentsOf: b)
  }

  /// Empties it for the next value, keeping its capacity.
  package mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  /// Appends `b` as it is, without a length.
  package mutating func raw(_ b: some Collection<UInt8>) { bytes.append(contentsOf: b) }

  package mutating func string(_ s: String) {
    var s = s
    s.withUTF8 { u in
      varint(UInt64(u.count))
      bytes.append(contentsOf: u)
    }
  }

  package mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }

  package mutating func optionalDouble(_ v: Double?) {
    if let v { u8(1); double(v) } else { u8(0) }
  }
}

/// Thrown by ``ByteReader`` when a value is shorter than its contents claim or malformed.
package struct MalformedValue: Error, Equatable {
  package init() {}
}

/// Reads what ``ByteWriter`` wrote; every read is bounds-checked and throws ``MalformedValue``.
package struct ByteReader {
  package let buffer: [UInt8]
  package private(set) var offset: Int

  package init(_ bytes: [UInt8], offset: Int = 0) {
    self.buffer = bytes
    self.offset = offset
  }

  package var isAtEnd: Bool { offset == buffer.count }

  package mutating func u8() throws(MalformedValue) -> UInt8 {
    guard offset < buffer.count else { throw MalformedValue() }
    defer { offset += 1 }
    return buffer[offset]
  }

  package mutating func u32() throws(MalformedValue) -> UInt32 {
    guard offset + 4 <= buffer.count else { throw MalformedValue() }
    defer { offset += 4 }
    return UInt32(buffer[offset]) | UInt32(buffer[offset + 1]) << 8 | UInt32(buffer[offset + 2]) << 16
      | UInt32(buffer[offset + 3]) << 24
  }

  @inline(__always)
  package mutating func varint() throws(MalformedValue) -> UInt64 {
    // One byte, the common case (counts, deltas, lengths below 128), without the loop.
    guard offset < buffer.count else { throw MalformedValue() }
    let first = buffer[offset]
    if first < 0x80 {
      offset += 1
      return UInt64(first)
    }
    return try longVarint()
  }

  @inline(never)
  private mutating func longVarint() throws(MalformedValue) -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    var i = offset
    // What it read is read when it throws too (`Preferences` salvages up to there).
    defer { offset = i }
    while i < buffer.count {
      let b = buffer[i]
      i += 1
      guard shift < 64 else { throw MalformedValue() }
      result |= UInt64(b & 0x7F) << shift
      if b < 0x80 { return result }
      shift += 7
    }
    throw MalformedValue()
  }

  package mutating func count(limit: Int = 1 << 28) throws(MalformedValue) -> Int {
    let v = try varint()
    guard v <= UInt64(limit) else { throw MalformedValue() }
    return Int(v)
  }

  package mutating func int() throws(MalformedValue) -> Int {
    let z = try varint()
    return Int(Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))))
  }

  package mutating func double() throws(MalformedValue) -> Double {
    guard offset + 8 <= buffer.count else { throw MalformedValue() }
    var b: UInt64 = 0
    for i in 0..<8 { b |= UInt64(buffer[offset + i]) << UInt64(8 * i) }
    offset += 8
    return Double(bitPattern: b)
  }

  package mutating func bytes() throws(MalformedValue) -> ArraySlice<UInt8> {
    let n = try count()
    guard offset + n <= buffer.count else { throw MalformedValue() }
    defer { offset += n }
    return buffer[offset..<offset + n]
  }

  package mutating func string() throws(MalformedValue) -> String {
    guard let s = Self.utf8(try bytes()) else { throw MalformedValue() }
    return s
  }

  /// `bytes` as a String if they are valid UTF-8. (`String(validating:as:)` would do, but it
  /// calls unspecialised generic code whose first use costs a process ~100k instructions of
  /// run-time type lookups: on every read command's path.)
  package static func utf8(_ bytes: ArraySlice<UInt8>) -> String? {
    bytes.withUnsafeBufferPointer { utf8($0) }
  }

  /// ``utf8(_:)`` of bytes in place (the JSON parser's strings too).
  package static func utf8(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
    var high: UInt8 = 0
    for b in raw { high |= b }
    let s = String(decoding: raw, as: UTF8.self)
    // ASCII is UTF-8 by construction. Decoding replaces what is not UTF-8 with U+FFFD: valid
    // input comes back unchanged.
    if high < 0x80 || s.utf8.elementsEqual(raw) { return s }
    return nil
  }

  package mutating func bool() throws(MalformedValue) -> Bool {
    switch try u8() {
    case 0: return false
    case 1: return true
    default: throw MalformedValue()
    }
  }

  package mutating func optionalDouble() throws(MalformedValue) -> Double? {
    try bool() ? try double() : nil
  }
}

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as used by zlib and gzip.
///
/// Every value read from a store is checked, so this is on every command's read path:
/// it works eight bytes at a time ("slicing-by-8", eight 256-entry tables) over the
/// contiguous bytes, about five times the speed of the byte-at-a-time loop; from 64 bytes
/// on, where the processor can, by carry-less multiplication (`Sources/CCRC32`), seven times
/// that again.
package enum CRC32 {
  /// `tables[k * 256 + i]`: the CRC of byte `i` followed by `k` zero bytes.
  private static let tables: [UInt32] = {
    var t = [UInt32](repeating: 0, count: 8 * 256)
    for i in 0..<256 {
      var c = UInt32(i)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
      t[i] = c
    }
    for k in 1..<8 {
      for i in 0..<256 {
        let prev = t[(k - 1) * 256 + i]
        t[k * 256 + i] = (prev >> 8) ^ t[Int(prev & 0xFF)]
      }
    }
    return t
  }()

  package static func checksum<C: Collection>(_ data: C) -> UInt32 where C.Element == UInt8 {
    if let crc = data.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) {
      return crc
    }
    return Array(data).withUnsafeBytes { checksum($0) }
  }

  package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    // 64 bytes or more by carry-less multiplication where the processor has it (a 12 KiB
    // record block: about a seventh of the instructions), the last 0 to 15 by the tables.
    if folding, bytes.count >= 64, let base = bytes.baseAddress {
      let n = bytes.count & ~15
      let c = wx_crc32_fold(0xFFFF_FFFF, base.assumingMemoryBound(to: UInt8.self), n)
      return tableChecksum(UnsafeRawBufferPointer(rebasing: bytes[n...]), from: c)
    }
    return tableChecksum(bytes)
  }

  /// Whether ``checksum(_:)-(UnsafeRawBufferPointer)`` folds (PCLMULQDQ and SSE4.1).
  package static let folding = wx_crc32_folding_available() != 0

  /// The checksum by the tables alone, continuing from the CRC register `register` (the
  /// folding's, or 0xFFFFFFFF at a message's start): what a processor without the folding
  /// uses, and the reference the folding is tested against.
  package static func tableChecksum(_ bytes: UnsafeRawBufferPointer, from register: UInt32 = 0xFFFF_FFFF) -> UInt32 {
    tables.withUnsafeBufferPointer { t in
      var c = register
      var i = 0
      let n = bytes.count
      while i + 8 <= n {
        let one = c ^ UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self))
        let two = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self))
        c =
          t[7 * 256 + Int(one & 0xFF)] ^ t[6 * 256 + Int((one >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((one >> 16) & 0xFF)] ^ t[4 * 256 + Int(one >> 24)]
          ^ t[3 * 256 + Int(two & 0xFF)] ^ t[2 * 256 + Int((two >> 8) & 0xFF)]
          ^ t[1 * 256 + Int((two >> 16) & 0xFF)] ^ t[Int(two >> 24)]
        i += 8
      }
      while i < n {
        c = t[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8)
        i += 1
      }
      return c ^ 0xFFFF_FFFF
    }
  }

  /// The checksum of the bytes `crc` covered followed by `byte`: `extend(checksum(a), b)
  /// == checksum(a + [b])`, `checksum([])` being 0. For scanning without knowing a length.
  package static func extend(_ crc: UInt32, _ byte: UInt8) -> UInt32 {
    let c = crc ^ 0xFFFF_FFFF
    return (tables[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8)) ^ 0xFFFF_FFFF
  }
}
