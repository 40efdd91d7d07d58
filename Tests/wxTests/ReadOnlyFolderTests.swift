import Foundation
import Testing
import WXCore

@Suite struct ReadOnlyFolderTests {
  /// An empty state folder that cannot be written (immutable: even root cannot write to it)
  /// still answers from the bundled sample, with one warning, and leaves nothing behind.
  @Test func anEmptyReadOnlyFolderShowsTheSample() throws {
    let home = TempHome()
    let chattr = try runProcess("/usr/bin/chattr", ["+i", home.path], environment: ["PATH": "/usr/bin:/bin"])
    try #require(chattr.status == 0, "chattr +i is needed for this test: \(chattr)")
    defer { _ = try? runProcess("/usr/bin/chattr", ["-i", home.path], environment: ["PATH": "/usr/bin:/bin"]) }
    let before = Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? [])
    let r = try home.wx("top")
    #expect(r.status == 0, "\(r)")
    #expect(r.stdout.contains("New York"), "\(r.stdout)")
    #expect(r.stderr.components(separatedBy: "warning").count == 2, "one warning: \(r.stderr)")
    let after = Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? [])
    #expect(after.subtracting(before).filter { $0.hasPrefix("wx-sample-") }.isEmpty, "the temporary copy is gone")
    #expect(try home.wx("show", "Oslo").status == 0)
    // The shared atlas answers, with no word about the atlas.
    let shared = try home.wx("search", "ljub")
    #expect(shared.stdout.contains("Ljubljana") && !shared.stderr.contains("atlas"), "\(shared)")
    // Its own atlas cannot be built there, and a second warning says so (the folder's first
    // one hid it: the atlas went silently missing).
    let atlas = try home.wx("search", "ljub", env: ["WX_ATLAS": "own"])
    #expect(atlas.stderr.contains("showing the bundled sample without saving it"), "\(atlas)")
    #expect(atlas.stderr.contains("/atlas.gdbm;") && atlas.stderr.contains("using the catalogue without the atlas"), "\(atlas)")
  }

  /// In a folder wx may read but not write, doctor still checks the stores: a damaged one,
  /// which every command there reports ("run `wx doctor --repair`"), is named, though none
  /// can be repaired (doctor said only that the folder was unusable).
  @Test func doctorInAReadOnlyFolderStillNamesADamagedStore() throws {
    let home = TempHome()
    #expect(try home.wx("fav", "add", "Oslo", "Lima").status == 0)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: home.favourites)))
    let at = try #require((0..<(bytes.count - 4)).first { bytes[$0..<$0 + 4].elementsEqual(Array("Lima".utf8)) })
    bytes[at + 1] ^= 0x20
    try Data(bytes).write(to: URL(fileURLWithPath: home.favourites))
    let chattr = try runProcess("/usr/bin/chattr", ["+i", home.path], environment: ["PATH": "/usr/bin:/bin"])
    try #require(chattr.status == 0, "chattr +i is needed for this test: \(chattr)")
    defer { _ = try? runProcess("/usr/bin/chattr", ["-i", home.path], environment: ["PATH": "/usr/bin:/bin"]) }
    for args in [["doctor"], ["doctor", "--repair"]] {
      let r = try home.run(args)
      #expect(r.status == 74, "\(r)")
      #expect(r.stdout.contains("state folder") && r.stdout.contains("set WX_HOME"), "\(r)")
      let line = r.stdout.split(separator: "\n").first { $0.hasPrefix("favourites") } ?? ""
      #expect(line.contains("damaged"), "\(r.stdout)")
      #expect(!r.stdout.contains("repaired"), "\(r.stdout)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: home.favourites)) == Data(bytes))
  }
}
