import Foundation
import Testing

/// The atlas built once (`make install`, `make run`: `wx __build-atlas FOLDER`), read-only,
/// shared by every state folder: a new state folder answers from it and builds nothing.
@Suite struct SharedAtlasTests {
  @Test func aNewStateFolderUsesTheSharedAtlasAndBuildsNone() throws {
    let share = Scratch()
    for name in ["sample-weathers.json", "atlas.bin"] {
      try FileManager.default.copyItem(atPath: repositoryRoot + "/Data/" + name, toPath: share.file(name))
    }
    let build = try runProcess(wxBinary, ["__build-atlas", share.path], environment: ["PATH": "/usr/bin:/bin"], timeout: 300)
    #expect(build.status == 0 && build.stderr.contains("built the world atlas"), "\(build)")
    let attributes = try FileManager.default.attributesOfItem(atPath: share.file("atlas.gdbm"))
    #expect((attributes[.posixPermissions] as? Int) == 0o444)
    // Nothing else is left in the shared folder (no lock file, no temp file).
    #expect(
      Set(try FileManager.default.contentsOfDirectory(atPath: share.path))
        == ["sample-weathers.json", "atlas.bin", "atlas.gdbm", "sample-catalogue.gdbm"])
    // Built again: nothing to do.
    let again = try runProcess(wxBinary, ["__build-atlas", share.path], environment: ["PATH": "/usr/bin:/bin"], timeout: 300)
    #expect(again.status == 0 && again.stderr.isEmpty, "\(again)")

    let home = TempHome()
    let env = ["WX_ATLAS": "on", "WX_DATA_DIR": share.path]
    let search = try home.run(["search", "ljub"], env: env)
    #expect(search.status == 0 && search.stdout.contains("Ljubljana"), "\(search)")
    #expect(!FileManager.default.fileExists(atPath: home.file("atlas.gdbm")), "the state folder built its own")
    // Status names the atlas the commands read, by the same rule (Home.currentAtlas).
    let status = try home.run(["status"], env: env)
    #expect(status.stdout.contains(share.file("atlas.gdbm")), "\(status)")
    let ownStatus = try home.run(["status"], env: ["WX_ATLAS": "own", "WX_DATA_DIR": share.path])
    #expect(
      ownStatus.stdout.contains("built on first use") && !ownStatus.stdout.contains(share.file("atlas.gdbm")), "\(ownStatus)")
    // `WX_ATLAS=own` builds the state folder's own, as before.
    let own = try home.run(["search", "ljub"], env: ["WX_ATLAS": "own", "WX_DATA_DIR": share.path], timeout: 300)
    #expect(own.status == 0 && FileManager.default.fileExists(atPath: home.file("atlas.gdbm")), "\(own)")
    let built = try home.run(["status"], env: env)
    #expect(built.stdout.contains(home.file("atlas.gdbm")) && !built.stdout.contains(share.file("atlas.gdbm")), "\(built)")
    // A folder without atlas.bin: a clear error, exit 78.
    let empty = Scratch()
    let none = try runProcess(wxBinary, ["__build-atlas", empty.path], environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
    #expect(none.status == 78 && none.stderr.hasPrefix("wx: "), "\(none)")
  }

  /// A new state folder's first command copies the sample catalogue built beside the sample
  /// (`wx __build-atlas`) instead of building its own; one older than the sample (an upgrade
  /// that did not rebuild it) is passed over, and a damaged one is named by `wx doctor`.
  @Test func aNewStateFolderCopiesTheSharedSampleCatalogue() throws {
    let share = Scratch()
    for name in ["sample-weathers.json", "sample-weathers.crc32", "atlas.bin"] {
      try FileManager.default.copyItem(atPath: repositoryRoot + "/Data/" + name, toPath: share.file(name))
    }
    let build = try runProcess(wxBinary, ["__build-atlas", share.path], environment: ["PATH": "/usr/bin:/bin"], timeout: 300)
    #expect(build.status == 0 && build.stderr.contains("built the sample catalogue"), "\(build)")
    let shared = try Data(contentsOf: URL(fileURLWithPath: share.file("sample-catalogue.gdbm")))
    let mode = try FileManager.default.attributesOfItem(atPath: share.file("sample-catalogue.gdbm"))[.posixPermissions] as? Int
    #expect(mode == 0o444)
    let env = ["WX_DATA_DIR": share.path]
    let home = TempHome()
    let first = try home.run(["show", "Berlin"], env: env)
    #expect(first.status == 0 && first.stdout.contains("invented sample data"), "\(first)")
    #expect(first.stderr.contains("showing sample data"), "\(first)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: home.file("catalogue.gdbm"))) == shared, "not a copy of the shared one")
    let own = try FileManager.default.attributesOfItem(atPath: home.file("catalogue.gdbm"))[.posixPermissions] as? Int
    #expect(own == 0o600)
    #expect(try home.run(["doctor"], env: env).stdout.contains("all stores healthy"))
    // Each new state folder gets its own copy; a sync replaces it as any catalogue.
    let api = try FakeAPI()
    #expect(try home.run(["sync", "--url", api.url], env: env).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: home.file("catalogue.gdbm"))) != shared)
    #expect(try Data(contentsOf: URL(fileURLWithPath: share.file("sample-catalogue.gdbm"))) == shared)
    // A sample newer than the shared catalogue: the state folder builds its own from the sample.
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: share.file("sample-weathers.json"))
    let later = TempHome()
    #expect(try later.run(["list"], env: env).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: later.file("catalogue.gdbm"))) != shared)
    // A damaged shared catalogue is named, with what restores it.
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: share.file("sample-weathers.json"))
    let bytes = [UInt8](shared.prefix(shared.count / 2))
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: share.file("sample-catalogue.gdbm"))
    try Data(bytes).write(to: URL(fileURLWithPath: share.file("sample-catalogue.gdbm")))
    let doctor = try later.run(["doctor"], env: env)
    #expect(doctor.stdout.contains("shared sample") && doctor.stdout.contains("install wx again"), "\(doctor)")
    // One column of names, as wide as the longest ("shared sample", 13): every line's verdict
    // starts in column 15, as the others' do.
    let lines = doctor.stdout.split(separator: "\n").map { Array($0) }
    let named = lines.filter { $0.first != " " && $0.count > 15 && !$0.starts(with: "what ".map { $0 }) }
    #expect(named.count >= 3 && named.allSatisfy { $0[13] == " " && $0[14] != " " }, "\(doctor)")
  }

  /// Damaged shipped data is said plainly, by every command and by `wx doctor`, with what
  /// restores it (installing again), never "run `wx doctor --repair`", which cannot.
  @Test func damagedShippedDataSaysWhatRestoresIt() throws {
    let share = Scratch()
    for name in ["sample-weathers.json", "sample-weathers.crc32", "atlas.bin"] {
      try FileManager.default.copyItem(atPath: repositoryRoot + "/Data/" + name, toPath: share.file(name))
    }
    // One flipped digit in the sample: other weather, were it not for the checksum.
    var sample = try [UInt8](Data(contentsOf: URL(fileURLWithPath: share.file("sample-weathers.json"))))
    let digit = try #require(sample.firstIndex(of: UInt8(ascii: "7")))
    sample[digit] = UInt8(ascii: "8")
    try Data(sample).write(to: URL(fileURLWithPath: share.file("sample-weathers.json")))
    var atlas = try [UInt8](Data(contentsOf: URL(fileURLWithPath: share.file("atlas.bin"))))
    atlas[atlas.count / 2] ^= 0x10
    try Data(atlas).write(to: URL(fileURLWithPath: share.file("atlas.bin")))
    let home = TempHome()
    let env = ["WX_ATLAS": "on", "WX_DATA_DIR": share.path]
    let list = try home.run(["list"], env: env)
    #expect(
      list.status == 65 && list.stderr.contains("checksum does not match") && list.stderr.contains("install wx again"), "\(list)")
    let doctor = try home.run(["doctor", "--repair"], env: env)
    #expect(doctor.status == 74, "\(doctor)")
    #expect(
      doctor.stdout.contains("sample") && doctor.stdout.contains("atlas data") && doctor.stdout.contains("install wx again"),
      "\(doctor)")
    #expect(!doctor.stdout.contains("all stores healthy"), "\(doctor)")
    // With intact data again, the same state folder answers.
    let good = ["WX_ATLAS": "on", "WX_DATA_DIR": repositoryRoot + "/Data"]
    #expect(try home.run(["list"], env: good).status == 0)
  }
}
