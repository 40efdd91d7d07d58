import ArgumentParser
import WXCore

import Glibc

/// `--color` (the AQI commands have no temperatures, so no `--unit`; only `show` draws).
struct AQIColorOption: ParsableArguments {
  @Option(help: "Colour output: auto, always or never. NO_COLOR turns auto off.")
  var color: ColorMode = .auto

  var value: Display { Display(unit: nil, color: color, ascii: false) }
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
