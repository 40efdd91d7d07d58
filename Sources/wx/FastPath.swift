import WXCore

/// A small parser for the plain forms of the read commands people and scripts run most, so
/// they skip ArgumentParser's start-up work (it decodes the type metadata of every option of
/// every command: the figure is in PERFORMANCE.md).
///
/// It reads each ``Request``'s own option table, in `--name value`, `--name=value` and
/// `--flag` forms, and runs the request's own ``Request/validate()``. Anything else (an
/// unknown option, a bad value, a value out of range, `--help`, a short option) returns nil
/// and ArgumentParser runs, so every error message and all help come from one place.
/// FastPathTests checks the tables against ArgumentParser's declarations and that both paths
/// print the same bytes. `WX_NO_FASTPATH=1` turns it off.
enum FastPath {
  /// The request the command line's first words name, and how many words name it (`fav`
  /// alone is `fav list`, its default subcommand): the one list of them. A switch, not a
  /// table: an array of metatypes built its storage type at run time (1 % of `wx search par`).
  static func request(named args: [String]) -> (words: Int, type: any Request.Type)? {
    switch args.first {
    case "list": (1, ListRequest.self)
    case "show": (1, ShowRequest.self)
    case "search": (1, SearchRequest.self)
    case "forecast": (1, ForecastRequest.self)
    case "top": (1, TopRequest.self)
    case "hottest": (1, HottestRequest.self)
    case "fav": args.count > 1 && args[1] == "list" ? (2, FavListRequest.self) : (1, FavListRequest.self)
    default: nil
    }
  }

  /// Every command the fast path takes, by its words, for FastPathTests, which checks that
  /// ArgumentParser runs the same request for the same words and that no other command
  /// reaches the fast path.
  static var requests: [(words: [String], type: any Request.Type)] {
    [["list"], ["show"], ["search"], ["forecast"], ["top"], ["hottest"], ["fav", "list"], ["fav"]].compactMap { words in
      request(named: words).map { (words, $0.type) }
    }
  }

  /// Runs `args` (without the program name) if the fast path understands them: the exit
  /// status, or nil to let ArgumentParser handle the command line.
  static func run(_ args: [String], _ console: Console) -> Int32? {
    guard Environment.get("WX_NO_FASTPATH") == nil, let request = parse(args), !request.fetchesFirst else { return nil }
    do {
      try request.perform(console)
      return 0
    } catch {
      return ExitStatus.report(error, console).rawValue
    }
  }

  static func parse(_ args: [String]) -> (any Request)? {
    guard let (words, type) = request(named: args) else { return nil }
    return parse(type, Array(args.dropFirst(words)))
  }

  static func parse<R: Request>(_: R.Type, _ args: [String]) -> R? {
    var request = R()
    // Built only when an option is given: the table's key paths cost start-up time.
    var table: [RequestOption<R>]?
    var seen: [String] = []
    var words: [String] = []
    var onlyWords = false
    var i = 0
    while i < args.count {
      let a = args[i]
      i += 1
      if onlyWords || !a.hasPrefix("-") || a == "-" {
        words.append(a)
        continue
      }
      if a == "--" { onlyWords = true; continue }
      guard a.hasPrefix("--") else { return nil }  // short options: let the real parser decide
      var name = String(a.dropFirst(2))
      var value: String?
      if let eq = name.firstIndex(of: "=") {
        value = String(name[name.index(after: eq)...])
        name = String(name[..<eq])
      }
      if table == nil { table = R.options }
      // An index loop: `first(where:)` and `for in` would build an iterator type at run time
      // in this generic code (about 100k instructions, once a process).
      var found: RequestOption<R>?
      var k = 0
      while let t = table, k < t.count {
        if t[k].name == name { found = t[k]; break }
        k += 1
      }
      guard let option = found, !seen.contains(name) else { return nil }
      seen.append(name)
      if option.isFlag {
        guard value == nil else { return nil }
      } else if value == nil {
        // The next word is the value even when it starts with a dash, as ArgumentParser's
        // `.unconditional` options take it (`--format "- %t"`); a dash word no option's
        // parse accepts (`--unit --json`) returns nil below, and ArgumentParser says why.
        guard i < args.count else { return nil }
        value = args[i]
        i += 1
      }
      guard option.set(&request, value ?? "") else { return nil }
    }
    if R.takesWords {
      request.take(words: words.joinedName)
    } else if !words.isEmpty {
      return nil
    }
    do { try request.validate() } catch { return nil }
    return request
  }
}

extension FastPath {
  /// `wx __parse` (hidden; FastPathTests): reads command lines from standard input, one a
  /// line, words separated by tabs, and prints a line for each: what the fast path read,
  /// a tab, what ArgumentParser read, each the request's options and values
  /// (``described(_:)``) joined by U+001F, or `-` where that parser refuses the line. Both
  /// parsers run here as they run for users, in the binary as built; in the debug test
  /// bundle, ArgumentParser checks its declarations at every parse (30 to 290 ms each).
  static func check(_ console: Console) -> Int32 {
    var out = ""
    while let line = readLine(strippingNewline: true) {
      let args = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      let fast = parse(args).map(described)
      let slow = (try? WX.parseAsRoot(args)).flatMap { $0 as? any RequestCommand }.map { described($0.request) }
      func field(_ read: [String]?) -> String { read?.joined(separator: "\u{1F}") ?? "-" }
      out += field(fast) + "\t" + field(slow) + "\n"
    }
    console.data(String(out.dropLast()))
    return 0
  }

  /// Every option's value as `--help` would show it, then the request itself (its type and
  /// fields).
  static func described(_ request: any Request) -> [String] {
    func all<R: Request>(_ r: R) -> [String] { R.options.map { "\($0.name)=\($0.describe(r) ?? "-")" } + ["\(r)"] }
    return all(request)
  }
}
