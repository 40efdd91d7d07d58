import ArgumentParser
import WXCore
import WXFeed

/// Options every read command shares.
struct DisplayOptions: ParsableArguments {
  @Option(name: .customLong("unit"), help: "Temperature unit for this run only: c or f (default: the saved unit).")
  var unit: UnitArgument?

  @Option(
    name: .customLong("wind"),
    help: "Wind unit for this run only: kmh, mph, ms, knots or beaufort (default: the saved wind unit).")
  var wind: WindArgument?

  @Option(help: "Colour output: auto, always or never. NO_COLOR turns auto off.")
  var color: ColorMode = .auto

  @Flag(help: "Draw pictures and charts with plain ASCII.")
  var ascii = false

  var value: Display { Display(unit: unit?.unit, wind: wind?.unit, color: color, ascii: ascii) }
}

/// `--json` and the display options, as ArgumentParser declares them.
struct OutputOptions: ParsableArguments {
  @Flag(help: "Print JSON instead of text.") var json = false
  @OptionGroup var display: DisplayOptions

  var value: Output { Output(json: json, display: display.value) }
}

/// How to show results: the one-off unit, colour and ASCII choices.
struct Display {
  var unit: TemperatureUnit?
  var wind: WindUnit?
  var color: ColorMode = .auto
  var ascii = false
}

struct UnitArgument: ExpressibleByArgument {
  var unit: TemperatureUnit
  init?(argument: String) {
    guard let u = TemperatureUnit(argument: argument) else { return nil }
    unit = u
  }
  static var allValueStrings: [String] { ["c", "f", "celsius", "fahrenheit"] }
}

struct WindArgument: ExpressibleByArgument {
  var unit: WindUnit
  init?(argument: String) {
    guard let u = WindUnit(argument: argument) else { return nil }
    unit = u
  }
  static var allValueStrings: [String] { WindUnit.allCases.map(\.rawValue) }
}

extension ColorMode: ExpressibleByArgument {}

/// What a command runs with: the state folder, the console it prints through, the terminal its
/// views are shaped for, the clock.
struct Context {
  let home: Home
  let console: Console
  let terminal: Terminal
  /// When the command started (seconds since the epoch).
  let now: Int64
  /// `WX_NOW`: the time tests pin, in seconds since the epoch, instead of the clock's.
  let pinnedNow: Int64?

  /// The context of a command run by the process, from its environment; `console` shapes
  /// text for its terminal from now on.
  static func make(_ console: Console, display: Display? = nil) throws -> Context {
    Failpoint.active = Environment.get("WX_FAILPOINT")
    let pinned = try pinnedTime()
    let home = try Self.home(pinned: pinned)
    let terminal = Terminal(mode: display?.color ?? .auto, ascii: display?.ascii ?? false)
    console.use(terminal)  // what the writers shape for; views are handed `terminal`
    return Context(home: home, console: console, terminal: terminal, now: pinned ?? Clock.now(), pinnedNow: pinned)
  }

  /// The state folder the environment names (`WX_HOME`…), with its lock deadline
  /// (`WX_LOCK_TIMEOUT`) and the sample's candidates.
  static func home(pinned: Int64? = nil) throws -> Home {
    let deadline = try seconds("WX_LOCK_TIMEOUT", default: 5)
    // The one clock: the pinned time all along, else the system's, read where it is asked.
    let now: @Sendable () -> Int64 = { pinned ?? Clock.now() }
    return Home(directory: try stateDirectory(), sampleCandidates: sampleCandidates(), lockDeadline: deadline, now: now)
  }

  /// The time now: the pinned time all along when `WX_NOW` is set (a long `wx browse`); the
  /// state folder's clock (``WXCore/Home/now``) is this one.
  func currentTime() -> Int64 { home.now() }

  /// `WX_NOW`, a whole number of seconds since 1970-01-01 UTC (0 to 253402300799, the end of
  /// year 9999), or nil when unset.
  static func pinnedTime() throws -> Int64? {
    guard let raw = Environment.get("WX_NOW") else { return nil }
    guard let t = Int64(raw), (0...253_402_300_799).contains(t) else {
      throw ConfigError("WX_NOW=\(Redact.text(raw, limit: 40)) is not a time in seconds since 1970 (0–253402300799)")
    }
    return t
  }

  /// `WX_HOME`, else `$XDG_DATA_HOME/wx`, else `~/.local/share/wx`.
  static func stateDirectory() throws -> String {
    if let h = Environment.get("WX_HOME") {
      return h.hasPrefix("/") ? h : Environment.currentDirectory() + "/" + h
    }
    if let x = Environment.get("XDG_DATA_HOME"), x.hasPrefix("/") { return x + "/wx" }
    guard let home = Environment.homeDirectory() else {
      throw ConfigError("cannot find a state folder: set WX_HOME or HOME")
    }
    // A home folder that does not exist (a service account's /nonexistent) is no place to
    // create one in.
    guard FileSystem.isDirectory(home) || FileSystem.isDirectory(home + "/.") else {
      throw ConfigError("the home folder \(Redact.path(home).quoted()) does not exist: set WX_HOME to a folder for wx's files")
    }
    return home + "/.local/share/wx"
  }

  /// `$WX_DATA_DIR`, the installed share folder, then a source tree's `Data/` above the binary.
  static func sampleCandidates() -> [String] {
    let file = "sample-weathers.json"
    var list: [String] = []
    if let d = Environment.get("WX_DATA_DIR") { list.append(d + "/" + file) }
    // The executable's folder is canonical (/proc/self/exe), so its parents are taken by
    // name: status and doctor then show `PREFIX/share/wx`, not `PREFIX/bin/../share/wx`.
    if let exe = Environment.executableDirectory() {
      func under(_ dir: String, _ rest: String) -> String { (dir == "/" ? "" : dir) + rest }
      var dir = exe.isEmpty ? "/" : FileSystem.directoryName(exe)  // "": the binary is /wx
      list.append(under(dir, "/share/wx/" + file))
      for _ in 0..<6 {
        list.append(under(dir, "/Data/" + file))
        if dir == "/" { break }
        dir = FileSystem.directoryName(dir)
      }
    }
    return list
  }

  /// `allowZero: false` for a timeout, where 0 would mean none at all (WX_HTTP_TIMEOUT);
  /// WX_LOCK_TIMEOUT=0 rightly means "do not wait".
  static func seconds(_ name: String, default value: Double, allowZero: Bool = true) throws -> Double {
    guard let raw = Environment.get(name) else { return value }
    // Plain decimals only: Double() also reads `0x10` (16), `1e2`, `inf` and ` 5`.
    let plain =
      !raw.isEmpty && raw.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }
      && raw.utf8.filter { $0 == 0x2E }.count <= 1
    guard plain, let v = Double(raw), allowZero ? v >= 0 : v >= 0.001, v <= 3600 else {
      let range = allowZero ? "0–3600" : "more than 0, at most 3600"
      throw ConfigError("\(name)=\(Redact.text(raw, limit: 40)) is not a number of seconds (\(range))")
    }
    return v
  }

  /// The units to show: the one-off `--unit` and `--wind`, else the saved preferences (°C,
  /// wind following it, when the saved preferences cannot be read: see ``savedPreferences()``).
  func unit(_ display: Display) -> Units {
    if let unit = display.unit, let wind = display.wind { return Units(unit, wind: wind) }
    let saved = savedPreferences()
    return Units(display.unit ?? saved.unit, wind: display.wind ?? saved.wind)
  }

  /// The catalogue, seeded from the sample on first use (with a note on stderr, unless it is
  /// read `forSync`: a sync replacing the sample's cities showed "showing sample data").
  func catalogue(forSync: Bool = false) throws -> Catalogue {
    let (catalogue, seeded, unwritable) = try home.openCatalogue()
    if let unwritable {
      console.warn(unwritable, "showing the bundled sample without saving it (run `wx doctor`)")
    } else if seeded && !forSync {
      console.note("wx: showing sample data; run `wx sync`")  // fits 40 columns
    }
    ProcessLifetime.keep(catalogue)
    return catalogue
  }

  /// `synced 2026-11-22 10:04 (3h ago)`, plus a sample marker.
  func freshness(_ meta: CatalogueMeta) -> String {
    // The bundled sample was never synced (it read "synced … (just now)" on a first run).
    guard let synced = meta.synced else { return "sample data, run `wx sync`" }
    var s = "synced \(Clock.format(synced)) (\(Ages.ago(synced, now)))"
    if let samples = meta.bySource?.first, samples > 0 {
      // A refresh of some cities left others the sample's: the footer says how many.
      s += " · \(samples) of \(meta.count) cities sample data"
    }
    return s
  }
}

/// A subcommand that prints through the console it is given, and whose errors become
/// one-line messages and documented exit codes.
protocol WXCommand: AsyncParsableCommand {
  func execute(_ console: Console) async throws
}

extension WXCommand {
  /// Runs the command (``Main`` hands it the process's one console).
  func run(_ console: Console) async throws {
    do {
      try await execute(console)
    } catch let e as ExitCode {
      throw e
    } catch {
      throw ExitCode(ExitStatus.report(error, console).rawValue)
    }
  }

  /// ArgumentParser's own entry point, which wx does not take (``Main`` calls ``run(_:)``).
  func run() async throws { try await run(Console.standard()) }
}

/// A command whose plain form is a ``Request``: ArgumentParser's declarations fill it, as the
/// fast path's table does (FastPathTests compares what the two fill in).
protocol RequestCommand: WXCommand {
  associatedtype Filled: Request
  var request: Filled { get }
}

/// `--page` / `--per-page` as ArgumentParser declares them: defaults from ``Pages``, ranges
/// checked by the request.
struct PageOptions: ParsableArguments {
  // `.unconditional`: `--page -1` is a bad page number, not a missing value.
  @Option(parsing: .unconditional, help: "Page to show (from 1).") var page = Pages().page
  @Option(name: .customLong("per-page"), parsing: .unconditional, help: "Rows per page (1–1000).")
  var perPage = Pages().perPage

  var value: Pages { Pages(page: page, perPage: perPage) }
}

extension WXCommand {
  /// A request's range check, worded as ArgumentParser words its own (`Error: …`, exit 64).
  func check(_ request: some Request) throws {
    do { try request.validate() } catch { throw ValidationError(error.message) }
  }
}

extension Context {
  /// What a read command falls back to when its preferences cannot be read.
  static let usingDefaults = "using the default settings (°C, no last city)"

  /// The saved preferences for a read command: damaged or unreadable ones are warned about
  /// once and replaced by the defaults (°C, no last city). `wx unit` and writers use
  /// `home.preferences` directly and fail with 74 instead.
  func savedPreferences() -> Preferences {
    do {
      return try home.preferences.load()
    } catch {
      console.warn(error, Self.usingDefaults)
      return Preferences()
    }
  }
}
