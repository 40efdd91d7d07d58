import ArgumentParser
import WXCore

/// `--provider`: the one place a name becomes a provider.
enum ProviderName: String, CaseIterable, ExpressibleByArgument {
  case freetestapi, accuweather
  case openMeteo = "open-meteo"

  /// The URL used without `--url`: the provider's environment variable, else its API.
  var defaultURL: String {
    switch self {
    case .freetestapi: Environment.get("WX_API_URL") ?? FreeTestAPIProvider.defaultURL
    case .accuweather: Environment.get("WX_ACCUWEATHER_URL") ?? AccuWeatherProvider.defaultURL
    case .openMeteo: Environment.get("WX_OPEN_METEO_URL") ?? OpenMeteoProvider.defaultURL
    }
  }

  /// Runs the sync `config` asks of this provider: a new catalogue from freetestapi or
  /// AccuWeather (SyncService), or Open-Meteo's weather for the cities `selection` plans
  /// (Refresher).
  func sync(_ config: ProviderConfig, ctx: Context, selection: OpenMeteoSelection, allowShrink: Bool) async throws
    -> SyncReport
  {
    let service = SyncService(home: ctx.home, now: ctx.currentTime())
    switch self {
    case .freetestapi:
      return try await service.replace(from: FreeTestAPIProvider(config: config), source: config.url, allowShrink: allowShrink)
    case .accuweather:
      guard config.apiKey != nil else { throw SyncError.missingKey(provider: rawValue) }
      return try await service.replace(from: AccuWeatherProvider(config: config), source: config.url, allowShrink: allowShrink)
    case .openMeteo:
      return try await Refresher(home: ctx.home, now: ctx.currentTime()).weather(
        try selection.plan(ctx), config: config, allowShrink: allowShrink)
    }
  }
}

/// What a finished sync says on stderr: cities skipped, then what it stored and from where.
struct SyncSummary {
  var report: SyncReport
  /// The sync's duration (a catalogue sync says it).
  var seconds: Double = 0

  var lines: [String] {
    var out = OpenMeteoSelection.skippedWords(report.skipped).map { [$0] } ?? []
    let n = report.records
    let cities = "\(n) \(n == 1 ? "city" : "cities")"
    switch report.store {
    case .catalogue:
      let time = seconds < 0.05 ? "under 0.1" : Number.oneDecimal(seconds)  // never "in 0 s"
      let what = report.refreshed == n ? "" : "the weather of \(report.refreshed) of "
      out.append("synced \(what)\(cities) from \(report.source) in \(time) s")
    case .airQuality: out.append("recorded air quality for \(cities) from \(report.source)")
    }
    return out
  }

  func show(_ console: Console) { for line in lines { console.err("wx: " + line) } }
}

/// `wx: page 3 · 3000 records · 1234 records/s`, redrawn on a terminal's stderr while a sync
/// runs (a pipe or a log gets the final line alone), and the time the sync took.
struct SyncProgress {
  let started = Clock.monotonic()
  let console: Console
  let shown: Bool
  /// What a step is: a page (freetestapi, AccuWeather) or a batch (Open-Meteo).
  let step: String

  init(_ console: Console, _ terminal: Terminal, step: String, quiet: Bool) {
    self.console = console
    shown = terminal.stderrIsTTY && !quiet
    self.step = step
  }

  var elapsed: Double { Clock.monotonic() - started }

  /// What ``ProviderConfig/progress`` calls after each step (nil when nothing is shown).
  var report: (@Sendable (Int, Int) -> Void)? {
    guard shown else { return nil }
    let (step, started, console) = (self.step, self.started, self.console)
    // Never wider than the terminal: a wrapped line is not cleared by the next one.
    let width = Terminal.columns(of: 2, tty: true).map { $0 - 1 } ?? 79
    return { n, records in
      let rate = Int(Double(records) / max(Clock.monotonic() - started, 0.001))
      let line = "wx: \(step) \(n) · \(records) records · \(rate) records/s"
      // wx's own line-clearing sequence, then text that holds nothing untrusted.
      console.control("\r\u{1B}[K" + String(line.prefix(width)), toStderr: true)
    }
  }

  /// Clears the progress line.
  func finish() { if shown { console.control("\r\u{1B}[K", toStderr: true) } }
}
