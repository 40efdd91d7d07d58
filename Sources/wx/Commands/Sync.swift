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
    @Option(help: "Provider: freetestapi, accuweather or open-meteo.") var provider: ProviderName = .freetestapi
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
      if provider != .accuweather && (count != nil || apiKey != nil) {
        throw ValidationError("--api-key and --count apply to --provider accuweather only")
      }
      if !OpenMeteoProvider.days.contains(days) { throw ValidationError("--days must be between 1 and 16") }
      do { try selection.validate() } catch { throw ValidationError(error.message) }
      if provider != .openMeteo && (favourites || maxCities != nil || city != nil || days != ProviderConfig.defaultDays) {
        throw ValidationError("--favourites, --max-cities, --city and --days apply to --provider open-meteo only")
      }
    }

    func execute(_ console: Console) async throws {
      TempFiles.removeOnTermination()  // Ctrl-C, SIGTERM: the temp file goes too
      let ctx = try Context.make(console)
      let timeout = try Context.seconds("WX_HTTP_TIMEOUT", default: 30, allowZero: false)
      let showProgress = ctx.terminal.stderrIsTTY && !quiet
      var progress: (@Sendable (Int, Int) -> Void)? = nil
      let started = Clock.monotonic()
      if showProgress {  // on a terminal only: a pipe or a log gets the final line alone
        let step = provider == .openMeteo ? "batch" : "page"
        // Never wider than the terminal: a wrapped line is not cleared by the next one.
        let width = Terminal.columns(of: 2, tty: true).map { $0 - 1 } ?? 79
        progress = { n, records in
          let rate = Int(Double(records) / max(Clock.monotonic() - started, 0.001))
          let line = "wx: \(step) \(n) · \(records) records · \(rate) records/s"
          // wx's own line-clearing sequence, then text that holds nothing untrusted.
          console.control("\r\u{1B}[K" + String(line.prefix(width)), toStderr: true)
        }
      }
      let config = ProviderConfig(
        url: url ?? provider.defaultURL, timeout: timeout, progress: progress, perPage: perPage,
        apiKey: provider == .accuweather ? accuWeatherKey : nil, count: count ?? 5, days: days)
      let plan = try provider.plan(config, ctx: ctx, selection: selection)
      let before = FileIdentity(ctx.home.cataloguePath)
      let meta: CatalogueMeta
      do {
        meta = try await ctx.home.sync(
          from: plan.provider, source: config.url, allowShrink: allowShrink, basis: plan.basis, refreshed: plan.refreshed)
      } catch let error as StoreError {
        // Say whether the catalogue is the one there was: it is unless the failure came after
        // the new file took its place (the folder's fsync).
        throw SyncStoreError(store: error, unchanged: before != nil && FileIdentity(ctx.home.cataloguePath) == before)
      }
      if showProgress { console.control("\r\u{1B}[K", toStderr: true) }
      if !quiet {
        if let skipped = OpenMeteoSelection.skippedWords(plan.skipped) { console.err("wx: " + skipped) }
        let elapsed = Clock.monotonic() - started
        let seconds = elapsed < 0.05 ? "under 0.1" : Number.oneDecimal(elapsed)  // never "in 0 s"
        let what = meta.refreshed == meta.count ? "" : "the weather of \(meta.refreshed) of "
        console.err("wx: synced \(what)\(meta.count) \(meta.count == 1 ? "city" : "cities") from \(meta.source) in \(seconds) s")
        // `--city`: the place's weather, as `wx show` shows it (offline from now on).
        if let city { try ShowRequest(city: city).perform(console) }
      }
    }
  }
}
