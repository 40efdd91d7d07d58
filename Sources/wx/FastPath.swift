import WXCore

/// A hand-rolled parser for the plain forms of `list`, `show` and `search`, the commands
/// people and scripts run most, so they skip ArgumentParser's start-up work.
///
/// It accepts exactly the options those commands declare, in `--name value`, `--name=value`
/// and `--flag` forms. Anything else (an unknown option, a bad value, `--help`, `-h`, a
/// combined short flag) returns nil and the normal parser runs, so all error messages and
/// help come from one place. Both paths call the same `perform` function;
/// `FastPathTests` checks they print the same bytes. `WX_NO_FASTPATH=1` turns it off.
enum FastPath {
  static func run(_ args: [String]) -> Int32? {
    guard let command = args.first, Environment.get("WX_NO_FASTPATH") == nil else { return nil }
    guard var parsed = Parsed(Array(args.dropFirst())) else { return nil }
    do {
      switch command {
      case "list":
        guard let page = parsed.int("page", default: 1, 1...Int.max),
          let perPage = parsed.int("per-page", default: 20, 1...1000),
          let sort = parsed.value("sort", default: ListOrder.catalogue, ListOrder.init(rawValue:)),
          let display = parsed.display(), parsed.done(positionals: 0)
        else { return nil }
        try WX.List.perform(page: page, perPage: perPage, sort: sort, json: parsed.flag("json"), display: display)
      case "show":
        guard let display = parsed.display(), parsed.done(positionals: 1) else { return nil }
        try WX.Show.perform(city: parsed.positionals.first, json: parsed.flag("json"), display: display)
      case "search":
        guard let page = parsed.int("page", default: 1, 1...Int.max),
          let perPage = parsed.int("per-page", default: 20, 1...1000),
          let display = parsed.display(), parsed.done(positionals: 1), parsed.positionals.count == 1,
          !Fold.key(parsed.positionals[0]).isEmpty
        else { return nil }
        try WX.Search.perform(
          prefix: parsed.positionals[0], page: page, perPage: perPage, json: parsed.flag("json"), display: display)
      default:
        return nil
      }
      return 0
    } catch {
      return ExitStatus.report(error).rawValue
    }
  }

  /// Options and positionals of one command line, consumed as they are read.
  struct Parsed {
    var options: [String: String] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    static let flagNames: Set<String> = ["json", "ascii"]
    static let optionNames: Set<String> = ["page", "per-page", "sort", "unit", "color"]

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

    /// True when every option was used and there are at most `positionals` positionals.
    func done(positionals max: Int) -> Bool {
      options.isEmpty && positionals.count <= max && flags.isSubset(of: ["json", "ascii"])
    }
  }
}
