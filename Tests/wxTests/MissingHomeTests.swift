import Foundation
import Testing
import WXCore

/// A service account's home (`/nonexistent`) is not created to hold wx's folder.
@Suite struct MissingHomeTests {
  @Test func aHomeThatDoesNotExistIsAConfigurationError() throws {
    let home = TempHome()
    let missing = home.path + "/nonexistent"
    for args in [["list"], ["status"], ["fav", "add", "Oslo"]] {
      let run = try home.run(args, env: ["WX_HOME": "", "XDG_DATA_HOME": "", "HOME": missing])
      #expect(run.status == 78, "\(args) \(run)")
      #expect(
        run.stderr == "wx: the home folder \"\(missing)\" does not exist: set WX_HOME to a folder for wx's files\n", "\(run)")
    }
    #expect(!FileManager.default.fileExists(atPath: missing))
    // An existing home is used as before.
    let ok = try home.run(["fav", "add", "Oslo"], env: ["WX_HOME": "", "XDG_DATA_HOME": ""])
    #expect(ok.status == 0, "\(ok)")
    #expect(FileManager.default.fileExists(atPath: home.path + "/.local/share/wx/favourites.gdbm"))
  }
}
