import ArgumentParser
import WXCore

extension WX {
  struct Sync: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Download the catalogue and replace the local copy atomically.",
      discussion: """
        Fetches URL?page=P&limit=N until an empty or short page, or a page that only repeats \
        records already seen. Everything is downloaded and validated before the store is touched; \
        on any failure the current catalogue stays exactly as it was. Control and bidi characters \
        in the data become spaces or are removed; URL passwords and keys are never printed or stored.
        """)

    @Option(help: "API URL (default: $WX_API_URL or \(FreeTestAPIProvider.defaultURL)).") var url: String?
    @Option(name: .customLong("per-page"), help: "Records per request (1–100000).") var perPage = 1000
    @Option(help: "Provider: freetestapi or accuweather.") var provider: ProviderName = .freetestapi
    @Option(name: .customLong("api-key"), help: "AccuWeather API key (default: $WX_ACCUWEATHER_KEY). Never printed.")
    var apiKey: String?
    @Option(help: "AccuWeather: how many top cities to keep (1–50).") var count = 5
    @Flag(name: .customLong("allow-shrink"), help: "Accept a catalogue with fewer than a tenth of the current one's cities.")
    var allowShrink = false
    @Flag(help: "Print nothing but errors.") var quiet = false

    func validate() throws {
      if perPage < 1 || perPage > 100_000 { throw ValidationError("--per-page must be between 1 and 100000") }
      if count < 1 || count > 50 { throw ValidationError("--count must be between 1 and 50") }
    }

    func execute() async throws {
      let ctx = try Context.make()
      let timeout = try Context.seconds("WX_HTTP_TIMEOUT", default: 30, allowZero: false)
      let showProgress = ctx.terminal.stderrIsTTY && !quiet
      var progress: (@Sendable (Int, Int) -> Void)? = nil
      if showProgress {
        progress = { page, records in
          Terminal.err("\r\u{1B}[Kwx: page \(page) · \(records) records", newline: false)
        }
      }
      let source: any WeatherProvider
      let sourceURL: String
      switch provider {
      case .freetestapi:
        sourceURL = url ?? Environment.get("WX_API_URL") ?? FreeTestAPIProvider.defaultURL
        source = FreeTestAPIProvider(
          options: FetchOptions(url: sourceURL, perPage: perPage, timeout: timeout, progress: progress))
      case .accuweather:
        sourceURL = url ?? Environment.get("WX_ACCUWEATHER_URL") ?? AccuWeatherProvider.defaultURL
        guard let key = apiKey ?? Environment.get("WX_ACCUWEATHER_KEY") else {
          throw SyncError.missingKey(provider: "accuweather")
        }
        source = AccuWeatherProvider(base: sourceURL, apiKey: key, count: count, timeout: timeout)
      }
      let started = Clock.monotonic()
      let meta = try await ctx.home.sync(from: source, source: sourceURL, allowShrink: allowShrink)
      if showProgress { Terminal.err("\r\u{1B}[K", newline: false) }
      if !quiet {
        let seconds = Clock.monotonic() - started
        Terminal.err(
          "wx: synced \(meta.count) \(meta.count == 1 ? "city" : "cities") from \(meta.source) in \(TemperatureUnit.oneDecimal(seconds)) s")
      }
    }
  }
}

enum ProviderName: String, CaseIterable, ExpressibleByArgument {
  case freetestapi, accuweather
}
