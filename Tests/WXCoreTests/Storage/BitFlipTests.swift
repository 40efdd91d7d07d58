import Foundation
import Testing

@testable import WXCore

/// One flipped bit anywhere in a small store (favourites, preferences, air quality) is
/// detected or has no effect: the store reads exactly as before or reading it throws. Never
/// a record silently gone (GDBM's copy of a key or its tables hit: the manifest's work),
/// never a changed one (the envelopes' work).
@Suite struct BitFlipTests {
  /// A store of each kind, written through its own API, and how it reads on the commands' path.
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var file: String
    var description: String { name }
  }

  static let cases = [
    Case(name: "favourites", file: "favourites.gdbm"), Case(name: "preferences", file: "prefs.gdbm"),
    Case(name: "air quality", file: "aqi.gdbm"),
  ]

  /// What a command would see in `path`: a comparable rendering, or the error.
  static func reading(_ c: Case, _ path: String, writers: WriterLock.Policy) -> Result<String, StoreError> {
    do throws(StoreError) {
      switch c.name {
      case "favourites":
        return .success("\(try FavouritesStore(path: path, writers: writers).list())")
      case "preferences":
        // The cheap path read commands take, and the whole read `wx doctor` makes.
        let prefs = PreferencesStore(path: path, writers: writers)
        let loaded = try prefs.load()
        _ = try prefs.store.read()
        return .success("\(loaded)")
      default:
        return .success("\(try AQIStore(path: path, writers: writers).histories())")
      }
    } catch {
      return .failure(error)
    }
  }

  static func populate(_ c: Case, _ s: Scratch, writers: WriterLock.Policy) throws {
    let path = s.file(c.file)
    switch c.name {
    case "favourites":
      // Written as `wx fav add` writes them (the store's own read-modify-write).
      let favourites = ["Oslo", "Lima", "Paris", "Kuala Lumpur", "Dar es Salaam", "Zürich"].enumerated().map { (i, name) in
        Favourite(name: name, country: "Country \(i)", id: i + 1, added: 1_700_000_000, sequence: UInt64(i + 1))
      }
      try FavouritesStore(path: path, writers: writers).store.update(under: writers) { map in
        for f in favourites { map[f.identity.key] = f.encoded() }
      }
    case "preferences":
      try PreferencesStore(path: path, writers: writers).modify {
        $0.unit = .fahrenheit
        $0.lastCity = CityIdentity(name: "Oslo", country: "Norway")
      }
    default:
      let store = AQIStore(path: path, writers: writers)
      for t in 0..<3 {
        try store.record(
          ["Oslo", "Lima", "Paris", "Delhi"].map { AQIReading(city: $0, aqi: Double(20 + t)) }, at: 1_700_000_000 + Int64(t))
      }
    }
  }

  @Test(arguments: cases)
  func everyFlippedBitIsDetectedOrHarmless(_ c: Case) throws {
    let s = Scratch()
    let writers = WriterLock.Policy(directory: s.path, deadline: 1)
    try Self.populate(c, s, writers: writers)
    let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: s.file(c.file))))
    let expected = try Self.reading(c, s.file(c.file), writers: writers).get()
    let flipped = s.file("flipped-" + c.file)
    var rng = SplitMix64(state: 0x5EED_0000 + UInt64(original.count))
    var detected = 0
    var harmless = 0
    // Bytes of the 32-byte stretches in use (the header, the directory, the buckets' hash
    // values, key starts, sizes and offsets, the keys and values), each at a random bit, and a
    // few of the zeroed free space: 1,200 of them, or with WX_STRESS every byte in use.
    let used = original.indices.filter { at in original[(at & ~31)..<min(original.count, (at & ~31) + 32)].contains { $0 != 0 } }
    let free = original.indices.filter { original[($0 & ~31)..<min(original.count, ($0 & ~31) + 32)].allSatisfy { $0 == 0 } }
    let stress = ProcessInfo.processInfo.environment["WX_STRESS"] != nil
    let pick = { (from: [Int], n: Int) in (0..<n).map { _ in from[Int(rng.next() % UInt64(from.count))] } }
    let bytesToFlip = (stress ? used : pick(used, 1_100)) + (free.isEmpty ? [] : pick(free, 100))
    for at in bytesToFlip {
      var bytes = original
      bytes[at] ^= 1 << UInt8.random(in: 0...7, using: &rng)
      try Data(bytes).write(to: URL(fileURLWithPath: flipped))
      switch Self.reading(c, flipped, writers: writers) {
      case .failure: detected += 1
      case .success(let seen):
        #expect(seen == expected, "a flip at byte \(at) of \(original.count) changed what reads, silently")
        harmless += 1
      }
    }
    #expect(detected > 0)
    print(
      "\(c.name): \(bytesToFlip.count) of \(original.count) bytes flipped, \(detected) flips detected, \(harmless) without effect, 0 silent"
    )
  }

  @Test func aStoreWrittenBeforeManifestsStillReads() throws {
    let s = Scratch()
    // An older wx's file: the records, no manifest.
    let db = try GDBMDatabase(path: s.file("favourites.gdbm"), mode: .create)
    let f = Favourite(name: "Oslo", country: "Norway", id: 1, added: 1_700_000_000, sequence: 1)
    try db.store(f.identity.key, Envelope.seal(.favourite, f.encoded()))
    try db.close()
    let writers = WriterLock.Policy(directory: s.path, deadline: 1)
    #expect(try FavouritesStore(path: s.file("favourites.gdbm"), writers: writers).list() == [f])
    let prefs = try GDBMDatabase(path: s.file("prefs.gdbm"), mode: .create)
    try prefs.store(Array("unit".utf8), Envelope.seal(.preference, Array("fahrenheit".utf8)))
    try prefs.close()
    #expect(try PreferencesStore(path: s.file("prefs.gdbm"), writers: writers).load().unit == .fahrenheit)
  }

  @Test func aStoreOfAnotherKindIsNamedAsSuch() throws {
    let s = Scratch()
    let writers = WriterLock.Policy(directory: s.path, deadline: 1)
    // Empty stores too: the manifest says what kind of store a file is.
    try PreferencesStore(path: s.file("prefs.gdbm"), writers: writers).modify { $0.unit = .fahrenheit }
    try FavouritesStore(path: s.file("favourites.gdbm"), writers: writers).remove([])
    #expect(throws: StoreError.wrongKind(path: s.file("prefs.gdbm"), holds: .preference, expected: .favourite)) {
      try FavouritesStore(path: s.file("prefs.gdbm"), writers: writers).list()
    }
    #expect(throws: StoreError.wrongKind(path: s.file("favourites.gdbm"), holds: .favourite, expected: .preference)) {
      try PreferencesStore(path: s.file("favourites.gdbm"), writers: writers).load()
    }
  }
}
