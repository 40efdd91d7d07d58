import ArgumentParser
import Dispatch
import WXCore

#if canImport(Glibc)
  import Glibc
#endif

/// `--color` (the AQI commands have no temperatures, so no `--unit`; only `show` draws).
struct AQIColorOption: ParsableArguments {
  @Option(help: "Colour output: auto, always or never. NO_COLOR turns auto off.")
  var color: ColorMode = .auto

  var value: Display { Display(unit: nil, color: color, ascii: false) }
}

/// Air-quality failures that are about the feed or the request, not the store.
enum AQIError: Error {
  /// The first connection of `--once` / `--count` failed: exit 69.
  case unreachable(url: String, reason: String)
  /// `wx aqi show CITY` with no readings for CITY: exit 66.
  case noReadings(String)
  /// The feed client `wx-aqi-watch` is not installed: exit 78.
  case clientMissing
  /// The feed client could not start or stopped by itself: exit 69.
  case clientFailed(String)

  var message: String {
    switch self {
    case .unreachable(let url, let reason): return "cannot reach the air-quality feed \(url): \(reason)"
    case .clientMissing:
      return "the feed client wx-aqi-watch is not installed (looked in ../libexec/wx and beside wx); reinstall wx"
    case .clientFailed(let why): return "the feed client failed: \(why)"
    case .noReadings(let city):
      return "no air-quality readings for \(city); `wx aqi list` shows the cities recorded"
    }
  }
}

extension WX {
  struct AQI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "aqi",
      abstract: "Live air quality: follow a WebSocket feed, list and chart the readings.",
      discussion: """
        `wx aqi watch URL` records readings into aqi.gdbm (the last 20 per city); \
        `wx aqi sync` adds real readings from Open-Meteo (US AQI); \
        `wx aqi list` and `wx aqi show CITY` answer from it, offline. `wx aqi` alone is `wx aqi list`.
        """,
      subcommands: [Watch.self, Sync.self, List.self, Show.self],
      defaultSubcommand: List.self)
  }
}
