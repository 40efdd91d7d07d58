import Foundation
import Testing

@testable import WXCore

/// `wx doctor`'s flow as a WXCore service: it returns what it found and did as values, which
/// the CLI only renders.
@Suite struct DoctorServiceTests {
  static func home(_ s: Scratch) -> Home {
    Home(directory: s.path, sampleCandidates: [sampleFile], lockDeadline: 2)
  }

  static func favourites(_ home: Home, _ names: [String]) throws {
    try home.favourites.store.update(under: home.writers) { map in
      for (i, name) in names.enumerated() {
        let f = Favourite(name: name, country: "Norway", id: i + 1, added: 1_700_000_000, sequence: UInt64(i + 1))
        map[f.identity.key] = f.encoded()
      }
    }
  }

  @Test func aHealthyFolderIsReportedLineByLine() throws {
    let s = Scratch()
    let home = Self.home(s)
    try Self.favourites(home, ["Oslo"])
    let report = try Doctor(home: home).examine(repair: false)
    // The state folder's, then what ships with wx (here: the repository's Data/).
    #expect(
      report.lines.map(\.name)
        == [
          "state folder", "lock", "catalogue", "atlas", "preferences", "favourites", "air quality", "alerts sent", "sample",
          "atlas data",
        ])
    #expect(report.unhealthy == 0 && report.unrepaired == 0 && !report.folderUnusable)
    #expect(report.lines[5].health == .healthy(records: 1, detail: ""))
    #expect(report.lines[2].health == .absent && report.lines[3].health == .absent)
  }

  @Test func aDamagedStoreIsFoundThenRepairedAsValues() throws {
    let s = Scratch()
    let home = Self.home(s)
    try Self.favourites(home, ["Oslo", "Bergen", "Tromsø"])
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: home.favouritesPath)))
    let at = try #require((0..<(bytes.count - 6)).first { bytes[$0..<$0 + 6].elementsEqual(Array("Bergen".utf8)) })
    bytes[at + 2] ^= 0x20
    try Data(bytes).write(to: URL(fileURLWithPath: home.favouritesPath))

    let found = try Doctor(home: home).examine(repair: false)
    #expect(found.unhealthy == 1)
    guard case .broken(.damaged) = found.lines[5].health else { Issue.record("\(found.lines[5])"); return }
    #expect(found.lines.allSatisfy { $0.actions.isEmpty })

    let repaired = try Doctor(home: home).examine(repair: true)
    guard case .repaired(let r) = repaired.lines[5].actions.first else { Issue.record("\(repaired.lines[5])"); return }
    #expect(r.recovered == 2 && r.lost == 1 && r.salvaged && !r.unrepaired)
    #expect(r.backup.map(FileSystem.exists) == true)
    #expect(try Doctor(home: home).examine(repair: false).unhealthy == 0)
  }

  /// Set aside whole, kept, and the preferences start afresh: `wx unit`'s "run `wx doctor
  /// --repair`" then does what it says (it was left, and `wx unit` kept failing with 74).
  @Test func aStoreOfAnotherKindInATakenPlaceIsSetAsideAndKept() throws {
    let s = Scratch()
    let home = Self.home(s)
    try Self.favourites(home, ["Oslo"])
    try home.preferences.modify { $0.unit = .fahrenheit }
    // prefs.gdbm replaced by a copy of favourites.gdbm: the favourites' place is taken.
    try FileManager.default.removeItem(atPath: home.preferencesPath)
    try FileManager.default.copyItem(atPath: home.favouritesPath, toPath: home.preferencesPath)
    let favourites = try Data(contentsOf: URL(fileURLWithPath: home.favouritesPath))
    let report = try Doctor(home: home).examine(repair: true)
    #expect(report.unrepaired == 0)
    guard case .repaired(let r) = report.lines[4].actions.first else { Issue.record("\(report.lines[4])"); return }
    #expect(!r.unrepaired && r.note.contains("it held favourites"), "\(r)")
    let kept = try #require(r.backup)
    #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == favourites)
    #expect(try Data(contentsOf: URL(fileURLWithPath: home.favouritesPath)) == favourites)
    #expect(try Doctor(home: home).examine(repair: false).unhealthy == 0)
    #expect(try home.preferences.load().unit == .celsius)
    try home.preferences.modify { $0.unit = .fahrenheit }
    #expect(try home.preferences.load().unit == .fahrenheit)
  }

  /// A copy of the catalogue where the favourites belong holds no favourite: it is set aside,
  /// kept, and the favourites start afresh (it was "not repaired: … whose own file is in
  /// use", though nothing else can hold a catalogue's place here).
  @Test func aCatalogueWhereAStoreBelongsIsSetAside() throws {
    let s = Scratch()
    let home = Self.home(s)
    try home.openCatalogue().catalogue.close()
    try FileManager.default.copyItem(atPath: home.cataloguePath, toPath: home.favouritesPath)
    let report = try Doctor(home: home).examine(repair: true)
    #expect(report.unrepaired == 0)
    guard case .repaired(let r) = report.lines[5].actions.first else { Issue.record("\(report.lines[5])"); return }
    #expect(!r.unrepaired && r.note.contains("it held a catalogue"), "\(r)")
    #expect(r.backup.map(FileSystem.exists) == true && !FileSystem.exists(home.favouritesPath))
    #expect(try Doctor(home: home).examine(repair: false).unhealthy == 0)
    #expect(try home.favourites.list().isEmpty)
  }
}
