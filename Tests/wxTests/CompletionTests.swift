import Foundation
import Testing

@Suite struct CompletionTests {
  @Test(arguments: ["bash", "zsh", "fish"])
  func scriptsCompleteCityArgumentsThroughWx(_ shell: String) throws {
    let r = try TempHome().wx("completion", shell)
    #expect(r.status == 0)
    #expect(r.stdout.contains("---completion show"), "city completion for show")
    #expect(r.stdout.contains("---completion fav add"), "city completion for fav add")
  }

  @Test func cityNamesCompleteFromTheTrieOffline() throws {
    let home = TempHome()
    try home.wx("list")
    func complete(_ words: [String]) throws -> [String] {
      let r = try home.run(["---completion", "show", "--", "positional@0", "2", String(words.last!.count), "wx", "show"] + words)
      return r.stdout.split(separator: "\n").map(String.init)
    }
    #expect(try complete(["zu"]) == ["Zurich", "Zürich"] || complete(["zu"]) == ["Zürich", "Zurich"])
    #expect(try complete(["PAR"]) == ["Paris"])
    #expect(try complete(["łód"]) == ["Łódź"])
    #expect(try complete(["łó"]) == ["Łódź", "London"])  // folded: "lo"
    #expect(try complete(["qqq"]).isEmpty)
  }

  @Test func anInstalledBinaryFindsTheSampleBesideItsShareFolder() throws {
    let home = TempHome()
    let prefix = home.path + "/prefix"
    try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: prefix + "/share/wx", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: wxBinary, toPath: prefix + "/bin/wx")
    try FileManager.default.copyItem(atPath: sampleFile, toPath: prefix + "/share/wx/sample-weathers.json")
    let r = try runProcess(prefix + "/bin/wx", ["list", "--json"],
      environment: ["WX_HOME": home.path + "/state", "LANG": "C.UTF-8", "HOME": home.path])
    #expect(r.status == 0, "\(r)")
    #expect(try r.json()["total"] as? Int == (try records(sampleFile)).count)
    // Without the sample and without a catalogue: a clear configuration error.
    try FileManager.default.removeItem(atPath: prefix + "/share/wx/sample-weathers.json")
    let none = try runProcess(prefix + "/bin/wx", ["list"],
      environment: ["WX_HOME": home.path + "/empty", "LANG": "C.UTF-8", "HOME": home.path])
    #expect(none.status == 78 && none.stderr.contains("wx sync"), "\(none)")
  }
}
