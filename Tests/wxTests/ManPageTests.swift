import Foundation
import Testing

@testable import wx

/// The man page documents every subcommand and lints clean.
@Suite struct ManPageTests {
  @Test func everySubcommandIsInTheManPage() throws {
    let man = try String(contentsOfFile: repositoryRoot + "/man/wx.1", encoding: .utf8)
    let help = try TempHome().wx("--help").stdout
    let section = try #require(help.components(separatedBy: "SUBCOMMANDS:").last)
    let names = section.split(separator: "\n").compactMap { line -> String? in
      let t = line.trimmingCharacters(in: .whitespaces)
      guard !t.isEmpty, line.hasPrefix("  "), !line.hasPrefix("   "), !t.hasPrefix("See ") else { return nil }
      return String(t.split(separator: " ").first!)
    }
    #expect(names.count >= 12, "\(names)")
    for name in names + ["fav add", "fav remove"] {
      #expect(man.contains(".B wx \(name)"), "`wx \(name)` has no entry in COMMANDS")
    }
  }

  /// The EXIT STATUS section of wx(1) has a `.TP` / `.B code` entry for every status wx
  /// uses (``ExitStatus``), and no other; README's exit status table lists the same codes.
  @Test func exitStatusesAreDocumentedInTheManPageAndTheReadme() throws {
    let used = Set(ExitStatus.allCases.map { Int($0.rawValue) })
    #expect(used == [0, 1, 64, 65, 66, 69, 74, 75, 78])
    let man = try String(contentsOfFile: repositoryRoot + "/man/wx.1", encoding: .utf8)
    let section = try #require(man.components(separatedBy: "\n.SH EXIT STATUS\n").dropFirst().first)
      .components(separatedBy: "\n.SH ")[0].split(separator: "\n", omittingEmptySubsequences: false)
    let inManPage = section.indices.dropFirst().compactMap { i -> Int? in
      guard section[i - 1] == ".TP", section[i].hasPrefix(".B ") else { return nil }
      return Int(section[i].dropFirst(3))
    }
    #expect(inManPage.count == Set(inManPage).count, "\(inManPage)")
    #expect(Set(inManPage) == used, "\(inManPage)")
    let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
    let table = try #require(readme.components(separatedBy: "\n### Exit status\n").dropFirst().first)
      .components(separatedBy: "\n#")[0].split(separator: "\n")
    let inReadme = table.compactMap { row -> Int? in
      guard row.hasPrefix("| ") else { return nil }
      return Int(row.dropFirst(2).prefix { $0 != " " })
    }
    #expect(inReadme.count == Set(inReadme).count, "\(inReadme)")
    #expect(Set(inReadme) == used, "\(inReadme)")
  }

  @Test func groffReportsNothing() throws {
    let r = try runProcess(
      "/usr/bin/env", ["groff", "-man", "-ww", "-z", repositoryRoot + "/man/wx.1"],
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    #expect(r.status == 0 && r.stderr.isEmpty && r.stdout.isEmpty, "\(r)")
  }

  /// Read at 80 columns (`man` in an 80-column terminal), no line of the page is wider:
  /// examples and tables are not filled, so only their source keeps them narrow.
  @Test func everyLineFitsEightyColumns() throws {
    let r = try runProcess(
      "/usr/bin/env", ["groff", "-man", "-Tutf8", "-rLL=80n", "-P-cbou", repositoryRoot + "/man/wx.1"],
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(r.status == 0 && lines.count > 500, "\(r.stderr)")
    for (k, line) in lines.enumerated() {
      // The page's text is Latin and symbols: one column a character (no wide or combining ones).
      #expect(line.count <= 80 && !line.contains("\u{8}"), "line \(k + 1), \(line.count) columns: \(line)")
    }
  }
}
