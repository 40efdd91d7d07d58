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

/// What ArgumentParser declares of one command, as completion reads it: generated into
/// CompletionDeclarations.swift from the commands' own declarations.
struct Declared {
  var aliases: [String] = []
  /// Its options and flags, `--help` aside.
  var options: [CompletionOption] = []
  /// Each positional argument's value list, in order; nil when it takes any word.
  var positionals: [[String]?] = []
  var subcommands: [String] = []
}

/// What completion knows of a command that ArgumentParser does not say: the names a
/// positional argument or an option's value completes, and how its words go together.
struct Shape {
  /// What an option's value completes (names from the user's data), by the option's name.
  var values: [String: CompletionSource] = [:]
  /// What each positional argument completes, instead of its declared value list.
  var arguments: [CompletionSource]?
  /// What the words after those complete (`wx unit wind kmh`).
  var then: [CompletionSource] = []
  var repeats = false
  var joinsWords = false
  /// The subcommand that runs when none is named.
  var defaultSubcommand: String?
}

/// wx's commands as completion sees them: every command, alias, option, flag and value list
/// from ArgumentParser's declarations (``declared``), with the ``shapes`` below. Declare an
/// option once, in its command; `make grammar` carries it here. `DeclarationTests` checks the
/// whole tree against ArgumentParser's, both ways.
enum CompletionGrammar {
  static let shapes: [[String]: Shape] = [
    ["show"]: Shape(arguments: [.cities], joinsWords: true),
    ["forecast"]: Shape(arguments: [.cities], joinsWords: true),
    ["search"]: Shape(arguments: [.cities], joinsWords: true),
    ["unit"]: Shape(then: [.words(WindArgument.allValueStrings + ["auto"])]),
    ["fav"]: Shape(defaultSubcommand: "list"),
    ["fav", "add"]: Shape(arguments: [.cities], repeats: true),
    ["alerts"]: Shape(arguments: [.cities], repeats: true),
    ["fav", "remove"]: Shape(arguments: [.favourites], repeats: true),
    ["aqi"]: Shape(defaultSubcommand: "list"),
    ["aqi", "show"]: Shape(arguments: [.airQualityCities], joinsWords: true),
    ["help"]: Shape(arguments: [.commands], repeats: true),
    ["sync"]: Shape(values: ["--city": .cities]),
  ]

  static let root = command([])

  /// The command `path` names, with its subcommands.
  static func command(_ path: [String]) -> CompletionCommand {
    let declared = Self.declared[path] ?? Declared()
    let shape = Self.shapes[path] ?? Shape()
    let arguments = shape.arguments ?? declared.positionals.map { $0.map(CompletionSource.words) ?? .none }
    return CompletionCommand(
      name: path.last ?? "wx", aliases: declared.aliases,
      options: declared.options.map { o in CompletionOption(names: o.names, value: shape.values[o.names[0]] ?? o.value) },
      arguments: arguments + shape.then,
      repeats: shape.repeats, joinsWords: shape.joinsWords, subcommands: declared.subcommands.map { command(path + [$0]) },
      defaultSubcommand: shape.defaultSubcommand)
  }

  /// The names of a command's subcommands, aliases included.
  static func names(_ command: CompletionCommand) -> [String] {
    command.subcommands.map(\.name) + command.subcommands.flatMap(\.aliases)
  }
}
