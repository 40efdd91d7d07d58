import Foundation
import Testing

@testable import WXCore

@Suite struct SalvageTests {
  @Test func crcExtendMatchesTheWholeChecksum() {
    let bytes = Array("the quick brown fox jumps over the lazy dog, twice over".utf8)
    var crc: UInt32 = 0
    for (i, b) in bytes.enumerated() {
      crc = CRC32.extend(crc, b)
      #expect(crc == CRC32.checksum(bytes[...i]))
    }
  }

  static func favourite(_ name: String, _ sequence: UInt64) -> Favourite {
    Favourite(name: name, country: "Norway", id: 1, added: 1_700_000_000, sequence: sequence)
  }

  @Test func findsEveryIntactRecordAndCountsTheDamagedOnes() {
    let favs = (1...6).map { Self.favourite("City \($0)", UInt64($0)) }
    var file = [UInt8](repeating: 0x55, count: 300)  // a "damaged" GDBM header and index
    var damagedAt = 0
    for (k, f) in favs.enumerated() {
      file += f.identity.key  // GDBM keeps the key just before its value
      if k == 3 { damagedAt = file.count + Envelope.headerSize + 2 }
      file += Envelope.seal(.favourite, f.encoded())
      file += [0xB7, 1]  // noise that looks like the start of a header
    }
    file[damagedAt] ^= 0x20
    let result = Salvage.scan(file, kind: .favourite, key: FavouritesStore.key(salvaging:))
    #expect(result.damaged == 1)
    #expect(Set(result.records.keys) == Set(favs.enumerated().filter { $0.offset != 3 }.map { $0.element.identity.key }))
    for f in favs where f.sequence != 4 { #expect(result.records[f.identity.key] == f.encoded()) }
  }

  @Test func aStoreOfAnotherKindYieldsNothing() {
    let file = Envelope.seal(.favourite, Self.favourite("Oslo", 1).encoded())
    #expect(Salvage.scan(file, kind: .preference, key: PreferencesStore.key(salvaging:)) == Salvage.Result())
  }

  @Test func readersRefuseALinkAFIFOAndAnotherUsersFile() throws {
    let s = Scratch()
    let db = try GDBMDatabase(path: s.file("real.gdbm"), mode: .create)
    try db.store([1], [2])
    try db.close()
    #expect(symlink(s.file("real.gdbm"), s.file("link.gdbm")) == 0)
    #expect(mkfifo(s.file("fifo.gdbm"), 0o600) == 0)
    for name in ["link.gdbm", "fifo.gdbm"] {
      #expect(throws: StoreError.self) { try GDBMDatabase(path: s.file(name), mode: .reader) }
      do {
        _ = try GDBMDatabase(path: s.file(name), mode: .reader)
      } catch {
        guard case .unusable(let path, _, _) = error else { Issue.record("\(error)"); continue }
        #expect(path == s.file(name))
      }
    }
  }

  @Test func aTempFileIsNeverOpenedThroughALink() throws {
    let s = Scratch()
    s.write("victim", Array("keep".utf8))
    #expect(symlink(s.file("victim"), s.file(".x.tmp.1")) == 0)
    #expect(throws: StoreError.self) { try GDBMDatabase(path: s.file(".x.tmp.1"), mode: .create) }
    #expect(FileManager.default.contents(atPath: s.file("victim")) == Data("keep".utf8))
  }
}
