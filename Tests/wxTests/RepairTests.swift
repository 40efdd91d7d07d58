import Foundation
import Testing

/// `wx doctor --repair` never loses what it repairs: killed at every step of a repair, or
/// failing (a full disk, a failed sync to disk, no room for the copy it keeps), the store is
/// still there, damaged as it was or repaired, and the next repair finishes the job. And a
/// store of the wrong kind is named as such and never emptied.
@Suite struct RepairTests {
  /// The moments a repair can be killed, in order: the new file written; the damaged one's
  /// copy kept; then the publication's own (StoreBuilder).
  static let steps = ["repair_built", "repair_kept", "after_tmp_written", "after_fsync", "after_rename", "before_dir_fsync"]
  /// Steps after which the live name holds the repaired file.
  static let published: Set<String> = ["after_rename", "before_dir_fsync"]

  struct Target: Sendable, CustomStringConvertible {
    var name: String
    var file: String
    var read: [String]
    var description: String { name }
  }

  static let targets = [
    Target(name: "favourites", file: "favourites.gdbm", read: ["fav", "list"]),
    Target(name: "catalogue, an order block", file: "catalogue.gdbm", read: ["top"]),
    Target(name: "catalogue, a record", file: "catalogue.gdbm", read: ["show", "London"]),
  ]

  /// A state folder with favourites and the sample catalogue, one store damaged.
  static func damagedHome(_ t: Target) throws -> (TempHome, String, Data) {
    let home = TempHome()
    try #require(try home.wx("fav", "add", "Oslo", "Lima").status == 0)
    try #require(try home.wx("unit", "fahrenheit").status == 0)
    let path = home.path + "/" + t.file
    switch t.name {
    case "favourites": try DamagedFileTests.flip(path, inside: "Oslo")
    case "catalogue, a record": try DamagedFileTests.flip(path, inside: "London")
    default: try flipValue(path, kind: 0x4F)  // an order block ("O")
    }
    let damaged = try Data(contentsOf: URL(fileURLWithPath: path))
    try #require(try home.wx("doctor").status == 74)
    return (home, path, damaged)
  }

  /// Flips a byte inside the first value of `kind` (its envelope: 0xB7, schema 1, kind).
  static func flipValue(_ path: String, kind: UInt8) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let isEnvelope: (Int) -> Bool = { i in bytes[i] == 0xB7 && bytes[i + 1] == 1 && bytes[i + 2] == kind }
    let at = try #require((0..<(bytes.count - 12)).first(where: isEnvelope))
    bytes[at + 9] ^= 0x01
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  static func backups(_ home: TempHome, _ file: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: home.path)) ?? []).filter { $0.hasPrefix(file + ".broken-") }
  }

  @Test(arguments: targets, steps)
  func aRepairKilledAtAnyStepLosesNothing(_ t: Target, _ step: String) throws {
    let (home, path, damaged) = try Self.damagedHome(t)
    let killed = try home.wx("doctor", "--repair", env: ["WX_FAILPOINT": step])
    #expect(killed.signalled, "the failpoint \(step) was not reached: \(killed)")
    // The store is where it was: damaged as it was before the rename, repaired after it.
    let now = try #require(FileManager.default.contents(atPath: path), "killed at \(step), the store is gone")
    if Self.published.contains(step) {
      #expect(now != damaged)
      #expect(Self.backups(home, t.file).count == 1, "the damaged copy is kept")
    } else {
      #expect(now == damaged, "the live store changed before the rename")
    }
    let doctor = try home.wx("doctor")
    let line = doctor.stdout.split(separator: "\n").first { $0.hasPrefix(t.name.hasPrefix("catalogue") ? "catalogue" : t.name) }
    #expect(line?.contains("absent") == false, "\(doctor)")
    #expect(doctor.status == (Self.published.contains(step) ? 0 : 74), "\(doctor)")
    // The next repair finishes the job.
    #expect(try home.wx("doctor", "--repair").status == 0)
    #expect(try home.wx("doctor").status == 0)
    let read = try home.run(t.read)
    #expect(read.status == 0, "\(read)")
    if t.name == "favourites" {
      #expect(read.stdout.contains("Lima"), "an intact favourite was lost: \(read)")
    } else {
      #expect(try home.wx("fav", "list").stdout.contains("Oslo"))
    }
  }

  @Test(arguments: targets, ["store:ENOSPC", "fsync:EIO", "copy:ENOSPC"])
  func aRepairThatFailsLeavesTheDamagedStoreWhereItWas(_ t: Target, _ failure: String) throws {
    let (home, path, damaged) = try Self.damagedHome(t)
    let before = home.snapshot()
    let repair = try home.wx("doctor", "--repair", env: ["WX_FAILPOINT": failure])
    #expect(repair.status == 74, "\(repair)")
    #expect(!repair.signalled)
    #expect(
      repair.stderr.contains(failure.hasSuffix("ENOSPC") ? "No space left on device" : "I/O error")
        || repair.stderr.contains("failed"), "\(repair)")
    #expect(FileManager.default.contents(atPath: path) == damaged, "a failed repair changed the store")
    #expect(home.snapshot().keys.sorted() == before.keys.sorted(), "a failed repair left files behind")
    // Still reported as damaged, and repaired once the disk has room again.
    #expect(try home.wx("doctor").status == 74)
    #expect(try home.wx("doctor", "--repair").status == 0)
    #expect(try home.wx("doctor").status == 0)
  }

  @Test func theCopyIsMadeWhereHardLinksAreRefused() throws {
    let (home, path, damaged) = try Self.damagedHome(Self.targets[0])
    let repair = try home.wx("doctor", "--repair", env: ["WX_FAILPOINT": "link:EPERM"])
    #expect(repair.status == 0, "\(repair)")
    let kept = Self.backups(home, "favourites.gdbm")
    try #require(kept.count == 1)
    #expect(FileManager.default.contents(atPath: home.path + "/" + kept[0]) == damaged)
    #expect(repair.stdout.contains(kept[0]))
    #expect(FileManager.default.contents(atPath: path) != damaged)
    #expect(try home.wx("fav", "list").stdout.contains("Lima"))
  }

  @Test func twoRepairsInOneSecondKeepBothCopies() throws {
    let (home, path, _) = try Self.damagedHome(Self.targets[0])
    #expect(try home.wx("doctor", "--repair").status == 0)
    try DamagedFileTests.flip(path, inside: "Lima")
    #expect(try home.wx("doctor", "--repair").status == 0)
    // Whether or not the clock ticked between them, neither copy replaced the other.
    #expect(Self.backups(home, "favourites.gdbm").count == 2)
  }

  @Test func swappedStoresAreNamedAndPutBack() throws {
    let home = TempHome()
    try #require(try home.wx("fav", "add", "Oslo", "Lima").status == 0)
    try #require(try home.wx("unit", "fahrenheit").status == 0)
    let favourites = try #require(FileManager.default.contents(atPath: home.favourites))
    let preferences = try #require(FileManager.default.contents(atPath: home.preferences))
    try favourites.write(to: URL(fileURLWithPath: home.preferences))
    try preferences.write(to: URL(fileURLWithPath: home.favourites))

    let list = try home.wx("fav", "list")
    #expect(list.status == 74)
    #expect(list.stderr.contains("holds preferences, not favourites"), "\(list)")
    let unit = try home.wx("unit")
    #expect(unit.status == 74, "a swapped preferences file must not read as the default unit: \(unit)")
    #expect(unit.stderr.contains("holds favourites, not preferences"), "\(unit)")
    let doctor = try home.wx("doctor")
    #expect(doctor.status == 74)
    #expect(doctor.stdout.contains("wrong kind"), "\(doctor)")

    let repair = try home.wx("doctor", "--repair")
    #expect(repair.status == 0, "\(repair)")
    #expect(repair.stdout.contains("exchanged with favourites.gdbm"), "\(repair)")
    #expect(!repair.stdout.contains("0 records kept"), "\(repair)")
    #expect(try home.wx("fav", "list").stdout.contains("Lima"))
    #expect(try home.wx("unit").stdout == "fahrenheit\n")
    #expect(try home.wx("doctor").status == 0)
  }

  /// favourites.gdbm copied over prefs.gdbm: `wx unit` fails with 74 and says to run `wx
  /// doctor --repair`, which does what it says: the copy is set aside whole (kept, never
  /// emptied), the favourites are untouched and the preferences start afresh.
  @Test func aStoreCopiedOverAnotherIsSetAsideWhole() throws {
    let home = TempHome()
    try #require(try home.wx("fav", "add", "Oslo", "Lima").status == 0)
    try #require(try home.wx("unit", "fahrenheit").status == 0)
    try FileManager.default.removeItem(atPath: home.preferences)
    try FileManager.default.copyItem(atPath: home.favourites, toPath: home.preferences)
    let copy = try #require(FileManager.default.contents(atPath: home.preferences))
    let unit = try home.wx("unit")
    #expect(unit.status == 74 && unit.stderr.contains("run `wx doctor --repair`"), "\(unit)")
    let repair = try home.wx("doctor", "--repair")
    #expect(repair.status == 0, "\(repair)")
    #expect(repair.stdout.contains("it held favourites, whose own file favourites.gdbm is in use: set aside as"), "\(repair)")
    let kept = Self.backups(home, "prefs.gdbm")
    #expect(
      kept.count == 1 && kept.first.flatMap { FileManager.default.contents(atPath: home.path + "/" + $0) } == copy, "\(kept)")
    #expect(FileManager.default.contents(atPath: home.favourites) == copy)
    #expect(try home.wx("unit").stdout == "celsius\n")
    #expect(try home.wx("fav", "list").stdout.contains("Lima"))
    #expect(try home.wx("doctor").status == 0)
  }
}
