import Foundation
import Testing

@testable import WXCore

@Suite struct GDBMStoreTests {
  @Test func storesAndFetchesAndReportsAbsence() throws {
    let s = Scratch()
    let db = try GDBMDatabase(path: s.file("a.gdbm"), mode: .create)
    try db.store(Array("k".utf8), Array("v1".utf8))
    try db.store(Array("k".utf8), Array("v2".utf8))
    try db.store([0, 1, 2], Array("ünïcode".utf8))
    #expect(try db.fetch(Array("k".utf8)) == Array("v2".utf8))
    #expect(try db.fetch([0, 1, 2]) == Array("ünïcode".utf8))
    #expect(try db.fetch(Array("nope".utf8)) == nil)
    #expect(try Set(db.keys()) == [Array("k".utf8), [0, 1, 2]])
    try db.close()
    try db.close()  // idempotent
    let reader = try GDBMDatabase(path: s.file("a.gdbm"), mode: .reader)
    #expect(try reader.keys().count == 2)
  }

  @Test func missingFileIsReportedAsMissing() {
    let s = Scratch()
    #expect(throws: StoreError.missing(path: s.file("none.gdbm"))) {
      try GDBMDatabase(path: s.file("none.gdbm"), mode: .reader)
    }
  }

  @Test func foreignFilesAreRejectedBeforeGDBMSeesThem() throws {
    let s = Scratch()
    s.write("empty.gdbm", [])
    s.write("text.gdbm", Array(String(repeating: "{\"not\": \"gdbm\"}\n", count: 100).utf8))
    s.write("short.gdbm", Array("tiny".utf8))
    s.write("swapped.gdbm", [0x13, 0x57, 0x9A, 0xCF] + [UInt8](repeating: 0, count: 100))
    try FileManager.default.createDirectory(atPath: s.file("dir.gdbm"), withIntermediateDirectories: true)
    for (name, reason) in [
      ("empty.gdbm", "empty"), ("text.gdbm", "no GDBM magic"), ("short.gdbm", "too short"), ("swapped.gdbm", "byte-swapped"),
      ("dir.gdbm", "folder"),
    ] {
      #expect {
        _ = try GDBMDatabase(path: s.file(name), mode: .reader)
      } throws: { error in
        guard case .notAStore(let path, let why) = error as? StoreError else { return false }
        return path == s.file(name) && why.contains(reason)
      }
    }
  }

  /// A GDBM file cut short or with a damaged header is described in wx's words: none of
  /// GDBM's own messages ("malformed database file header", "unexpected end of file") shows.
  @Test func truncatedAndDamagedStoresAreDescribedInOurWords() throws {
    let s = Scratch()
    let db = try GDBMDatabase(path: s.file("good.gdbm"), mode: .create)
    for i in 0..<2000 { try db.store(Array("key \(i)".utf8), [UInt8](repeating: UInt8(i & 0xFF), count: 100)) }
    try db.close()
    let good = Array(try Data(contentsOf: URL(fileURLWithPath: s.file("good.gdbm"))))
    var cases: [(String, [UInt8])] = []
    for cut in [41, 100, 4096, 5000, good.count / 2] { cases.append(("cut\(cut).gdbm", Array(good[..<cut]))) }
    var header = good
    for i in 4..<40 { header[i] = 0xFF }
    cases.append(("header.gdbm", header))
    let gdbmWords = ["malformed", "unexpected end of file", "bad file offset", "bad header", "bad magic", "file header"]
    var described = 0
    for (name, bytes) in cases {
      s.write(name, bytes)
      do {
        let opened = try GDBMDatabase(path: s.file(name), mode: .reader)
        for k in try opened.keys() { _ = try opened.fetch(k) }
      } catch {
        let text = "\(error)".replacingOccurrences(of: s.file(name), with: "FILE").lowercased()
        #expect(!gdbmWords.contains { text.contains($0) }, "\(name): \(text)")
        described += 1
      }
    }
    #expect(described >= 4)
  }

  @Test func envelopeDetectsAFlippedByteAndTheWrongKind() throws {
    var sealed = Envelope.seal(.city, Array("payload".utf8))
    #expect(throws: Never.self) { _ = try Envelope.open(.city, sealed) }
    #expect(throws: MalformedValue.self) { _ = try Envelope.open(.meta, sealed) }
    sealed[sealed.count - 2] ^= 0x01
    #expect(throws: MalformedValue.self) { _ = try Envelope.open(.city, sealed) }
  }

  /// The store format depends on these exact values: files written by earlier versions must
  /// still verify. A bit-at-a-time CRC-32 is the reference for the eight-at-a-time one.
  @Test func crc32MatchesTheStandardAndABitwiseReference() {
    #expect(CRC32.checksum([UInt8]()) == 0)
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    func bitwise(_ bytes: some Sequence<UInt8>) -> UInt32 {
      var c: UInt32 = 0xFFFF_FFFF
      for b in bytes {
        c ^= UInt32(b)
        for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
      }
      return ~c
    }
    var rng = SystemRandomNumberGenerator()
    let data = (0..<3000).map { _ in UInt8.random(in: 0...255, using: &rng) }
    // Past 64 bytes the folding (PCLMULQDQ) path, and its 16-byte steps and tail.
    for length in Array(0...40) + Array(60...200) + [255, 256, 257, 1000, 2999, 3000 - 7] {
      for start in [0, 1, 3, 7] where start + length <= data.count {
        let slice = data[start..<start + length]  // a slice that does not start at 0
        #expect(CRC32.checksum(slice) == bitwise(slice), "length \(length) at \(start)")
        #expect(CRC32.checksum(Array(slice)) == bitwise(slice))
        let tables = Array(slice).withUnsafeBytes { CRC32.tableChecksum($0) }
        #expect(tables == bitwise(slice), "length \(length) at \(start), by the tables")
      }
    }
  }

  /// This machine's processor folds (x86-64 with PCLMULQDQ): the test above then checks the
  /// folding and not only the tables. Elsewhere it says it did not.
  @Test func crc32FoldsWhereTheProcessorCan() throws {
    #if arch(x86_64)
      let flags = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
      let has = flags.contains(" pclmulqdq") && flags.contains(" sse4_1")
      #expect(CRC32.folding == has)
      // A store-sized value, all 256 byte values at every offset, and all ones.
      let block = (0..<12_288).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
      #expect(CRC32.checksum(block) == block.withUnsafeBytes { CRC32.tableChecksum($0) })
      let ones = [UInt8](repeating: 0xFF, count: 4096)
      #expect(CRC32.checksum(ones) == ones.withUnsafeBytes { CRC32.tableChecksum($0) })
    #else
      #expect(!CRC32.folding)
    #endif
  }

  @Test func builderPublishesAtomicallyAndAbandonsCleanly() throws {
    let s = Scratch()
    let target = s.file("cat.gdbm")
    let first = try StoreBuilder(finalPath: target)
    try first.database.store(Array("v".utf8), Array("1".utf8))
    try first.publish()
    let second = try StoreBuilder(finalPath: target)
    try second.database.store(Array("v".utf8), Array("2".utf8))
    second.abandon()
    let db = try GDBMDatabase(path: target, mode: .reader)
    #expect(try db.fetch(Array("v".utf8)) == Array("1".utf8))
    #expect(FileSystem.list(s.path) == ["cat.gdbm"])  // no temp files left
    let mode = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test func staleTempFilesAreRemovedByTheNextWriter() throws {
    let s = Scratch()
    s.write(".cat.gdbm.tmp.2147483647.99", [1, 2, 3])
    s.write(".prefs.gdbm.tmp.2147483647.98", [1, 2, 3])  // any store's: the lock holder removes them all
    let lock = try WriterLock(directory: s.path, deadline: 1)
    #expect(lock.removedTemps == 2)
    let b = try StoreBuilder(finalPath: s.file("cat.gdbm"))
    try b.database.store([1], [1])
    try b.publish()
    lock.release()
    #expect(Set(FileSystem.list(s.path)) == ["cat.gdbm", "wx.lock"])
  }

  @Test func writerLockIsExclusiveAndTimesOut() throws {
    let s = Scratch()
    let held = try WriterLock(directory: s.path, deadline: 1)
    #expect {
      _ = try WriterLock(directory: s.path, deadline: 0.2)
    } throws: { error in
      guard case .busy(_, let holder) = error as? StoreError else { return false }
      return holder == getpid()
    }
    held.release()
    _ = try WriterLock(directory: s.path, deadline: 0.2)
  }

  @Test func smallStoreRoundTripsAndRejectsDamage() throws {
    let s = Scratch()
    let store = SmallStore(path: s.file("prefs.gdbm"), kind: .preference)
    #expect(try store.read().isEmpty)
    try store.update(under: WriterLock.Policy(directory: s.path, deadline: 1)) {
      $0[Array("unit".utf8)] = Array("fahrenheit".utf8)
    }
    #expect(try store.read() == [Array("unit".utf8): Array("fahrenheit".utf8)])
    // A value of another kind (a foreign or damaged value) is detected, not returned.
    let db = try GDBMDatabase(path: s.file("other.gdbm"), mode: .create)
    try db.store(Array("unit".utf8), Envelope.seal(.favourite, Array("x".utf8)))
    try db.close()
    #expect(throws: StoreError.self) { try SmallStore(path: s.file("other.gdbm"), kind: .preference).read() }
  }
}
