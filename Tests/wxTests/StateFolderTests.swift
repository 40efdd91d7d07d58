import Foundation
import Testing

/// A hostile or broken state folder (issue 11, items 2, 10 and 11): planted links, FIFOs and
/// foreign files are refused, never followed; a read-only folder or damaged preferences do
/// not stop a read; `wx doctor` says what is wrong with the folder; repair salvages every
/// intact record; temp files of killed writers are cleaned up.
@Suite struct StateFolderTests {
  /// Whether the tests run as root: giving a file to another user (chown) and making a folder
  /// immutable (chattr +i) need it; elsewhere those tests are skipped, and say so.
  static let isRoot = getuid() == 0

  /// Runs `command` in /bin/sh; true when it exits 0.
  @discardableResult
  static func sh(_ command: String) throws -> Bool {
    try runProcess("/bin/sh", ["-c", command], environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"]).status == 0
  }

  static func contents(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  static func mode(_ path: String) -> Int {
    var st = stat()
    return lstat(path, &st) == 0 ? Int(st.st_mode & 0o7777) : -1
  }

  /// A refusal: exit 74, one line on stderr naming `path` and saying `why`.
  static func expectRefused(_ run: Run, _ path: String, _ why: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(run.status == 74, "\(run)", sourceLocation: sourceLocation)
    #expect(run.stderr.hasPrefix("wx: refusing to use \(path): "), "\(run)", sourceLocation: sourceLocation)
    #expect(run.stderr.contains(why), "\(run)", sourceLocation: sourceLocation)
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run)", sourceLocation: sourceLocation)
  }

  // MARK: Item 2: links, FIFOs, foreign files

  @Test func aLockThatIsASymlinkIsRefusedAndItsTargetKept() throws {
    let home = TempHome()
    let victim = home.path + "-victim"
    try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
    defer { unlink(victim) }
    try #require(symlink(victim, home.path + "/wx.lock") == 0)

    Self.expectRefused(try home.wx("fav", "add", "Oslo"), home.path + "/wx.lock", "symbolic link")
    Self.expectRefused(try home.wx("unit", "f"), home.path + "/wx.lock", "symbolic link")
    #expect(Self.contents(victim) == "precious\n", "the link's target was written")

    let doctor = try home.wx("doctor")
    #expect(doctor.status == 74 && doctor.stdout.contains("symbolic link"), "\(doctor)")
    let repair = try home.wx("doctor", "--repair")
    #expect(repair.status == 0, "\(repair)")
    #expect(try home.wx("fav", "add", "Oslo").status == 0)
    #expect(Self.contents(victim) == "precious\n")
    #expect(Self.mode(home.path + "/wx.lock") == 0o600)
  }

  enum BadLock: String, CaseIterable { case fifo, folder, foreign, hardLink }

  @Test(arguments: BadLock.allCases)
  func aLockThatIsNotOurRegularFileIsRefused(_ bad: BadLock) throws {
    let home = TempHome()
    try #require(try home.wx("list").status == 0)
    let lock = home.path + "/wx.lock"
    unlink(lock)
    let other = home.path + "-other"
    defer { unlink(other) }
    switch bad {
    case .fifo: try #require(mkfifo(lock, 0o600) == 0)
    case .folder: try #require(mkdir(lock, 0o700) == 0)
    case .foreign: try #require(try Self.sh("touch '\(lock)' && chown 65534 '\(lock)'"))
    case .hardLink:
      try "keep\n".write(toFile: other, atomically: false, encoding: .utf8)
      try #require(link(other, lock) == 0)
    }
    let why = ["fifo": "a FIFO", "folder": "a folder", "foreign": "belongs to uid 65534", "hardLink": "2 hard links"][
      bad.rawValue]!
    Self.expectRefused(try home.wx("fav", "add", "Oslo", timeout: 20), lock, why)
    if bad == .hardLink { #expect(Self.contents(other) == "keep\n") }
    #expect(try home.wx("doctor").status == 74)
    #expect(try home.wx("doctor", "--repair").status == 0)
    #expect(try home.wx("fav", "add", "Oslo").status == 0)
  }

  @Test func storesThatAreSymlinksAreRefusedByReaders() throws {
    let home = TempHome()
    try #require(try home.wx("fav", "add", "Oslo").status == 0)
    let elsewhere = TempHome()
    for name in ["favourites.gdbm", "catalogue.gdbm"] {
      try FileManager.default.moveItem(atPath: home.path + "/" + name, toPath: elsewhere.path + "/" + name)
      try #require(symlink(elsewhere.path + "/" + name, home.path + "/" + name) == 0)
    }
    Self.expectRefused(try home.wx("fav", "list"), home.favourites, "symbolic link")
    Self.expectRefused(try home.wx("list"), home.catalogue, "symbolic link")
    Self.expectRefused(try home.wx("search", "par"), home.catalogue, "symbolic link")
  }

  @Test(.enabled(if: isRoot, "needs root (chown, chattr +i)"))
  func aStoreOwnedBySomeoneElseIsRefusedAndRepairKeepsItsRecords() throws {
    let home = TempHome()
    try #require(try home.wx("fav", "add", "Oslo", "Lima").status == 0)
    try #require(try Self.sh("chown 65534 '\(home.favourites)'"))
    Self.expectRefused(try home.wx("fav", "list"), home.favourites, "belongs to uid 65534")
    let repair = try home.wx("doctor", "--repair")
    #expect(repair.status == 0 && repair.stdout.contains("2 records kept"), "\(repair)")
    let list = try home.wx("fav", "list", "--json").json()
    #expect((list["items"] as? [Any])?.count == 2)
  }

  @Test func anExistingStateFolderIsTightenedTo0700() throws {
    let home = TempHome()
    chmod(home.path, 0o755)
    #expect(try home.wx("fav", "add", "Oslo").status == 0)
    #expect(Self.mode(home.path) == 0o700)
  }

  /// `WX_HOME=$HOME` (or `/`): a folder that holds more than wx's files is not wx's to
  /// tighten. It keeps its mode, wx works in it, and doctor has nothing to repair; only one
  /// that others may write to is refused.
  @Test func aFolderHoldingOtherFilesKeepsItsMode() throws {
    let home = TempHome()
    _ = FileManager.default.createFile(atPath: home.path + "/notes.txt", contents: Data("mine".utf8))
    chmod(home.path, 0o755)
    for args in [["list"], ["fav", "add", "Oslo"], ["unit", "f"], ["show", "Oslo"], ["doctor", "--repair"]] {
      let run = try home.run(args)
      #expect(run.status == 0, "\(args) \(run)")
      #expect(Self.mode(home.path) == 0o755, "\(args)")
    }
    let doctor = try home.wx("doctor")
    #expect(doctor.status == 0 && !doctor.stdout.contains("mode 0755"), "\(doctor)")
    // The stores it wrote are private all the same.
    #expect(Self.mode(home.path + "/favourites.gdbm") == 0o600)

    chmod(home.path, 0o777)
    Self.expectRefused(try home.wx("fav", "add", "Lima"), home.path, "holds files that are not wx's")
    #expect(Self.mode(home.path) == 0o777)
    let refused = try home.wx("doctor")
    #expect(refused.status != 0 && refused.stdout.contains("holds files that are not wx's"), "\(refused)")
  }

  /// wx's own names, set-aside copies and temp files do not make a folder foreign.
  @Test func aFolderOfWxsOwnFilesIsTightened() throws {
    let home = TempHome()
    #expect(try home.wx("fav", "add", "Oslo").status == 0)
    for name in ["catalogue.gdbm.broken-20260101-000000", ".prefs.gdbm.tmp.1.2"] {
      _ = FileManager.default.createFile(atPath: home.path + "/" + name, contents: Data())
    }
    chmod(home.path, 0o750)
    #expect(try home.wx("unit", "c").status == 0)
    #expect(Self.mode(home.path) == 0o700)
  }

  @Test(.enabled(if: isRoot, "needs root (chown, chattr +i)"))
  func aSharedOrForeignWritableStateFolderIsRefused() throws {
    let shared = TempHome()
    chmod(shared.path, 0o1777)
    Self.expectRefused(try shared.wx("fav", "add", "Oslo"), shared.path, "shared folder")
    #expect(Self.mode(shared.path) == 0o1777)

    let foreign = TempHome()
    try #require(try Self.sh("chown 65534 '\(foreign.path)' && chmod 0777 '\(foreign.path)'"))
    Self.expectRefused(try foreign.wx("unit", "f"), foreign.path, "others can write")
    #expect(!FileManager.default.fileExists(atPath: foreign.preferences))
  }

  // MARK: Item 10: read-only and unusable folders, damaged preferences

  /// Makes `path` immutable (`chattr +i`: stops root too) for the duration of `body`.
  static func immutable(_ path: String, _ body: () throws -> Void) throws {
    try #require(try sh("chattr +i '\(path)'"), "chattr +i is not supported here")
    defer { _ = try? sh("chattr -i '\(path)'") }
    try body()
  }

  @Test(.enabled(if: isRoot, "needs root (chown, chattr +i)"))
  func showInAReadOnlyFolderShowsTheWeatherAndWarnsOnce() throws {
    let home = TempHome()
    try #require(try home.wx("show", "London").status == 0)
    try Self.immutable(home.path) {
      let show = try home.wx("show", "Oslo")
      #expect(show.status == 0, "\(show)")
      #expect(show.stdout.contains("Oslo, Norway"))
      let lines = show.stderr.split(separator: "\n")
      #expect(lines.count == 1 && show.stderr.hasPrefix("wx: warning: "), "\(show)")
      #expect(show.stderr.contains(home.path) && show.stderr.contains("last city was not saved"))
      let doctor = try home.wx("doctor")
      #expect(doctor.status == 74, "\(doctor)")
      #expect(doctor.stdout.contains("wx may not write in it"), "\(doctor)")
      #expect(try home.wx("fav", "add", "Oslo").status == 74)
    }
    #expect(try home.wx("show").stdout.contains("London"), "the last city is still London")
  }

  @Test(arguments: ["file", "under a file", "XDG_DATA_HOME file"])
  func doctorSaysWhatIsWrongWithAnUnusableStateFolder(_ how: String) throws {
    let scratch = TempHome()
    let file = scratch.path + "/plain"
    try "not a folder\n".write(toFile: file, atomically: false, encoding: .utf8)
    var env = ["WX_HOME": file]
    var folder = file
    if how == "under a file" {
      folder = file + "/wx"
      env["WX_HOME"] = folder
    } else if how == "XDG_DATA_HOME file" {
      folder = file + "/wx"
      env = ["WX_HOME": "", "XDG_DATA_HOME": file]
    }
    let doctor = try scratch.wx("doctor", env: env)
    #expect(doctor.status == 74, "\(doctor)")
    #expect(doctor.stdout.contains(folder) && doctor.stdout.contains("not a folder"), "\(doctor)")
    #expect(!doctor.stdout.contains("healthy"))
    #expect(try scratch.wx("doctor", "--repair", env: env).status == 74)
    let list = try scratch.wx("list", env: env)
    #expect(list.status == 74 && list.stderr.contains("not a folder"), "\(list)")
    #expect(Self.contents(file) == "not a folder\n")
  }

  @Test func damagedPreferencesAreHandledTheSameWayByEveryCommand() throws {
    let home = TempHome()
    try #require(try home.wx("unit", "f").status == 0)
    try #require(try home.wx("fav", "add", "Oslo").status == 0)
    try Data(String(repeating: "garbage ", count: 100).utf8).write(to: URL(fileURLWithPath: home.preferences))
    let before = home.snapshot()
    let reads: [[String]] = [
      ["list"], ["search", "par"], ["top"], ["hottest"], ["fav"], ["forecast", "Lima"], ["show", "Lima"], ["status"],
    ]
    for args in reads {
      let r = try home.run(args)
      #expect(r.status == 0, "\(args): \(r)")
      let lines = r.stderr.split(separator: "\n")
      #expect(lines.count == 1 && r.stderr.hasPrefix("wx: warning: "), "\(args): \(r)")
      #expect(r.stderr.contains(home.preferences) && r.stderr.contains("default settings"), "\(args): \(r)")
    }
    #expect(try home.wx("show").status == 64, "no last city to fall back on: a usage error")
    for args in [["unit"], ["unit", "c"]] {
      let r = try home.run(args)
      #expect(r.status == 74 && r.stderr.contains(home.preferences) && r.stderr.contains("wx doctor"), "\(args): \(r)")
    }
    #expect(home.snapshot() == before, "nothing was rewritten")
    #expect(try home.wx("doctor", "--repair").status == 0)
    #expect(try home.wx("unit").stdout == "celsius\n")
  }

  // MARK: Item 11: repair that salvages, stale temp files

  /// Overwrites GDBM's directory and bucket blocks (everything between the header and the
  /// first value) with zeros, leaving every value intact: GDBM can no longer find any key.
  static func wipeIndex(_ path: String) throws -> [UInt8] {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let firstValue = try #require(bytes.indices.first { bytes[$0] == 0xB7 && bytes[$0 + 1] == 1 && bytes[$0 + 2] == 0x46 })
    // The header's block size (offset 4, host order): the directory starts at or after it.
    let blockSize = bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
    for i in min(blockSize, firstValue / 2)..<(firstValue - 64) { bytes[i] = 0 }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return bytes
  }

  @Test func repairSalvagesEveryIntactRecordBehindADamagedIndex() throws {
    let home = TempHome()
    let cities = ["Oslo", "Lima", "London", "Madrid", "Dublin"]
    try #require(try home.run(["fav", "add"] + cities).status == 0)
    _ = try Self.wipeIndex(home.favourites)
    let doctor = try home.wx("doctor")
    #expect(doctor.status == 74, "\(doctor)")
    let repair = try home.wx("doctor", "--repair")
    #expect(repair.status == 0, "\(repair)")
    #expect(repair.stdout.contains("5 records kept, 0 damaged records lost"), "\(repair)")
    let list = try home.wx("fav", "list", "--json").json()
    #expect((list["items"] as? [Any])?.count == 5, "\(list)")
    #expect(try home.wx("doctor").status == 0)
  }

  @Test func repairCountsADamagedRecordAsLost() throws {
    let home = TempHome()
    try #require(try home.run(["fav", "add", "Oslo", "Lima", "London"]).status == 0)
    try DamagedFileTests.flip(home.favourites, inside: "Lima")
    let repair = try home.wx("doctor", "--repair")
    #expect(repair.stdout.contains("2 records kept, 1 damaged record lost"), "\(repair)")
    let list = try home.wx("fav", "list", "--json").json()
    #expect((list["items"] as? [Any])?.count == 2)
  }

  @Test func staleTempFilesAreRemovedByTheNextWriterAndByRepair() throws {
    let home = TempHome()
    try #require(try home.wx("list").status == 0)
    // Pids no process can have (above any pid_max): provably dead writers.
    let stale = [".favourites.gdbm.tmp.2147483647.1", ".catalogue.gdbm.tmp.2147483646.2", ".aqi.gdbm.tmp.2147483645.4"]
    for name in stale { try Data("x".utf8).write(to: URL(fileURLWithPath: home.path + "/" + name)) }
    let doctor = try home.wx("doctor")
    #expect(doctor.stdout.contains("3 left by an interrupted"), "\(doctor)")
    #expect(try home.wx("unit", "f").status == 0)
    for name in stale { #expect(!FileManager.default.fileExists(atPath: home.path + "/" + name), "\(name)") }

    for name in stale { try Data("x".utf8).write(to: URL(fileURLWithPath: home.path + "/" + name)) }
    let repair = try home.wx("doctor", "--repair")
    #expect(repair.status == 0 && repair.stdout.contains("removed 3"), "\(repair)")
    for name in stale { #expect(!FileManager.default.fileExists(atPath: home.path + "/" + name), "\(name)") }
  }

  @Test func storesLeftWithALooseModeAreReportedAndTightened() throws {
    let home = TempHome()
    try #require(try home.wx("fav", "add", "Oslo").status == 0)
    chmod(home.favourites, 0o644)
    let doctor = try home.wx("doctor")
    #expect(doctor.status == 74 && doctor.stdout.contains("mode 0644"), "\(doctor)")
    #expect(doctor.stdout.contains("others may read it (wx keeps"), "\(doctor)")
    // A store others may write is said so: not only "read".
    chmod(home.favourites, 0o666)
    let writable = try home.wx("doctor")
    #expect(writable.status == 74 && writable.stdout.contains("mode 0666: others may read or change it"), "\(writable)")
    #expect(try home.wx("doctor", "--repair").status == 0)
    #expect(Self.mode(home.favourites) == 0o600)
    #expect(try home.wx("doctor").status == 0)
  }

  /// A state folder that is a loop of symbolic links is the folder's matter: said of the
  /// folder, not blamed on a store's symbolic link.
  @Test func aStateFolderThatIsASymlinkLoopIsSaidPlainly() throws {
    let s = Scratch()
    let loop = s.path + "/home"
    try #require(symlink(loop, loop) == 0)
    let r = try runProcess(wxBinary, ["list"], environment: ["PATH": "/usr/bin:/bin", "WX_HOME": loop, "LANG": "C.UTF-8"])
    #expect(r.status == 74 && r.stderr.contains("loop of symbolic links") && !r.stderr.contains("catalogue.gdbm"), "\(r)")
  }
}
