import Foundation
import Testing

@testable import WXCore

/// `wx doctor --repair` on a catalogue whose records are intact but whose derived parts are
/// damaged keeps every record (and the header's provenance) instead of falling back to the
/// bundled sample; with a record damaged, it does fall back.
@Suite struct CatalogueRepairTests {
  static func damage(_ path: String, _ key: [UInt8]) throws {
    let db = try GDBMDatabase(path: path, mode: .writer)
    try db.store(key, Array("not an envelope".utf8))
    try db.close()
  }

  /// The search index's arrays (n, w), the orders (o: warmest first, h: rain-free) and the id
  /// buckets (i) are all derived from the records: doctor sees each damaged and rebuilds.
  @Test(arguments: ["n", "w", "o", "h", "i"])
  func aDamagedDerivedBlockIsSeenAndRebuiltFromTheIntactRecords(_ tag: Character) throws {
    let s = Scratch()
    let cities = CityIndexTests.generated(500, seed: 3)
    _ = try CityIndexTests.build(cities, in: s).close()
    let path = s.file("catalogue.gdbm")
    try Self.damage(path, CatalogueKey.block(tag, 0))
    let doctor = Doctor(home: Home(directory: s.path, sampleCandidates: []))
    guard case .broken = doctor.checkCatalogue() else { Issue.record("the damage went unseen"); return }
    let repair = try doctor.repairCatalogue(holding: try WriterLock(directory: s.path, deadline: 5))
    #expect(repair.recovered == 500 && repair.lost == 0 && repair.note == "rebuilt from its 500 intact records")
    #expect(repair.backup.map(FileSystem.exists) == true)
    guard case .healthy(500, "from test") = doctor.checkCatalogue() else { Issue.record("\(doctor.checkCatalogue())"); return }
    let rebuilt = try Catalogue(path: path)
    defer { rebuilt.close() }
    #expect(try rebuilt.all() == cities)
    #expect(rebuilt.meta.source == "test" && rebuilt.meta.provider == "test")
    #expect(try rebuilt.search(cities[7].name, offset: 0, limit: 1000).cities.contains(cities[7]))
  }

  /// Country blocks and trie nodes are read by `show`, `forecast` and `fav`: doctor reads
  /// every one of them too, and a missing node is seen as well as a damaged one.
  @Test(arguments: ["k", "t-root", "t-child", "t-missing"])
  func aDamagedCountryBlockOrTrieNodeIsSeenAndRebuilt(_ which: String) throws {
    let s = Scratch()
    let cities = CityIndexTests.generated(500, seed: 5)
    _ = try CityIndexTests.build(cities, in: s).close()
    let path = s.file("catalogue.gdbm")
    let db = try GDBMDatabase(path: path, mode: .writer)
    let child = try #require(try db.keys().first { $0.first == UInt8(ascii: "t") && $0.count == 2 }, "a node below the root")
    switch which {
    case "k": try db.store(CatalogueKey.block("k", 1), Array("not an envelope".utf8))
    case "t-root": try db.store([UInt8(ascii: "t")], Array("not an envelope".utf8))
    case "t-child": try db.store(child, Array("not an envelope".utf8))
    default: _ = try db.delete(child)
    }
    try db.close()
    let doctor = Doctor(home: Home(directory: s.path, sampleCandidates: []))
    guard case .broken = doctor.checkCatalogue() else { Issue.record("the damage went unseen"); return }
    let repair = try doctor.repairCatalogue(holding: try WriterLock(directory: s.path, deadline: 5))
    #expect(repair.note == "rebuilt from its 500 intact records")
    guard case .healthy = doctor.checkCatalogue() else { Issue.record("\(doctor.checkCatalogue())"); return }
  }

  @Test func aDamagedRecordFallsBackToTheSample() throws {
    let s = Scratch()
    _ = try CityIndexTests.build(CityIndexTests.generated(100, seed: 4), in: s).close()
    try Self.damage(s.file("catalogue.gdbm"), CatalogueKey.block("c", 2))
    let doctor = Doctor(home: Home(directory: s.path, sampleCandidates: [sampleFile]))
    let repair = try doctor.repairCatalogue(holding: try WriterLock(directory: s.path, deadline: 5))
    #expect(repair.note == "replaced by the bundled sample")
    #expect(try Catalogue(path: s.file("catalogue.gdbm")).meta.isSample)
  }
}
