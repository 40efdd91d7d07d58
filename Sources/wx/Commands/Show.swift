import ArgumentParser
import WXCore

/// `wx show`: one city's weather and forecast (the last city shown without CITY).
struct ShowRequest: CatalogueRequest {
  static var options: [RequestOption<Self>] {
    [
      .parsed("format", \.format, { $0 }), .parsed("max-age", \.maxAge, { $0 }), .flag("refresh", \.refresh),
      .flag("waybar", \.waybar), .flag("i3blocks", \.i3blocks),
    ] + outputOptions
  }
  static let takesWords = true
  mutating func take(words: String?) { city = words }
  var city: String?

  /// Without CITY, the last city shown; a CITY given must name something.
  func validate() throws(UsageError) {
    if let city { try TypedName.check(city, as: "CITY") }
    if let format {
      if output.json { throw UsageError("--format and --json cannot be combined") }
      try FormatLine.check(format)
    }
    if waybar && i3blocks { throw UsageError("--waybar and --i3blocks cannot be combined") }
    if (waybar || i3blocks) && output.json {
      throw UsageError("--\(waybar ? "waybar" : "i3blocks") prints its own format: it goes without --json")
    }
    if let maxAge, DurationText.seconds(maxAge) == nil {
      throw UsageError("--max-age \(maxAge.quoted(limit: 20)) is not a duration (90m, 3h, 2d, 1h30m)")
    }
  }
  /// `--max-age`: values older than this (or invented) are stale: `--format` prints `?` for
  /// them, and wx exits 1.
  var maxAge: String?
  /// `--refresh`: the place's weather fetched from Open-Meteo first (``PlaceRefresh``).
  var refresh = false
  /// `--waybar`, `--i3blocks`: what those status bars read (``StatusBarView``).
  var waybar = false
  var i3blocks = false
  /// A status bar's line: `--format`, `--waybar` or `--i3blocks` (notes muted, the last city
  /// left as it was).
  var forABar: Bool { format != nil || waybar || i3blocks }
  /// The status bar asked for, if any.
  var bar: StatusBarView.Bar? { waybar ? .waybar : i3blocks ? .i3blocks : nil }
  var fetchesFirst: Bool { refresh }
  /// Whether the place becomes the last city shown (not when `wx sync --city` shows it).
  var remembers = true

  /// Opens the catalogue (notes muted for `--format`: a status bar reads the line alone),
  /// shows the view, then exits 1 when `--max-age` finds the values stale.
  func show(in ctx: Context) throws {
    if forABar { ctx.console.notesMuted = true }
    let catalogue = try ctx.catalogue()
    defer { catalogue.close() }
    let (view, city) = try resolved(ctx, catalogue)
    Runner.show(view, json: output.json, ctx)
    if let limit = maxAge.flatMap(DurationText.seconds), city?.origin.isOlder(than: limit, at: ctx.now) ?? true {
      throw NoMatch()
    }
  }

  func view(_ ctx: Context, _ catalogue: Catalogue) throws -> any View { try resolved(ctx, catalogue).view }
  /// One line of wttr.in's specifiers instead of the view (status bars: the last city shown
  /// is not changed by it).
  var format: String?
  var output = Output()

  /// The words as places (the one resolver's runs of words), each once.
  func severalPlaces(_ finder: PlaceFinder) throws -> [Found] {
    try finder.lookup(words: (city ?? "").split(separator: " ").map(String.init)).map(\.found)
  }

  /// One `--format` line a place; with `--max-age`, a place's values past it print `?`.
  func lines(_ places: [Found], _ ctx: Context) -> FormatLine.Lines {
    let limit = maxAge.flatMap(DurationText.seconds)
    return FormatLine.Lines(
      places.map { p in
        var line = FormatLine(place: p, unit: ctx.unit(output.display), format: format ?? "%t", ctx)
        line.stale = limit.map { l in p.city.map { $0.origin.isOlder(than: l, at: ctx.now) } ?? true } ?? false
        return line
      })
  }

  /// The view and the city whose weather it shows (nil for an atlas place without weather).
  func resolved(_ ctx: Context, _ catalogue: Catalogue) throws -> (view: any View, city: City?) {
    let finder = try ctx.finder(catalogue)
    defer { finder.atlas?.close() }
    let found: Found
    do {
      found = try ctx.resolvePlace(city, in: finder, remembering: !forABar && remembers)
    } catch {
      // `wx show Oslo Tokyo New York --format FMT`: several places, one line each, the words
      // read as `wx fav add` reads them (its errors name the word that names no one place).
      guard format != nil || bar != nil, let words = city, words.contains(" ") else { throw error }
      let several = try severalPlaces(finder)
      if bar != nil {
        guard several.count < 2 else {
          throw UsageError("--\(waybar ? "waybar" : "i3blocks") shows one place: use --format for several")
        }
        throw error
      }
      // With --max-age, wx exits 1 when any place's values are past it (none is returned then).
      let view = lines(several, ctx)
      return (view, view.lines.contains(where: \.stale) ? nil : several.lazy.compactMap(\.city).first)
    }
    let limit = maxAge.flatMap(DurationText.seconds)
    let unit = ctx.unit(output.display)
    if let bar {
      // Stale past --max-age, three hours without it (waybar's `stale` class, i3blocks' colour);
      // an atlas place wx has no weather for is a line of unknown values, stale.
      let stale = found.city.map { $0.origin.isOlder(than: limit ?? Staleness.rowLimit, at: ctx.now) } ?? true
      var view = StatusBarView(
        bar: bar, city: found.city ?? found.asCity, unit: unit, format: format ?? "%c %t", now: ctx.now, stale: stale,
        marked: stale && limit != nil)
      if let place = found.place, PlaceText.namesakes(of: place, finder).count > 1 { view.region = place.region }
      if found.city == nil, found.place != nil { view.fetch = PlaceText.fetchCommand(PlaceText.argument(found, finder)) }
      return (view, found.city)
    }
    guard let weather = found.city else {
      // An atlas place wx has no weather for: what it knows, and how to get its weather.
      if let format {
        return (FormatLine(city: found.asCity, unit: unit, format: format, now: ctx.now, stale: limit != nil), nil)
      }
      return (PlaceView(found, finder, unit: unit, now: ctx.now), nil)
    }
    if let format {
      let stale = limit.map { weather.origin.isOlder(than: $0, at: ctx.now) } ?? false
      return (FormatLine(city: weather, unit: unit, format: format, now: ctx.now, stale: stale), weather)
    }
    let view = CityView(
      city: weather, unit: unit, freshness: ctx.freshness(catalogue.meta), now: ctx.now, place: found.place,
      region: PlaceText.telling(found, finder))
    return (view, weather)
  }
}

extension WX {
  struct Show: RequestCommand {
    static let configuration = CommandConfiguration(
      abstract: "Current weather and forecast for a city.",
      discussion: """
        CITY is a name (case, accents and punctuation do not matter: krakow finds Kraków, ndjamena \
        finds N'Djamena), "Name, Country" (the country as a name, a prefix, an ISO code such as FR \
        or FRA, or UK/USA), or an id (a catalogue city's, or a place's GeoNames id). Any place of \
        the world atlas is found too, also as "Name, Region" (Springfield, Illinois) or "Name, ST" \
        with a US state's code (Portland, OR). Of places that share a name, the largest is taken \
        when it has ten times the people of the next (Paris: Paris, France; moskva: Moscow), else \
        the one spelled exactly as typed, case aside. A place wx has no weather for shows what wx \
        knows of it and the command that gets its weather (exit 0; JSON weather fields null). \
        Without CITY, the last city shown.
        """)

    @Argument(
      help: "City name, \"Name, Country\" or id (the words of an unquoted name are joined).",
      completion: .custom(cityCompletions))
    var city: [String] = []
    @Option(
      parsing: .unconditional,
      help:
        "One line with wttr.in's specifiers: %l %c %C %t %f %h %w %p %u %S %s %o %P %x %m %M %D %z %d %T %Z, %a the age, %e what is coming, %% (see wx(1))."
    )
    var format: String?
    @Option(
      name: .customLong("max-age"),
      help: ArgumentHelp(
        "Values older than DURATION (90m, 3h, 2d) are stale: --format prints ? for them, and wx exits 1.",
        valueName: "duration"))
    var maxAge: String?
    @Flag(help: "Fetch the place's weather from Open-Meteo first (online); unreachable, the stored weather, with a warning.")
    var refresh = false
    @Flag(help: "One JSON object for waybar's custom module: text (--format, default %c %t), tooltip, class, percentage.")
    var waybar = false
    @Flag(help: "i3blocks' three lines: the --format line, the temperature, a colour when stale.")
    var i3blocks = false
    @OptionGroup var output: OutputOptions

    var request: ShowRequest {
      ShowRequest(
        city: city.joinedName, maxAge: maxAge, refresh: refresh, waybar: waybar, i3blocks: i3blocks, format: format,
        output: output.value)
    }
    func validate() throws { try check(request) }
    func execute(_ console: Console) async throws {
      if refresh { try await PlaceRefresh.run(request.city, quiet: request.forABar, console) }
      try request.perform(console)
    }
  }
}
