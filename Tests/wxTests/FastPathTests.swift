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
      let runs = try #require(try WX.parseAsRoot(words + word) as? any RequestCommand, "\(words)")
      let request = type(of: runs.request as any Request)
      #expect(
        ObjectIdentifier(request) == ObjectIdentifier(R.self), "\(words): ArgumentParser runs \(request), the fast path \(R.self)"
      )
      let fast = R.options
      #expect(Set(fast.map(\.name)) == Set(declared.keys), "\(words): option names")
      #expect(Set(fast.filter(\.isFlag).map(\.name)) == flags, "\(words): flags")
      for o in fast { #expect(declared[o.name] == o.describe(R()), "\(words) --\(o.name): default") }
      #expect(R.takesWords == positional, "\(words): positional")
      for o in fast {
        // Flags once; values: both sides of every edge a range of wx has or might have (0/1,
        // and 10^k, 5·10^k, 2^k up to 100001), far ones and every word any choice takes, so a
        // range or a choice narrowed in one parser only is caught, and a value read differently.
        // Each ArgumentParser parse of this debug build runs its declaration checks (`#if
        // DEBUG`) over every command above the one parsed, 30 to 290 ms a parse: past the
        // probes, the values are parsed by the command itself (``leafParse(_:_:)``), which the
        // probes show reads them as the whole command line does, and the numeric edges are
        // tried only on options that take a number: 161 s of CPU is 84.
        func parsed(_ v: String?, root: Bool = false) -> (quick: (any Request)?, slow: (any RequestCommand)?) {
          let args = words + word + ["--" + o.name] + (v.map { [$0] } ?? [])
          let slow =
            root
            ? (try? WX.parseAsRoot(args)).flatMap { $0 as? any RequestCommand }
            : Self.leafParse(runs, Array(args.dropFirst(words.count)))
          return (FastPath.parse(args), slow)
        }
        func agree(_ v: String?, root: Bool = false) -> Bool {
          let (quick, slow) = parsed(v, root: root)
          let args = words + word + ["--" + o.name] + (v.map { [$0] } ?? [])
          #expect((quick != nil) == (slow != nil), "\(args): fast path and ArgumentParser disagree")
          if let quick, let slow {
            #expect(Self.described(quick) == Self.described(slow.request), "\(args): the two parsers read different values")
          }
          if root { #expect((slow != nil) == (parsed(v).slow != nil), "\(args): the command alone reads it otherwise") }
          return quick != nil || slow != nil
        }
        if o.isFlag {
          _ = agree(nil, root: true)
          continue
        }
        // Any text (`--format`: no range), and a few numbers (a choice takes none: no edges to
        // try), the first two from the whole command line.
        let anyText = agree("bogus", root: true)
        let numeric = Self.numberProbes.enumerated().map { agree($1, root: $0 == 0) }.contains(true) && !anyText
        // The first value taken goes through the whole command line too (`fav` alone runs
        // `fav list`): the values read are compared there as well.
        var throughRoot = false
        for v in (numeric ? Self.edges.map { String($0) } : []) + Self.farAndWords where agree(v, root: !throughRoot) {
          throughRoot = true
        }
      }
    }
    try check(requestType)
  }

  /// `args` parsed by the command `sample` is, as the root would after the command's words.
  static func leafParse<C: RequestCommand>(_ sample: C, _ args: [String]) -> (any RequestCommand)? { try? C.parse(args) }

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

  /// Every option's value as `--help` would show it, plus the words and the output options.
  static func described(_ request: any Request) -> [String] {
    func all<R: Request>(_ r: R) -> [String] { R.options.map { "\($0.name)=\($0.describe(r) ?? "-")" } + ["\(r)"] }
    return all(request)
  }
}
