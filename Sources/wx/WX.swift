import ArgumentParser
import Dispatch
import WXCore

#if canImport(Glibc)
  import Glibc
#endif

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
      Fav.self, Status.self, Doctor.self, Completion.self, AQI.self,
    ]
  )
}

/// Entry point: the hot read commands in their plain forms skip the argument parser's
/// start-up work (about 3 ms of a 5 ms run, measured in `make bench`); everything else,
/// including every error and `--help`, goes through ArgumentParser.
@main
enum Main {
  /// Synchronous on purpose: the fast path runs before the concurrency runtime starts.
  static func main() {
    let args = Array(CommandLine.arguments.dropFirst())
    if let status = CompletionEntry.run(args) ?? FastPath.run(args) {
      exit(status)
    }
    Task {
      await WX.main()
      exit(0)
    }
    dispatchMain()
  }
}
