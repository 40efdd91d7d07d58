import Foundation
import Testing

@testable import wx

/// The fast path (FastPath.swift) and ArgumentParser must behave identically.
@Suite struct FastPathTests {
  static let cases: [[String]] = [
    ["list"], ["list", "--page", "2"], ["list", "--page=3", "--per-page", "7", "--json"], ["list", "--sort", "name"],
    ["list", "--sort", "temperature", "--unit", "f"], ["list", "--page", "99"], ["list", "--page", "0"],
    ["list", "--per-page", "5000"], ["list", "--sort", "bogus"], ["list", "--color", "always"], ["list", "--help"],
    ["show", "London"], ["show", "paris"], ["show", "Nowhere"], ["show", "London", "--json", "--unit", "f"],
    ["show", "--ascii", "Oslo"], ["show", "a", "b"], ["show", "-h"], ["show"],
    ["search", "par"], ["search", "s", "--page", "2", "--per-page", "3", "--json"], ["search", "zzzz"],
    ["search", "zzzz", "--json"], ["search", "--", "-x"], ["search", "!!"], ["search", "par", "--page", "40"],
    ["search"], ["list", "extra"], ["list", "-p", "2"],
    ["top"], ["top", "--count", "3", "--json"], ["top", "--count=1000", "--unit", "f"], ["top", "--count", "0"],
    ["top", "x"], ["top", "--hottest"],
    ["forecast"], ["forecast", "London"], ["forecast", "London", "--hottest", "--json"], ["forecast", "--hottest", "paris"],
    ["forecast", "Nowhere"], ["forecast", "London", "--count", "2"], ["forecast", "--hottest", "--hottest"],
    ["forecast", "London", "--hourly"], ["forecast", "London", "--hourly", "--hours", "3", "--json"],
    ["forecast", "London", "--hours", "3"], ["forecast", "--hourly", "--hottest"], ["forecast", "--hourly", "--hours=49"],
    ["show", "London", "--wind", "knots", "--json"], ["list", "--wind", "bft"], ["show", "--wind", "furlongs"],
    ["show", "London", "--format", "%l: %c %t %w"], ["show", "--format=%t"], ["show", "London", "--format", "%x"],
    ["show", "London", "--format", "%t", "--json"],
    ["hottest"], ["hottest", "--page", "2", "--per-page", "5"], ["hottest", "--page", "99"],
    ["hottest", "--json", "--color", "always"], ["hottest", "London"],
    ["fav"], ["fav", "list"], ["fav", "--sort", "name"], ["fav", "list", "--sort", "temperature", "--json"],
    ["fav", "list", "--sort", "bogus"], ["fav", "Paris"], ["fav", "list", "extra"], ["fav", "--help"],
    ["fav", "list", "--json", "--unit", "f"],
  ]

  @Test(arguments: cases)
  func sameOutputWithAndWithoutTheFastPath(_ args: [String]) throws {
    let home = TempHome()
    try home.wx("list")  // seed, so both runs start from the same store
    try home.wx("show", "Oslo")  // a last city, so `show` alone works
    try home.wx("fav", "add", "Oslo", "London", "Mumbai")  // favourites to list
    let fast = try home.run(args)
    let slow = try home.run(args, env: ["WX_NO_FASTPATH": "1"])
    #expect(fast.status == slow.status, "\(args)")
    #expect(maskingAges(fast.stdout) == maskingAges(slow.stdout), "\(args)")
    #expect(maskingAges(fast.stderr) == maskingAges(slow.stderr), "\(args)")
  }

  /// The fast path really takes the plain forms (else the test above would pass with it off),
  /// and leaves everything else to ArgumentParser.
  @Test func takesThePlainFormsAndNothingElse() throws {
    let taken: [([String], String)] = [
      (["list", "--page=3", "--per-page", "7", "--json"], "ListRequest"), (["show"], "ShowRequest"),
      (["show", "Oslo", "--ascii"], "ShowRequest"), (["show", "New", "York"], "ShowRequest"),
      (["search", "winston", "sa"], "SearchRequest"), (["search", "par", "--unit", "f"], "SearchRequest"),
      (["forecast", "London", "--hottest"], "ForecastRequest"), (["top"], "TopRequest"),
      (["forecast", "Oslo", "--hourly", "--hours", "48"], "ForecastRequest"), (["show", "--wind", "ms"], "ShowRequest"),
      (["show", "Oslo", "--format", "%c %t"], "ShowRequest"),
      (["top", "--count", "1000"], "TopRequest"), (["hottest", "--page", "2"], "HottestRequest"), (["fav"], "FavListRequest"),
      (["fav", "list", "--sort", "name", "--json"], "FavListRequest"),
    ]
    for (args, name) in taken {
      let invocation = try #require(FastPath.parse(args), "\(args)")
      #expect(String(describing: invocation).hasPrefix(name + "("), "\(args): \(invocation)")
    }
    let left: [[String]] = [
      ["list", "--help"], ["list", "--per-page", "5000"], ["list", "--sort", "bogus"], ["list", "-p", "2"], ["search", "."],
      ["search", "-", "'"],
      ["search"], ["search", ""], ["forecast", "--hottest", "--hottest"], ["top", "--count", "0"], ["top", "--hottest"],
      ["hottest", "London"], ["fav", "add", "Oslo"], ["fav", "remove", "Oslo"], ["fav", "Paris"], ["fav", "--help"],
      ["sync"], ["status"], ["unit", "f"], ["aqi"], ["--version"], [],
    ]
    for args in left { #expect(FastPath.parse(args) == nil, "\(args)") }
  }

  /// Every request the fast path takes, against ArgumentParser's declarations of the same
  /// command (`--experimental-dump-help`): the same words run the same request, with the same
  /// option names, each a flag on both sides or a value on both, the same defaults, a
  /// positional argument on both sides or neither, and the same values accepted, so a range
  /// or a choice cannot be narrowed in one parser only.
  @Test(arguments: FastPath.requests.map(\.words))
  func requestsDeclareWhatArgumentParserDeclares(_ words: [String]) throws {
    // `fav` alone runs its default subcommand, `fav list`: its declarations are that one's.
    let r = try TempHome().run((words == ["fav"] ? ["fav", "list"] : words) + ["--experimental-dump-help"])
    let tool = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let command = try #require(tool["command"] as? [String: Any])
    let arguments = try #require(command["arguments"] as? [[String: Any]])
    var declared: [String: String?] = [:]
    var flags: Set<String> = []
    var positional = false
    for a in arguments {
      let names = (a["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
      if a["kind"] as? String == "positional" { positional = true; continue }
      guard let long = names.last, !["help", "version"].contains(long) else { continue }
      declared[long] = a["defaultValue"] as? String
      if a["kind"] as? String == "flag" { flags.insert(long) }
    }
    let requestType = try #require(FastPath.requests.first { $0.words == words }?.type)
    func check<R: Request>(_: R.Type) throws {
      let word = R.takesWords ? ["par"] : []
      let fast = R.options
      #expect(Set(fast.map(\.name)) == Set(declared.keys), "\(words): option names")
      #expect(Set(fast.filter(\.isFlag).map(\.name)) == flags, "\(words): flags")
      for o in fast { #expect(declared[o.name] == o.describe(R()), "\(words) --\(o.name): default") }
      #expect(R.takesWords == positional, "\(words): positional")
      // Both parsers read each line in the release binary (`wx __parse`). Flags once; values:
      // any text and a few numbers first, then, for an option that takes a number, both sides
      // of every edge a range of wx has or might have (0/1, and 10^k, 5·10^k, 2^k up to
      // 100001), and for every option far ones and every word any choice takes, so a range or
      // a choice narrowed in one parser only is caught, and a value read differently.
      let alone = words + word
      var probes: [[[String]]] = [[alone]]
      for o in fast {
        probes.append(o.isFlag ? [alone + ["--" + o.name]] : (["bogus"] + Self.numberProbes).map { alone + ["--" + o.name, $0] })
      }
      var lines = probes.flatMap { $0 }
      var answers = try Self.bothParsers(lines)
      // The words alone: ArgumentParser runs the request the fast path runs.
      let runs = answers[0].slow?.last ?? "nothing"
      #expect(runs.hasPrefix("\(R.self)("), "\(words): ArgumentParser runs \(runs), the fast path \(R.self)")
      var more: [[String]] = []
      var at = 1
      for (o, tried) in zip(fast, probes.dropFirst()) {
        defer { at += tried.count }
        if o.isFlag { continue }
        let taken = answers[at..<(at + tried.count)].map { $0.fast != nil || $0.slow != nil }
        let numeric = !taken[0] && taken.dropFirst().contains(true)
        more += ((numeric ? Self.edges.map { String($0) } : []) + Self.farAndWords).map { alone + ["--" + o.name, $0] }
      }
      lines += more
      answers += try Self.bothParsers(more)
      for (args, a) in zip(lines, answers) {
        #expect((a.fast != nil) == (a.slow != nil), "\(args): fast path and ArgumentParser disagree")
        if let quick = a.fast, let slow = a.slow { #expect(quick == slow, "\(args): the two parsers read different values") }
      }
    }
    try check(requestType)
  }

  /// What the fast path and ArgumentParser read from each line, in the release binary
  /// (`wx __parse`): each request's options and values, or nil where a parser refuses it.
  static func bothParsers(_ lines: [[String]]) throws -> [(fast: [String]?, slow: [String]?)] {
    let input = lines.map { $0.joined(separator: "\t") }.joined(separator: "\n") + "\n"
    let r = try TempHome().run(["__parse"], stdin: input)
    try #require(r.status == 0, "\(r)")
    let out = r.stdout.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.split(separator: "\t", omittingEmptySubsequences: false).map {
        $0 == "-" ? nil : $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
      }
    }
    try #require(out.count == lines.count && out.allSatisfy { $0.count == 2 }, "\(r)")
    return out.map { ($0[0], $0[1]) }
  }

  static let edges: [Int] = {
    var anchors = [0, 1]
    for k in 1...5 {
      let ten = Int(pow(10, Double(k)))
      anchors += [ten, ten / 2]
    }
    anchors += (4...16).map { 1 << $0 }
    return Array(Set(anchors.flatMap { [$0 - 1, $0, $0 + 1] } + [-2, 2, 3])).sorted()
  }()

  /// The numbers tried first: when neither parser takes any of them, the option is not a number.
  static let numberProbes = ["0", "1", "-2", "2", "16", "5000", "100001"]

  static let farAndWords =
    ["5000", "99999", "1e3", "0x10", "+5", " 5", "", "bogus"]
    + ["c", "f", "celsius", "fahrenheit", "auto", "always", "never", "name", "added", "temperature", "catalogue"]
    + ["kmh", "km/h", "mph", "ms", "m/s", "knots", "kn", "beaufort", "bft", "Bft"]
}
