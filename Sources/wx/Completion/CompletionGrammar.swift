import WXCore

/// What completes in one place of a command line.
enum CompletionSource: Equatable {
  /// Nothing: a number, a URL, free text.
  case none
  /// Fixed words.
  case words([String])
  /// City names from the catalogue's trie (matched like `wx search`).
  case cities
  /// Favourite names.
  case favourites
  /// Cities with recorded air-quality readings.
  case airQualityCities
  /// Subcommand names (`wx help …`).
  case commands
}

/// An option: its long (and short) names and, when it takes a value, what completes it.
struct CompletionOption {
  var names: [String]
  var value: CompletionSource?

  static func flag(_ names: String...) -> CompletionOption { CompletionOption(names: names, value: nil) }
  static func option(_ name: String, _ value: CompletionSource = .none) -> CompletionOption {
    CompletionOption(names: [name], value: value)
  }
}

/// One command of the completion grammar: its options, its arguments, its subcommands.
struct CompletionCommand {
  var name: String
  var aliases: [String] = []
  var options: [CompletionOption] = []
  /// What each positional argument completes; the last one repeats when `repeats`.
  var arguments: [CompletionSource] = []
  var repeats = false
  /// Whether all the positional words are one name (`wx show New York`).
  var joinsWords = false
  var subcommands: [CompletionCommand] = []
  /// The subcommand that runs when none is named (its options are offered here too).
  var defaultSubcommand: String?

  func subcommand(_ word: String) -> CompletionCommand? {
    subcommands.first { $0.name == word || $0.aliases.contains(word) }
  }

  /// Options, with the default subcommand's when there is one, and `--help`.
  var allOptions: [CompletionOption] {
    var all = options
    if let d = defaultSubcommand, let sub = subcommand(d) { all += sub.options }
    return all + [.flag("--help", "-h")]
  }

  func option(_ word: String) -> CompletionOption? { allOptions.first { $0.names.contains(word) } }

  /// What positional argument `index` (from 0) completes.
  func argument(_ index: Int) -> CompletionSource {
    if index < arguments.count { return arguments[index] }
    return repeats ? arguments.last ?? .none : .none
  }
}

/// wx's commands as completion sees them, in the order `wx --help` lists them. `DeclarationTests`
/// checks it against ArgumentParser's declarations, both ways.
enum CompletionGrammar {
  static let json = CompletionOption.flag("--json")
  static let display: [CompletionOption] = [
    .option("--unit", .words(UnitArgument.allValueStrings)), .option("--wind", .words(WindArgument.allValueStrings)),
    .option("--color", .words(ColorMode.allCases.map(\.rawValue))), .flag("--ascii"),
  ]
  static let paging: [CompletionOption] = [.option("--page"), .option("--per-page")]
  static let color = CompletionOption.option("--color", .words(ColorMode.allCases.map(\.rawValue)))

  static let root = CompletionCommand(
    name: "wx", options: [.flag("--version")],
    subcommands: [
      CompletionCommand(
        name: "list", options: paging + [.option("--sort", .words(ListOrder.allCases.map(\.rawValue))), json] + display),
      CompletionCommand(name: "show", options: [.option("--format"), json] + display, arguments: [.cities], joinsWords: true),
      CompletionCommand(name: "search", options: paging + [json] + display),
      CompletionCommand(
        name: "forecast", options: [.flag("--hottest"), .flag("--hourly"), .option("--hours"), json] + display,
        arguments: [.cities], joinsWords: true),
      CompletionCommand(name: "top", options: [.option("--count"), json] + display),
      CompletionCommand(name: "hottest", options: paging + [json] + display),
      CompletionCommand(
        name: "sync",
        options: [
          .option("--url"), .option("--per-page"),
          .option("--provider", .words(ProviderName.allCases.map(\.rawValue))), .option("--api-key"),
          .option("--count"), .flag("--quiet"), .flag("--allow-shrink"), .flag("--favourites"),
          .option("--max-cities"), .option("--days"),
        ]),
      CompletionCommand(
        name: "unit",
        arguments: [.words(UnitArgument.allValueStrings + ["wind"]), .words(WindArgument.allValueStrings + ["auto"])]),
      CompletionCommand(
        name: "fav",
        subcommands: [
          CompletionCommand(name: "add", arguments: [.cities], repeats: true),
          CompletionCommand(name: "remove", aliases: ["rm"], arguments: [.favourites], repeats: true),
          CompletionCommand(
            name: "list", options: [.option("--sort", .words(FavouriteOrder.allCases.map(\.rawValue))), json] + display),
        ], defaultSubcommand: "list"),
      CompletionCommand(name: "status", options: [json]),
      CompletionCommand(name: "doctor", options: [.flag("--repair")]),
      CompletionCommand(name: "completion", arguments: [.words(WX.Completion.Shell.allCases.map(\.rawValue))]),
      CompletionCommand(
        name: "aqi",
        subcommands: [
          CompletionCommand(name: "watch", options: [.flag("--once"), .option("--count"), color], arguments: [.none]),
          CompletionCommand(
            name: "sync", options: [.option("--url"), .flag("--favourites"), .option("--max-cities"), .flag("--quiet")]),
          CompletionCommand(name: "list", options: [json, color]),
          CompletionCommand(
            name: "show", options: [json, .flag("--ascii"), .option("--scale", .words(ScaleArgument.allCases.map(\.rawValue))), color],
            arguments: [.airQualityCities], joinsWords: true),
        ], defaultSubcommand: "list"),
      CompletionCommand(name: "browse", options: display),
      CompletionCommand(name: "help", arguments: [.commands], repeats: true),
    ])

  /// The names of a command's subcommands, aliases included.
  static func names(_ command: CompletionCommand) -> [String] {
    command.subcommands.map(\.name) + command.subcommands.flatMap(\.aliases)
  }
}
