import ArgumentParser
import WXCore

/// `wx forecast`: a city's forecast days in date order, or rain-free days hottest first.
struct ForecastRequest: CatalogueRequest {
  static var options: [RequestOption<Self>] {
    [
      .flag("hottest", \.hottest), .flag("hourly", \.hourly), .parsed("hours", \.hours, { Int($0) }),
      .flag("refresh", \.refresh),
    ] + outputOptions
  }
  static let takesWords = true
  mutating func take(words: String?) { city = words }
  var city: String?
  /// `--refresh`: the place's weather fetched from Open-Meteo first (``PlaceRefresh``).
  var refresh = false
  var fetchesFirst: Bool { refresh }

  /// Without CITY, the last city shown; a CITY given must name something.
  func validate() throws(UsageError) {
    if let city { try TypedName.check(city, as: "CITY") }
    if hourly && hottest { throw UsageError("--hourly and --hottest cannot be combined") }
    if let hours {
      if !hourly { throw UsageError("--hours applies to --hourly only") }
      if !Self.hourRange.contains(hours) { throw UsageError("--hours must be between 1 and 48") }
    }
  }
  var hottest = false
  /// A row per hour from the current local hour (`--hours`, 24 by default).
  var hourly = false
  var hours: Int?
  static let hourRange = 1...ForecastHour.maxHours
  var output = Output()

  func view(_ ctx: Context, _ catalogue: Catalogue) throws -> any View {
    // Names resolve as `wx show` resolves them, over the catalogue and the atlas: an atlas
    // place without weather shows what `wx show` shows of it (and the command to get its
    // weather), not "no city named …".
    let finder = try ctx.finder(catalogue)
    defer { finder.atlas?.close() }
    let resolved = try ctx.resolvePlace(city, in: finder, command: "wx forecast")
    guard let found = resolved.city else {
      return PlaceView(resolved, finder, unit: ctx.unit(output.display), now: ctx.now, shape: hourly ? .hourly : .forecast)
    }
    let region = PlaceText.telling(resolved, finder)
    if hourly {
      return HourlyView(
        city: found, window: found.hours(at: ctx.now, limit: hours ?? 24), asked: hours ?? 24,
        provider: catalogue.meta.provider, unit: ctx.unit(output.display), freshness: ctx.freshness(catalogue.meta),
        now: ctx.now, region: region)
    }
    let forecast = found.datedForecast(at: ctx.now)
    // Only the days from the city's today on; each keeps its date's label in any order.
    var days = forecast.upcoming
    if hottest {
      days = days.filter(\.day.isRainFree)
        .sorted { a, b in  // unknown temperatures last
          let (ta, tb) = (a.day.temperatureC ?? -.infinity, b.day.temperatureC ?? -.infinity)
          return ta != tb ? ta > tb : a.day.date < b.day.date
        }
    }
    return ForecastView(
      city: found, forecast: forecast, days: days, hottest: hottest, unit: ctx.unit(output.display),
      freshness: ctx.freshness(catalogue.meta), now: ctx.now, region: region)
  }
}

/// The forecast table under the city's name, from the city's today on (days already past are
/// counted, not shown); `{"id", "city", "country", "region", "unit", "today", "days", "past_days"}`.
struct ForecastView: View {
  var city: City
  var forecast: DatedForecast
  /// The days to show, in their order (date, or hottest first).
  var days: [DatedForecast.Day]
  var hottest: Bool
  var unit: Units
  var freshness: String
  /// The time now: the data's age.
  var now: Int64 = 0
  /// The place's region, when another place of its name is in its country (two Springfields):
  /// the heading names it, as `wx show`'s does.
  var region: String? = nil

  func json() -> JSON {
    .object(
      [
        ("id", .int(city.id)), ("city", .string(city.name)), ("country", .string(city.country)),
        ("region", region.map { .string($0) } ?? .null),
        ("unit", .string(unit.rawValue)), ("wind_unit", .string(unit.wind.rawValue)),
      ] + Ages.json(city, now)
        + CityView.forecastJSON(forecast, unit, key: "days", days: days))
  }

  func text(_ term: Terminal) -> String {
    var out = term.bold(PlaceText.heading(city, region: region))
    out += (hottest ? " · rain-free days, hottest first" : "") + "\n"
    if forecast.isWhollyPast {
      out += CityView.wordsForPast(forecast, term, source: city.origin.source)
    } else {
      out += days.isEmpty && hottest ? "No rain-free days in the forecast.\n" : CityView.forecastTable(days, unit, term)
      out += CityView.wordsForPast(forecast, term, source: city.origin.source)
    }
    return out + CityView.ageLine(Ages.line(city, now), stale: Ages.isStale(city, now), term) + "\n" + term.footer(freshness)
  }
}

extension WX {
  struct Forecast: RequestCommand {
    static let configuration = CommandConfiguration(
      abstract: "A city's forecast days in date order, or its next hours.",
      discussion: """
        With --hottest, only the days without rain or showers, hottest first. With --hourly, a row \
        per hour from the city's current local hour (Open-Meteo records: 48 hours are stored).
        """)

    @Argument(
      help: "City name, \"Name, Country\" or id (default: the last city shown).", completion: .custom(cityCompletions))
    var city: [String] = []
    @Flag(help: "Only rain-free days, hottest first.") var hottest = false
    @Flag(help: "A row per hour from the current local hour.") var hourly = false
    @Option(parsing: .unconditional, help: "Hours to show with --hourly (1–48, default 24).") var hours: Int?
    @Flag(help: "Fetch the place's weather from Open-Meteo first (online); unreachable, the stored weather, with a warning.")
    var refresh = false
    @OptionGroup var output: OutputOptions

    var request: ForecastRequest {
      ForecastRequest(
        city: city.joinedName, refresh: refresh, hottest: hottest, hourly: hourly, hours: hours, output: output.value)
    }
    func validate() throws { try check(request) }
    func execute(_ console: Console) async throws {
      if refresh { try await PlaceRefresh.run(request.city, quiet: false, console) }
      try request.perform(console)
    }
  }
}
