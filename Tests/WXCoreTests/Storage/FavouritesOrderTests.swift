import Foundation
import Testing

@testable import WXCore

/// The favourites' order kept as an index beside their records (issue 30: `wx fav` with
/// 10,000 favourites within 2× of 3): a page read from it is the page of the whole list,
/// and an index that is damaged, stale or missing is never shown as the favourites.
@Suite struct FavouritesOrderTests {
  static func home(_ s: Scratch) -> Home { Home(directory: s.path, sampleCandidates: [sampleFile], lockDeadline: 2) }

  /// `n` favourites added `perCall` at a time (several publishes, several parts).
  static func fill(_ home: Home, _ n: Int, perCall: Int = 97) throws {
    var k = 0
    while k < n {
      let cities = (k..<min(n, k + perCall)).map { i in
        City(
          id: i + 1, name: "Town \(i)", country: i % 2 == 0 ? "Norway" : "Peru", latitude: Double(i % 80),
          longitude: Double(i % 170), temperatureC: nil, description: "", humidity: nil, windKmh: nil, forecast: [])
      }
      _ = try home.favourites.add(cities, now: 1_700_000_000 + Int64(k))
      k += perCall
    }
  }

  @Test func everyPageIsThatPageOfTheWholeList() throws {
    let s = Scratch()
    let home = Self.home(s)
    try Self.fill(home, 700)
    let all = try home.favourites.list()
    #expect(all.count == 700 && all.first?.name == "Town 0" && all.last?.name == "Town 699")
    for (offset, limit) in [(0, 20), (240, 20), (250, 20), (255, 3), (500, 300), (699, 20), (700, 20), (5_000, 20), (0, 0)] {
      let page = try home.favourites.page(offset: offset, limit: limit)
      #expect(page.total == 700)
      #expect(page.items == Array(all.dropFirst(offset).prefix(limit)), "offset \(offset) limit \(limit)")
    }
    // A removal is in the next page read.
    try home.favourites.remove([all[1]])
    #expect(try home.favourites.page(offset: 0, limit: 3).items == [all[0], all[2], all[3]])
    #expect(try home.favourites.page(offset: 0, limit: 3).total == 699)
  }

  @Test func aStoreWithoutTheIndexPagesFromItsRecords() throws {
    // Written by a wx before the index: the same pages, from the records.
    let s = Scratch()
    let home = Self.home(s)
    try Self.fill(home, 300)
    let all = try home.favourites.list()
    let plain = SmallStore(path: home.favouritesPath, kind: .favourite)
    let records = try home.favourites.store.read()
    #expect(records.count == 300)
    let lock = try home.writers.acquire()
    try plain.write(records, holding: lock)
    lock.release()
    #expect(try GDBMDatabase(path: home.favouritesPath, mode: .reader).fetch(FavouritesStore.orderKey) == nil)
    #expect(try home.favourites.page(offset: 280, limit: 20).items == Array(all[280...]))
    #expect(try Doctor(home: home).examine(repair: false).unhealthy == 0)
  }

  @Test func aDamagedIndexIsReportedThenRebuiltWithNothingLost() throws {
    let s = Scratch()
    let home = Self.home(s)
    try Self.fill(home, 300)
    let all = try home.favourites.list()
    // A byte in the middle of the index's first part flipped: its checksum fails.
    let db = try GDBMDatabase(path: home.favouritesPath, mode: .reader)
    let part = try #require(try db.fetch(FavouritesStore.orderPartKey(0)))
    try db.close()
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: home.favouritesPath)))
    let at = try #require((0..<(bytes.count - part.count)).first { bytes[$0..<$0 + part.count].elementsEqual(part) })
    bytes[at + part.count / 2] ^= 0x01
    try Data(bytes).write(to: URL(fileURLWithPath: home.favouritesPath))
    #expect(throws: StoreError.self) { try home.favourites.page(offset: 0, limit: 20) }
    let found = try Doctor(home: home).examine(repair: false)
    guard case .broken(.damaged) = found.lines[5].health else { Issue.record("\(found.lines[5])"); return }
    let repaired = try Doctor(home: home).examine(repair: true)
    guard case .repaired(let r) = repaired.lines[5].actions.first else { Issue.record("\(repaired.lines[5])"); return }
    // The index is no record: it is neither recovered nor lost, but rebuilt.
    #expect(r.recovered == 300 && r.lost == 0)
    let kept = try home.favourites.list()
    #expect(kept.count == r.recovered)
    #expect(try home.favourites.page(offset: 0, limit: 1_000).items == kept)
    #expect(try GDBMDatabase(path: home.favouritesPath, mode: .reader).fetch(FavouritesStore.orderKey) != nil)
    #expect(kept == all)
  }

  @Test func anIndexThatNoLongerSaysWhatTheRecordsSayIsDamage() throws {
    // The index of before a removal, put back behind wx's back (a GDBM tool, a restored
    // copy): every checksum and the list of keys still read, and the index would page a
    // favourite that is gone; the whole read, and so doctor, says the two disagree.
    let s = Scratch()
    let home = Self.home(s)
    try Self.fill(home, 150)
    let keys = [FavouritesStore.orderKey, FavouritesStore.orderPartKey(0)]
    var db = try GDBMDatabase(path: home.favouritesPath, mode: .reader)
    let before = try keys.map { try #require(try db.fetch($0)) }
    try db.close()
    try home.favourites.remove([try home.favourites.list()[0]])
    db = try GDBMDatabase(path: home.favouritesPath, mode: .writer)
    for (key, value) in zip(keys, before) { try db.store(key, value) }
    try db.close()
    #expect(throws: StoreError.damaged(path: home.favouritesPath, detail: "its index does not match its records")) {
      try home.favourites.list()
    }
    guard case .broken(.damaged) = Doctor(home: home).check(Doctor(home: home).smallStores[1]) else {
      Issue.record("a stale index reads as healthy")
      return
    }
  }
}

extension FavouritesOrderTests {
  /// Records whose headers are gone (a file cut short, overwritten) cannot be seen, nor
  /// counted by a scan; the repair says how many, from the index head it still finds (it said
  /// "0 damaged records lost" with 44 of 150 gone).
  @Test func recordsNoScanCanSeeAreCountedAsLostFromTheIndex() throws {
    let s = Scratch()
    let home = Self.home(s)
    try Self.fill(home, 150)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: home.favouritesPath)))
    // Every favourite record's envelope header (magic, schema, kind F); wipe 30 of them.
    let headers = (0..<(bytes.count - 3)).filter {
      bytes[$0] == Envelope.magic && bytes[$0 + 1] == Envelope.schema && bytes[$0 + 2] == Envelope.Kind.favourite.rawValue
    }
    try #require(headers.count >= 150)
    for at in headers.prefix(30) { bytes[at] = 0 }
    try Data(bytes).write(to: URL(fileURLWithPath: home.favouritesPath))
    let repaired = try Doctor(home: home).examine(repair: true)
    guard case .repaired(let r) = repaired.lines[5].actions.first else { Issue.record("\(repaired.lines[5])"); return }
    #expect(r.recovered == 120 && r.lost == 30, "\(r)")
    #expect(try home.favourites.list().count == 120)
  }
}
