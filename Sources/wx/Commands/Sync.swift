import ArgumentParser
import WXCore

extension WX {
  struct Sync: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Download the catalogue and replace the local copy atomically.",
      discussion: """
        Fetches URL?page=P&limit=N until an empty or short page, or a page that only repeats \
        records already seen. With --provider open-meteo, fetches real weather for the cities of \
        the current catalogue instead (weather data by Open-Meteo.com, CC BY 4.0); with --favourites \
        the favourites' (atlas places among them join the catalogue with their weather); with \
        --city one place's, shown once fetched (without making it a favourite). Records are \
        validated as they arrive and written into a new file that replaces the catalogue only once \
        all have arrived; on any failure the current catalogue stays exactly as it was. Control and bidi characters in the data become spaces or are \
        removed; URL passwords and keys are never printed or stored.
        """)

    @Option(help: "API URL (default: the provider's environment variable, else its public API).") var url: String?
    @Option(name: .customLong("per-page"), help: "Records per request (1–100000).") var perPage = 1000
    @Option(
      help: """
        Provider: freetestapi, accuweather or open-meteo (default: the one the catalogue's weather last came from; \
        open-meteo when --favourites, --city, --max-cities or --days is given; freetestapi for the sample; --url follows it).
        """)
    var provider: ProviderName?
    @Option(
      name: .customLong("if-older"),
      help: ArgumentHelp(
        "Fetch only when the catalogue was synced longer ago than DURATION (25m, 3h, 1d); else do nothing, offline.",
        valueName: "duration"))
    var ifOlder: String?
    @Option(name: .customLong("api-key"), help: "AccuWeather API key (default: $WX_ACCUWEATHER_KEY). Never printed.")
    var apiKey: String?
    @Option(help: "AccuWeather: how many top cities to keep (1–50; default 5).") var count: Int?
    @Flag(help: "Open-Meteo: refresh only the favourites; every other city keeps its record.") var favourites = false
    @Option(name: .customLong("max-cities"), help: "Open-Meteo: refresh at most N cities, the first of the catalogue.")
    var maxCities: Int?
    @Option(help: "Open-Meteo: forecast days to keep (1–16).") var days = ProviderConfig.defaultDays
    @Option(help: "Open-Meteo: fetch the weather of this one place (a catalogue city or any place of the atlas) and show it.")
    var city: String?
    @Flag(name: .customLong("allow-shrink"), help: "Accept a catalogue with fewer than a tenth of the current one's cities.")
    var allowShrink = false
    @Flag(help: "Print nothing but errors.") var quiet = false

    var selection: OpenMeteoSelection { OpenMeteoSelection(favourites: favourites, maxCities: maxCities, city: city) }

    /// `--api-key`, else `WX_ACCUWEATHER_KEY`; an empty one is no key.
    var accuWeatherKey: String? {
      guard let key = apiKey ?? Environment.get("WX_ACCUWEATHER_KEY"), !key.isEmpty else { return nil }
      return key
    }

    func validate() throws {
      if perPage < 1 || perPage > 100_000 { throw ValidationError("--per-page must be between 1 and 100000") }
      if let count, count < 1 || count > 50 { throw ValidationError("--count must be between 1 and 50") }
      if let ifOlder, DurationText.seconds(ifOlder) == nil {
        throw ValidationError("--if-older \(ifOlder.quoted(limit: 20)) is not a duration (25m, 3h, 1d, 1h30m)")
      }
      if provider != .accuweather && (count != nil || apiKey != nil) {
        throw ValidationError("--api-key and --count apply to --provider accuweather only")
      }
      if !OpenMeteoProvider.days.contains(days) { throw ValidationError("--days must be between 1 and 16") }
      do { try selection.validate() } catch { throw ValidationError(error.message) }
      if provider != nil && provider != .openMeteo && openMeteoOnly {
        throw ValidationError("--favourites, --max-cities, --city and --days apply to --provider open-meteo only")
      }
    }

    /// An option only an Open-Meteo refresh takes was given.
    var openMeteoOnly: Bool { favourites || maxCities != nil || city != nil || days != ProviderConfig.defaultDays }

    func execute(_ console: Console) async throws {
      TempFiles.removeOnTermination()  // Ctrl-C, SIGTERM: the temp file goes too
      let ctx = try Context.make(console)
      guard let plan = try SyncPlan.make(ctx, self) else { return }
      let progress = SyncProgress(console, ctx.terminal, step: plan.provider == .openMeteo ? "batch" : "page", quiet: quiet)
      let config = try config(progress, plan.provider)
      let report = try await plan.provider.sync(config, ctx: ctx, selection: plan.selection, allowShrink: allowShrink)
      progress.finish()
      if quiet { return }
      SyncSummary(report: report, seconds: progress.elapsed).show(console)
      // `--city`: the place's weather, as `wx show` shows it (offline from now on).
      if let city { try ShowRequest(city: city, remembers: false).perform(console) }
    }

    func config(_ progress: SyncProgress, _ provider: ProviderName) throws -> ProviderConfig {
      ProviderConfig(
        url: url ?? provider.defaultURL, timeout: try Context.seconds("WX_HTTP_TIMEOUT", default: 30, allowZero: false),
        progress: progress.report, perPage: perPage, apiKey: provider == .accuweather ? accuWeatherKey : nil,
        count: count ?? 5, days: days)
    }
  }
}

/// The provider a `wx sync` fetches from and the cities it covers (WXCore's ``SyncDecision``
/// over the catalogue's header, the clock and the options); nil when `--if-older` finds the
/// catalogue young (said on standard error unless `--quiet`: nothing is fetched).
struct SyncPlan {
  var provider: ProviderName
  var selection: OpenMeteoSelection

  static func make(_ ctx: Context, _ sync: WX.Sync) throws -> SyncPlan? {
    // A URL given alone is the provider last used's, as wx(1) says of --provider (it was
    // always freetestapi's: after an Open-Meteo sync, `--url` of a forecast endpoint was asked
    // for a catalogue page and answered 400).
    let decision = SyncDecision.decide(
      meta: ctx.home.catalogueMeta(), now: ctx.now, asked: sync.provider?.rawValue, openMeteoOnly: sync.openMeteoOnly,
      ifOlder: sync.ifOlder.flatMap(DurationText.seconds))
    switch decision {
    case .skip(let age, let observed):
      let limit = sync.ifOlder ?? ""
      if !sync.quiet {
        let what = observed ? "its oldest weather was observed" : "the catalogue was synced"
        ctx.console.err("wx: \(what) \(Clock.ago(age)), within --if-older \(limit.visible): nothing fetched")
      }
      return nil
    case .fetch(let name, let favouritesOnly):
      let provider = ProviderName(rawValue: name) ?? .freetestapi
      let selection = favouritesOnly ? OpenMeteoSelection(favourites: true, maxCities: nil, city: nil) : sync.selection
      return SyncPlan(provider: provider, selection: selection)
    }
  }
}
