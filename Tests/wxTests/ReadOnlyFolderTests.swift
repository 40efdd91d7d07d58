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
}
