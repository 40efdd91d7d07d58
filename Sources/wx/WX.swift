import ArgumentParser
import WXCore

@main
struct WX: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "wx",
    abstract: "Weather from a catalogue kept on your own disk: instant, offline after one sync.",
    discussion: """
      wx downloads a weather catalogue once (`wx sync`) into GDBM files under $WX_HOME \
      (default ~/.local/share/wx) and answers every other command from them, online or not. \
      Before the first sync it shows a bundled sample. See wx(1) for files, environment and exit codes.
      """,
    version: "wx 1.0.0",
    subcommands: [
      List.self, Show.self, Search.self, Forecast.self, Top.self, Hottest.self, Sync.self, Unit.self,
      Fav.self, Status.self, Doctor.self, Completion.self,
    ]
  )
}
