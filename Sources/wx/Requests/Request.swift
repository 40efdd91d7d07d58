import WXCore

/// A command's plain form as a value. Both parsers fill the same request: ArgumentParser from
/// its declarations, whose defaults are read from `Self()`, and the fast path (FastPath.swift)
/// from ``options``. The request owns its defaults (its initial values) and its ranges
/// (``validate()``). ``FastPath/requests`` says which command words fill which request;
/// FastPathTests walks every option of every request against the ArgumentParser
/// declarations, so words, names, flags, defaults and ranges cannot drift apart.
protocol Request {
  /// The request with every default.
  init()
  /// Every option the command declares, as the fast path reads them.
  static var options: [RequestOption<Self>] { get }
  /// Whether the command takes positional words (a city or query typed without quotes).
  static var takesWords: Bool { get }
  /// Stores the words, joined with spaces (nil when none were given).
  mutating func take(words: String?)
  /// Throws for a value out of range: the one check both parsers run.
  func validate() throws(UsageError)
  /// Runs the request: what it shows, printed by ``Runner`` through `console`.
  func perform(_ console: Console) throws
  /// The request fetches first (`--refresh`): the fast path leaves it to the command, which
  /// may wait for the network.
  var fetchesFirst: Bool { get }
}

extension Request {
  var fetchesFirst: Bool { false }
  static var takesWords: Bool { false }
  mutating func take(words: String?) {}
  func validate() throws(UsageError) {}
}

/// One `--name` of a request: a flag, or an option with a value and a parser for it.
struct RequestOption<R> {
  let name: String
  let isFlag: Bool
  /// Stores `value` (ignored for a flag); false when the value is not one the option takes.
  let set: (inout R, String) -> Bool
  /// The value as `--help` shows the default; nil when there is none.
  let describe: (R) -> String?

  // Key paths are taken as autoclosures: a key path costs start-up time to instantiate, and
  // the fast path builds the whole table but sets only the options a command line names.

  static func flag(_ name: String, _ path: @autoclosure @escaping () -> WritableKeyPath<R, Bool>) -> Self {
    Self(
      name: name, isFlag: true,
      set: { r, _ in
        r[keyPath: path()] = true; return true
      }, describe: { _ in nil })
  }

  /// An option whose value `parse` reads into `path`; `describe` shows a default.
  static func value<T>(
    _ name: String, _ path: @autoclosure @escaping () -> WritableKeyPath<R, T>, _ parse: @escaping (String) -> T?,
    describe: @escaping (T) -> String?
  ) -> Self {
    Self(
      name: name, isFlag: false,
      set: { r, v in
        guard let t = parse(v) else { return false }
        r[keyPath: path()] = t
        return true
      }, describe: { describe($0[keyPath: path()]) })
  }

  /// A whole number; its range is the request's ``Request/validate()``'s business.
  static func int(_ name: String, _ path: @autoclosure @escaping () -> WritableKeyPath<R, Int>) -> Self {
    value(name, path(), { Int($0) }, describe: { String($0) })
  }

  static func choice<T: RawRepresentable<String>>(
    _ name: String, _ path: @autoclosure @escaping () -> WritableKeyPath<R, T>
  ) -> Self {
    value(name, path(), T.init(rawValue:), describe: { $0.rawValue })
  }

  /// An option with no default (`--unit`: the saved unit applies).
  static func parsed<T>(
    _ name: String, _ path: @autoclosure @escaping () -> WritableKeyPath<R, T?>, _ parse: @escaping (String) -> T?
  ) -> Self {
    // Spelled out: a nil from `parse` must stay "not a value", not become a value of nil.
    value(name, path(), { v -> T?? in parse(v).map { .some($0) } ?? nil }, describe: { _ in nil })
  }
}

/// `--json`, `--unit`, `--wind`, `--color` and `--ascii`: how a request's view is printed.
struct Output {
  var json = false
  var display = Display()
}

/// A request that prints a view: `--json` and the display options.
protocol OutputRequest: Request {
  var output: Output { get set }
  /// Shows what the request asks for in `ctx` (made for its display options).
  func show(in ctx: Context) throws
}

extension OutputRequest {
  func perform(_ console: Console) throws { try show(in: Context.make(console, display: output.display)) }
}

/// A request whose view is read from the catalogue.
protocol CatalogueRequest: OutputRequest {
  /// What the request shows, from the open catalogue.
  func view(_ ctx: Context, _ catalogue: Catalogue) throws -> any View
}

extension OutputRequest {
  static var outputOptions: [RequestOption<Self>] {
    [
      .flag("json", \.output.json), .parsed("unit", \.output.display.unit, TemperatureUnit.init(argument:)),
      .parsed("wind", \.output.display.wind, WindUnit.init(argument:)),
      .choice("color", \.output.display.color), .flag("ascii", \.output.display.ascii),
    ]
  }

}

extension CatalogueRequest {
  func show(in ctx: Context) throws {
    let catalogue = try ctx.catalogue()
    defer { catalogue.close() }
    Runner.show(try view(ctx, catalogue), json: output.json, ctx)
  }
}

/// `--page` and `--per-page`.
struct Pages {
  var page = 1
  var perPage = 20
  static let perPageRange = 1...1000
  static let perPageWords = "--per-page must be between \(perPageRange.lowerBound) and \(perPageRange.upperBound)"
  /// A page too large for any list (its first row past any number).
  static func pastEveryList(_ page: String) -> String { "page \(page) is past the end of any list" }

  func validate() throws(UsageError) {
    if page < 1 { throw UsageError("--page must be 1 or more") }
    if !Self.perPageRange.contains(perPage) { throw UsageError(Self.perPageWords) }
    // Every page arithmetic is checked: a page whose first row lies past any number is past the
    // end of any catalogue (as a page past the end is for `list`), never a trap.
    if (page - 1).multipliedReportingOverflow(by: perPage).overflow {
      throw UsageError(Self.pastEveryList(String(page)))
    }
  }
}

/// A request that pages through cities.
protocol PagedRequest: CatalogueRequest {
  var pages: Pages { get set }
}

extension PagedRequest {
  static var pageOptions: [RequestOption<Self>] { [.int("page", \.pages.page), .int("per-page", \.pages.perPage)] }
  func validate() throws(UsageError) { try pages.validate() }
}
