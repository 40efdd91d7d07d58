import Foundation
import Testing

/// Commands only ask and show: every command's `execute` asks a WXCore service and hands
/// what it returns to a view, in at most ``limit`` lines; a flow that grows past that
/// belongs in a service (WXCore) or a request.
@Suite struct CommandShapeTests {
  static let limit = 15

  /// The body of each `func execute` in `text` (lines between its opening brace and the
  /// brace that closes it), without blank and comment-only lines, with its line number.
  static func executeBodies(_ text: String) -> [(line: Int, body: [String])] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var out: [(Int, [String])] = []
    for (n, line) in lines.enumerated() where line.contains("func execute(") && line.contains("{") {
      // `func execute() async throws { try request.perform() }`: one line.
      if line.hasSuffix("}") {
        out.append((n + 1, [line.trimmingCharacters(in: .whitespaces)]))
        continue
      }
      var depth = 0
      var body: [String] = []
      for k in n..<lines.count {
        // Braces in strings would miscount; commands' execute bodies hold none unbalanced.
        depth += lines[k].filter { $0 == "{" }.count - lines[k].filter { $0 == "}" }.count
        if k > n {
          if depth <= 0 { break }
          let code = lines[k].trimmingCharacters(in: .whitespaces)
          if !code.isEmpty && !code.hasPrefix("//") { body.append(code) }
        }
      }
      out.append((n + 1, body))
    }
    return out
  }

  @Test func theCounterCountsCodeLinesOnly() {
    let text = """
      struct A {
        func execute() async throws {
          let x = 1  // a comment after code counts

          // a comment alone does not
          if x > 0 { print(x) }
          switch x {
          case 1: break
          default: break
          }
        }
        func other() {}
      }
      struct B { func execute() async throws { try request.perform() } }
      """
    let bodies = Self.executeBodies(text)
    #expect(bodies.count == 2 && bodies[0].line == 2 && bodies[1].line == 14 && bodies[1].body.count == 1)
    #expect(bodies[0].body.count == 6, "\(bodies[0].body)")
  }

  @Test func everyExecuteIsShort() throws {
    let folder = repositoryRoot + "/Sources/wx"
    let files = try #require(FileManager.default.enumerator(atPath: folder)?.allObjects as? [String])
      .filter { $0.hasSuffix(".swift") }.sorted()
    var found = 0
    var long: [String] = []
    for file in files {
      let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
      for (line, body) in Self.executeBodies(text) {
        found += 1
        if body.count > Self.limit { long.append("Sources/wx/\(file):\(line): \(body.count) lines") }
      }
    }
    // Every subcommand has one (the counter must have found them to check them).
    #expect(found >= 18, "found \(found)")
    #expect(long.isEmpty, "execute longer than \(Self.limit) lines:\n\(long.joined(separator: "\n"))")
  }

  /// `make test` runs the tests that run wx-aqi-watch last, once its build (the longest) is
  /// done, by the pattern FEED in scripts/test.sh: every test that runs `wx aqi watch` (the
  /// `watch` helper, or the words) is matched by it, so none runs before the client exists.
  @Test func everyTestOfTheFeedClientWaitsForItsBuild() throws {
    let script = try String(contentsOfFile: repositoryRoot + "/scripts/test.sh", encoding: .utf8)
    let feed = try Regex(String(try #require(script.firstMatch(of: /FEED='([^']+)'/)?.1)))
    let folder = repositoryRoot + "/Tests/wxTests"
    var checked = 0
    for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".swift") {
      let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
      guard let suite = text.firstMatch(of: /(?m)^(?:@Suite(?:\([^)\n]*\))? )?(?:struct|extension) (\w+)/)?.1 else { continue }
      for test in text.components(separatedBy: "@Test").dropFirst() {
        guard test.contains(/\btry watch\(|"aqi", "watch"/), let name = test.firstMatch(of: /func (\w+)\(/)?.1 else { continue }
        checked += 1
        #expect(
          "wxTests.\(suite)/\(name)()".contains(feed), "\(file): \(name) runs wx-aqi-watch: add it to FEED in scripts/test.sh")
      }
    }
    #expect(checked >= 10, "found \(checked)")
  }
}
