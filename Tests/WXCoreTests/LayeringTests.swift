import Foundation
import Testing

@testable import WXCore

/// WXCore (and WXFeed under it) returns values and typed errors; wx words them. No string in
/// their code names a `wx` command, an option or an environment variable: remedies are
/// ``Remedy`` values.
@Suite struct LayeringTests {
  static let sources = URL(fileURLWithPath: repositoryRoot).appendingPathComponent("Sources")

  @Test func noCommandLineWordsInWXCore() throws {
    let files = try ["WXCore", "WXFeed"].flatMap { module in
      let folder = Self.sources.appendingPathComponent(module).path
      return try #require(FileManager.default.enumerator(atPath: folder)?.allObjects as? [String])
        .filter { $0.hasSuffix(".swift") }.map { module + "/" + $0 }
    }
    #expect(files.count > 30)
    let words = try Regex(#""[^"\n]*(`wx |--[a-z]|WX_[A-Z])[^"\n]*""#)
    var found: [String] = []
    for file in files {
      let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
      for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let code = line.trimmingCharacters(in: .whitespaces)
        if code.hasPrefix("//") { continue }
        if line.contains(words) { found.append("\(file):\(n + 1): \(code)") }
      }
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  /// A name that names no place, or several, is one error whatever names were asked (issue
  /// 30: the catalogue's and the atlas's were two, worded twice by wx).
  @Test func oneLookupError() throws {
    let folder = Self.sources.appendingPathComponent("WXCore").path
    let files = try #require(FileManager.default.enumerator(atPath: folder)?.allObjects as? [String])
    let declaration = try Regex(#"(enum|struct|class) [A-Za-z]*Lookup[A-Za-z]*Error\b"#)
    var declared: [String] = []
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
      declared += text.matches(of: declaration).map { String(text[$0.range]) }
    }
    #expect(declared == ["enum LookupError"])
  }

  @Test func errorsCarryTheirRemedyAsAValue() {
    #expect(StoreError.damaged(path: "/x", detail: "bad").remedy == .repair)
    // A read-only mount: wx said "Read-only file system (EROFS)" and no fix.
    #expect(StoreError.io(path: "/x", operation: "writing in", errno: EROFS).remedy == .useAWritableFolder)
    #expect(StoreError.io(path: "/x", operation: "writing in", errno: EIO).remedy == nil)
    #expect(SyncError.shrinks(url: "http://h/", from: 100, to: 1).remedy == .allowShrink)
    #expect(SyncError.missingKey(provider: "accuweather").description == "accuweather needs an API key")
    #expect(HomeError.noSample(searched: []).remedy == .syncOrFindTheSample)
  }
}
