import Foundation
import Testing
import WXCore

/// Spaces and punctuation alone name no city: every command that takes a name says so the
/// same way (64), rather than looking it up and finding nothing (66).
@Suite struct EmptyNameTests {
  @Test(arguments: ["", ",", " - ", "'", "\u{200B}"])
  func aNameWithoutALetterOrDigitIsAUsageError(_ name: String) throws {
    let home = TempHome()
    for (command, what) in [
      (["show"], "CITY"), (["forecast"], "CITY"), (["fav", "add"], "CITY"), (["fav", "remove"], "CITY"), (["search"], "PREFIX"),
    ] {
      let run = try home.run(command + [name])
      #expect(run.status == 64, "\(command) \(run)")
      #expect(run.stderr.hasPrefix("wx: \(what) must contain at least one letter or digit"), "\(command) \(run)")
    }
    #expect(try home.wx("show", "Oslo").status == 0)
    #expect(try home.wx("show").stdout.contains("Oslo"))
  }
}
