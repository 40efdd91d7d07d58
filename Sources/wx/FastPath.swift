import WXCore

/// A hand-rolled parser for the plain forms of the read commands people and scripts run most
/// (`list`, `show`, `search`, `forecast`, `top`, `hottest` and `fav` / `fav list`), so they
/// skip ArgumentParser's start-up work (about 4 ms: it decodes the type metadata of every
/// option of every command).
///
/// It accepts exactly the options those commands declare, in `--name value`, `--name=value`
/// and `--flag` forms. Anything else (an unknown option, a bad value, `--help`, `-h`, a
/// combined short flag) returns nil and the normal parser runs, so all error messages and
/// help come from one place. Both paths call the same `perform` function;
/// `FastPathTests` checks they print the same bytes. `WX_NO_FASTPATH=1` turns it off.
enum FastPath {
  /// A command line the fast path understood, ready to run.
  enum Invocation {
    case list(page: Int, perPage: Int, sort: ListOrder, json: Bool, display: Display)
    case show(city: String?, json: Bool, display: Display)
    case search(prefix: String, page: Int, perPage: Int, json: Bool, display: Display)
    case forecast(city: String?, hottest: Bool, json: Bool, display: Display)
    case top(count: Int, json: Bool, display: Display)
    case hottest(page: Int, perPage: Int, json: Bool, display: Display)
    case favourites(sort: FavouriteOrder, json: Bool, display: Display)

    func perform() throws {
      switch self {
      case let .list(page, perPage, sort, json, display):
        try WX.List.perform(page: page, perPage: perPage, sort: sort, json: json, display: display)
      case let .show(city, json, display):
        try WX.Show.perform(city: city, json: json, display: display)
      case let .search(prefix, page, perPage, json, display):
        try WX.Search.perform(prefix: prefix, page: page, perPage: perPage, json: json, display: display)
      case let .forecast(city, hottest, json, display):
        try WX.Forecast.perform(city: city, hottest: hottest, json: json, display: display)
      case let .top(count, json, display):
        try WX.Top.perform(count: count, json: json, display: display)
      case let .hottest(page, perPage, json, display):
        try WX.Hottest.perform(page: page, perPage: perPage, json: json, display: display)
      case let .favourites(sort, json, display):
        try WX.Fav.List.perform(sort: sort, json: json, display: display)
      }
    }
  }

  /// Runs `args` (without the program name) if the fast path understands them: the exit
  /// status, or nil to let ArgumentParser handle the command line.
  static func run(_ args: [String]) -> Int32? {
    guard Environment.get("WX_NO_FASTPATH") == nil, let invocation = parse(args) else { return nil }
    do {
      try invocation.perform()
      return 0
    } catch {
      return ExitStatus.report(error).rawValue
    }
  }

  static func parse(_ args: [String]) -> Invocation? {
    guard var command = args.first else { return nil }
    var rest = Array(args.dropFirst())
    if command == "fav" {
      // `wx fav` is `wx fav list`; `add` and `remove` go through the parser.
      if rest.first == "list" { rest.removeFirst() }
      command = "fav list"
    }
    guard var parsed = Parsed(rest) else { return nil }
    let json = parsed.flag("json")
    switch command {
    case "list":
      guard let page = parsed.int("page", default: 1, 1...Int.max),
        let perPage = parsed.int("per-page", default: 20, 1...1000),
        let sort = parsed.value("sort", default: ListOrder.catalogue, ListOrder.init(rawValue:)),
        let display = parsed.display(), parsed.done(positionals: 0)
      else { return nil }
      return .list(page: page, perPage: perPage, sort: sort, json: json, display: display)
    case "show":
      guard let display = parsed.display(), parsed.done(positionals: Int.max) else { return nil }
      return .show(city: parsed.positionals.joinedName, json: json, display: display)
    case "search":
      guard let page = parsed.int("page", default: 1, 1...Int.max),
        let perPage = parsed.int("per-page", default: 20, 1...1000),
        let display = parsed.display(), parsed.done(positionals: Int.max), let prefix = parsed.positionals.joinedName,
        WX.Search.searchable(prefix)
      else { return nil }
      return .search(prefix: prefix, page: page, perPage: perPage, json: json, display: display)
    case "forecast":
      guard let display = parsed.display(), parsed.done(positionals: Int.max, flags: ["hottest"]) else { return nil }
      return .forecast(city: parsed.positionals.joinedName, hottest: parsed.flag("hottest"), json: json, display: display)
    case "top":
      guard let count = parsed.int("count", default: 5, WX.Top.counts),
        let display = parsed.display(), parsed.done(positionals: 0)
      else { return nil }
      return .top(count: count, json: json, display: display)
    case "hottest":
      guard let page = parsed.int("page", default: 1, 1...Int.max),
        let perPage = parsed.int("per-page", default: 20, 1...1000),
        let display = parsed.display(), parsed.done(positionals: 0)
      else { return nil }
      return .hottest(page: page, perPage: perPage, json: json, display: display)
    case "fav list":
      guard let sort = parsed.value("sort", default: FavouriteOrder.added, FavouriteOrder.init(rawValue:)),
        let display = parsed.display(), parsed.done(positionals: 0)
      else { return nil }
      return .favourites(sort: sort, json: json, display: display)
    default:
      return nil
    }
  }

  /// Options and positionals of one command line, consumed as they are read.
  struct Parsed {
    var options: [String: String] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    static let flagNames: Set<String> = ["json", "ascii", "hottest"]
    static let optionNames: Set<String> = ["page", "per-page", "sort", "unit", "color", "count"]

    init?(_ args: [String]) {
      var i = 0
      var onlyPositionals = false
      while i < args.count {
        let a = args[i]
        i += 1
        if onlyPositionals || !a.hasPrefix("-") || a == "-" {
          positionals.append(a)
          continue
        }
        if a == "--" { onlyPositionals = true; continue }
        guard a.hasPrefix("--") else { return nil }  // short options: let the real parser decide
        var name = String(a.dropFirst(2))
        var value: String?
        if let eq = name.firstIndex(of: "=") {
          value = String(name[name.index(after: eq)...])
          name = String(name[..<eq])
        }
        if Self.flagNames.contains(name) {
          guard value == nil, flags.insert(name).inserted else { return nil }
        } else if Self.optionNames.contains(name) {
          if value == nil {
            guard i < args.count, !args[i].hasPrefix("-") else { return nil }
            value = args[i]
            i += 1
          }
          guard options[name] == nil else { return nil }
          options[name] = value
        } else {
          return nil
        }
      }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    mutating func take(_ name: String) -> String? { options.removeValue(forKey: name) }

    mutating func int(_ name: String, default d: Int, _ range: ClosedRange<Int>) -> Int? {
      guard let raw = take(name) else { return d }
      guard let v = Int(raw), range.contains(v) else { return nil }
      return v
    }

    mutating func value<T>(_ name: String, default d: T, _ make: (String) -> T?) -> T? {
      guard let raw = take(name) else { return d }
      return make(raw)
    }

    mutating func display() -> Display? {
      var d = Display()
      if let raw = take("unit") {
        guard let u = TemperatureUnit(argument: raw) else { return nil }
        d.unit = u
      }
      if let raw = take("color") {
        guard let c = ColorMode(rawValue: raw) else { return nil }
        d.color = c
      }
      d.ascii = flag("ascii")
      return d
    }

    /// True when every option was used, there are at most `positionals` positionals, and
    /// no flag but `--json`, `--ascii` and the command's own `flags` was given.
    func done(positionals max: Int, flags own: Set<String> = []) -> Bool {
      options.isEmpty && positionals.count <= max && flags.isSubset(of: own.union(["json", "ascii"]))
    }
  }
}
