import ArgumentParser
import Glibc
import WXCore

extension WX {
  /// `wx alerts [PLACE…]`: rain, snow, thunderstorms, frost, heat, gusts, UV and a much warmer
  /// or colder tomorrow in the stored hours of the places (the favourites by default), offline.
  struct Alerts: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "What is coming: rain, storms, frost, heat, gusts, UV, offline from the stored hours.",
      discussion: """
        One line per event in the next --within (default 24h), place first, in time order, \
        from the hours a sync stored (--provider open-meteo: freetestapi, AccuWeather and the \
        sample have none, and wx says which places have none). Exits 0 when there is at least \
        one event, 1 when none (as grep). Unquoted words are read as by `wx fav add`: words that \
        together name a place are that one place (`wx alerts Oslo New York` is two), a word \
        ending in a comma goes with the next (`Springfield, Illinois, US`); none: the \
        favourites. With --notify, each event not sent yet goes to \
        notify-send (libnotify-bin); an event that changes is sent again once.
        """)

    @Argument(
      help: "Places (unquoted words as `wx fav add` reads them); none: the favourites.", completion: .custom(cityCompletions))
    var places: [String] = []
    @Option(help: ArgumentHelp("How far ahead to look (3h, 24h, 2d; at most 2d).", valueName: "duration"))
    var within = "24h"
    @Flag(help: "Send each new event to notify-send (a desktop notification), once.") var notify = false
    @OptionGroup var output: OutputOptions

    func validate() throws {
      guard let s = DurationText.seconds(within), s > 0, s <= 2 * 86_400 else {
        throw ValidationError("--within \(within.quoted(limit: 20)) is not a duration up to 2d (3h, 24h, 2d)")
      }
      do {
        for p in names { try TypedName.check(p, as: "PLACE") }
      } catch { throw ValidationError(error.message) }
      if notify && output.value.json { throw ValidationError("--notify and --json cannot be combined") }
    }

    /// The arguments with a word ending in a comma joined to the next, for the checks of
    /// ``validate()`` (the place book splits runs of words when they are looked up).
    var names: [String] {
      var out: [String] = []
      for word in places {
        if let last = out.last, last.hasSuffix(",") { out[out.count - 1] = last + " " + word } else { out.append(word) }
      }
      return out
    }

    func execute(_ console: Console) async throws {
      let ctx = try Context.make(console, display: output.value.display)
      let unit = ctx.unit(output.value.display)
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      let finder = try ctx.finder(catalogue)
      defer { finder.atlas?.close() }
      let places = try places(ctx, finder)
      let (rows, without) = AlertsView.rows(places, now: ctx.now, within: DurationText.seconds(within) ?? 86_400)
      if notify, let failed = try Notifier.send(rows, ctx, unit) {
        console.err("wx: notify-send failed (\(failed)); those events are sent at the next run")
      }
      show(rows, without: without, of: places.count, ctx, unit)
      if rows.isEmpty { throw NoMatch() }
    }

    /// The events, and which places have no stored hours to come (on stderr). Places without
    /// hours are no news either way: "nothing coming" is said only of data.
    func show(_ rows: [AlertsView.Row], without: [String], of count: Int, _ ctx: Context, _ unit: Units) {
      if !without.isEmpty {
        let list = without.map(\.visible).joined(separator: ", ")
        // Places named are no favourites: the command that gets their hours names them.
        // One command a place, with the place as named (`paris, fr` was two words and got
        // "--city PLACE for each", a helper's pass); past three, the rule.
        let command = { (place: String) in "`\(PlaceText.fetchCommand(place).visible)`" }
        let fetch =
          names.isEmpty
          ? "`wx sync --provider open-meteo --favourites`"
          : names.count == 1
            ? command(names[0])
            : without.count <= 3
              ? without.map(command).joined(separator: "; ") : "`wx sync --provider open-meteo --city NAME` for each"
        ctx.console.note("wx: no stored hours to come for \(list): run \(fetch)")
      }
      if !rows.isEmpty || without.count < count || output.value.json {
        Runner.show(AlertsView(rows: rows, unit: unit, now: ctx.now), json: output.value.json, ctx)
      }
    }

    /// The places named, else the favourites (none: said, exit 1).
    func places(_ ctx: Context, _ finder: PlaceFinder) throws -> [Found] {
      guard places.isEmpty else {
        // Runs of words split as `wx fav add` splits them (the place book's rule); a place named
        // twice is looked at once.
        return try finder.names.split(places).map {
          try ctx.resolvePlace($0, in: finder, remembering: false, command: "wx alerts")
        }
        .reduce(into: [Found]()) { out, f in if !out.contains(f) { out.append(f) } }
      }
      let found = try ctx.home.favourites.list().compactMap { try finder.found($0) }
      if found.isEmpty {
        ctx.console.err("wx: no favourites to look at: name places (`wx alerts Oslo`) or add one with `wx fav add CITY`")
        throw NoMatch()
      }
      return found
    }
  }
}

/// `wx alerts`' lines: `Oslo  Rain from 13:00 (94 %), about 2.5 mm, until 19:00`; JSON a list
/// of `{place, event, kind, start, end, value, unit}`.
struct AlertsView: View {
  struct Row {
    var city: City
    var event: Outlook.Event
    /// When the event starts, seconds since the epoch (rows of several places in time order).
    var epoch: Int64 { (event.start * 60) - Int64(city.observation?.utcOffsetSeconds ?? 0) }
    var place: String { "\(city.name), \(city.country)" }
  }
  var rows: [Row]
  var unit: Units
  var now: Int64

  /// Every place's events starting within `within` seconds, in time order; the names of the
  /// places with no stored hours to come.
  static func rows(_ places: [Found], now: Int64, within: Int64) -> (rows: [Row], without: [String]) {
    var rows: [Row] = []
    var without: [String] = []
    for place in places {
      guard let city = place.city, case .hours = city.hours(at: now) else {
        without.append(place.name)
        continue
      }
      rows += Outlook.events(city, now: now, until: now + within).map { Row(city: city, event: $0) }
    }
    return (rows.sorted { ($0.epoch, $0.event.event.order) < ($1.epoch, $1.event.event.order) }, without)
  }

  func json() -> JSON { .array(rows.map { OutlookText.json($0.event, place: $0.place, unit) }) }

  /// `Oslo  Rain from 15:00 …`: the place, then what, wrapped between words under it (never
  /// cut: the end of a spell is its point).
  func text(_ term: Terminal) -> String {
    guard !rows.isEmpty else { return "Nothing coming: no rain, storm, frost, heat, strong gusts or high UV." }
    let names = rows.map { $0.city.name.visible }
    let column = min(20, names.map(DisplayWidth.of).max() ?? 0) + 2
    var out: [String] = []
    for (r, name) in zip(rows, names) {
      var what = OutlookText.phrase(r.event, r.city, unit, now).visible
      if let data = OutlookText.dataTime(r.city, now) { what += " (from data of \(data))" }
      let lines = term.width.map { Ages.wrap(what, max(20, $0 - column)) } ?? [what]
      let lead = DisplayWidth.pad(name, to: column)
      out.append(lead + (lines.first ?? ""))
      for more in lines.dropFirst() { out.append(String(repeating: " ", count: column) + more) }
    }
    return out.joined(separator: "\n")
  }
}

/// Desktop notifications through `notify-send`, each event once (``SentAlerts``).
enum Notifier {
  /// Sends each new event; a description of the failures (`exit status 3`), nil when none failed.
  static func send(_ rows: [AlertsView.Row], _ ctx: Context, _ unit: Units) throws -> String? {
    guard let program = path(of: "notify-send") else { throw NoNotifier() }
    var failure: String?
    let entries = rows.map {
      SentAlerts.Entry(place: $0.place, event: $0.event, offset: $0.city.observation?.utcOffsetSeconds ?? 0)
    }
    _ = try ctx.home.sentAlerts.sendNew(entries, now: ctx.now) { i in
      let r = rows[i]
      // Arguments, never a shell: the place's name is untrusted text.
      let title = "wx: " + r.city.name.visible
      let body = OutlookText.phrase(r.event, r.city, unit, ctx.now).visible
      let status = run(program, ["--app-name=wx", title, body])
      if status != 0 { failure = status < 0 ? "it could not be started" : "exit status \(status)" }
      return status == 0
    }
    return failure
  }

  /// The program's path in `PATH`, if it is there.
  static func path(of name: String) -> String? {
    for dir in (Environment.get("PATH") ?? "/usr/bin:/bin").split(separator: ":") where !dir.isEmpty {
      let p = dir + "/" + name
      if access(p, X_OK) == 0 { return p }
    }
    return nil
  }

  /// Runs `program` with `args`, its output to /dev/null: its exit status (-1: not started;
  /// 128 + the signal that ended it).
  static func run(_ program: String, _ args: [String]) -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = ([program] + args).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, program, &actions, nil, argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7F != 0 ? 128 + (status & 0x7F) : (status >> 8) & 0xFF
  }

  struct NoNotifier: Error {}
}
