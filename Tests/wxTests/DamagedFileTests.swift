import Foundation
import Testing

/// Damaged store files: no crash, a message naming the file and the fix, `wx doctor`
/// reports it, `wx doctor --repair` recovers, and the catalogue is rebuilt by a sync.
@Suite struct DamagedFileTests {
  enum Damage: String, CaseIterable {
    case empty, header, half, lastKiB, randomBytes, flippedValueByte, swappedMagic, textFile, folder, mode000
  }

  struct Store: Sendable, CustomStringConvertible {
    var name: String
    var file: String
    var read: [String]
    /// Bytes known to be inside one of its values, for the flipped-byte damage.
    var marker: String
    var description: String { name }
  }

  static let stores = [
    Store(name: "catalogue", file: "catalogue.gdbm", read: ["show", "London"], marker: "London"),
    Store(name: "favourites", file: "favourites.gdbm", read: ["fav", "list"], marker: "Oslo"),
    Store(name: "preferences", file: "prefs.gdbm", read: ["unit"], marker: "fahrenheit"),
  ]

  static func damage(_ path: String, _ d: Damage) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var bytes = [UInt8](data)
    switch d {
    case .empty: bytes = []
    case .header: bytes = Array(bytes.prefix(100))
    case .half: bytes = Array(bytes.prefix(bytes.count / 2))
    case .lastKiB: bytes = Array(bytes.prefix(max(0, bytes.count - 1024)))
    case .randomBytes:
      var rng = SystemRandomNumberGenerator()
      let start = bytes.count / 3
      for i in start..<min(bytes.count, start + 4096) { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
    case .flippedValueByte:
      return  // handled by the caller, which knows the marker
    case .swappedMagic: bytes[0...3].reverse()
    case .textFile: bytes = Array(String(repeating: "{\"not\": \"a store\"}\n", count: 300).utf8)
    case .folder:
      try FileManager.default.removeItem(atPath: path)
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      return
    case .mode000:
      chmod(path, 0)
      return
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  static func flip(_ path: String, inside marker: String) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let m = Array(marker.utf8)
    let at = try #require((0...(bytes.count - m.count)).first { bytes[$0..<$0 + m.count].elementsEqual(m) })
    bytes[at + 1] ^= 0x20
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  @Test(arguments: stores, Damage.allCases)
  func damagedStoresAreReportedAndRepaired(_ store: Store, _ damage: Damage) throws {
    let home = TempHome()
    try #require(try home.wx("fav", "add", "Oslo", "Lima").status == 0)
    try #require(try home.wx("unit", "fahrenheit").status == 0)
    let path = home.path + "/" + store.file
    if damage == .flippedValueByte { try Self.flip(path, inside: store.marker) } else { try Self.damage(path, damage) }

    let read = try home.run(store.read)
    #expect(!read.signalled, "crashed: \(read)")
    #expect(read.status == 0 || read.status == 74, "\(read)")
    if read.status != 0 {
      #expect(read.stderr.contains(path), "message must name the file: \(read.stderr)")
      #expect(read.stderr.contains("wx doctor") || read.stderr.contains("wx sync"), "and the fix: \(read.stderr)")
      #expect(read.stderr.split(separator: "\n").count == 1, "\(read.stderr)")
    }
    // A flipped byte inside a value is always detected, never shown.
    if damage == .flippedValueByte {
      #expect(read.status == 74 || (store.name == "preferences" && read.status == 0 && read.stdout == "celsius\n"))
    }
    let doctor = try home.wx("doctor")
    #expect(!doctor.signalled)
    if read.status != 0 {
      #expect(doctor.status == 74, "doctor missed it: \(doctor)")
      #expect(doctor.stdout.contains("damaged"))
    }
    let repair = try home.wx("doctor", "--repair")
    #expect(repair.status == 0, "\(repair)")
    let after = try home.wx("doctor")
    #expect(after.status == 0, "still damaged after repair: \(after)")
    let again = try home.run(store.read)
    #expect(again.status == 0, "\(again)")
    if damage == .folder || damage == .textFile || damage == .empty {
      #expect(FileManager.default.fileExists(atPath: path + ".broken-") == false)
      let kept = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix(store.file + ".broken-") }
      #expect(kept.count == 1, "the damaged file is kept as a backup")
      // Where it is kept reads before what to run ("…; run `wx sync` as <file>" read as if
      // the sync ran as the file).
      if let name = kept.first {
        #expect(repair.stdout.contains("damaged file kept as "), "\(repair.stdout)")
        #expect(!repair.stdout.contains("` as "), "\(repair.stdout)")
        if store.name == "catalogue" {
          #expect(repair.stdout.contains("replaced by the bundled sample; damaged file kept as "), "\(repair.stdout)")
          #expect(repair.stdout.contains(name + "; run `wx sync`"), "\(repair.stdout)")
        }
      }
    }
  }

  @Test(arguments: Damage.allCases)
  func aDamagedCatalogueIsRebuiltByTheNextSync(_ damage: Damage) throws {
    let home = TempHome()
    try home.wx("fav", "add", "Oslo")
    let path = home.catalogue
    if damage == .flippedValueByte { try Self.flip(path, inside: "London") } else { try Self.damage(path, damage) }
    let api = try FakeAPI()
    let sync = try home.wx("sync", "--url", api.url)
    #expect(sync.status == 0, "\(sync)")
    #expect(try home.wx("show", "London").status == 0)
    #expect(try home.wx("doctor").status == 0)
    #expect((try home.wx("fav", "list", "--json").json()["items"] as? [Any])?.count == 1)
  }
}
