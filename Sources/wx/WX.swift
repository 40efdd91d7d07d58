import ArgumentParser
import Dispatch
import WXCore

import Glibc

struct WX: AsyncParsableCommand {
  /// What `wx --version` prints (Main prints it without ArgumentParser).
  static let version = "wx 1.0.0"

  static let configuration = CommandConfiguration(
    commandName: "wx",
    abstract: "Weather from a catalogue kept on your own disk: instant, offline after one sync.",
    discussion: """
      wx downloads a weather catalogue once (`wx sync`) into GDBM files under $WX_HOME \
      (default ~/.local/share/wx) and answers every other command from them, online or not. \
      Before the first sync it shows a bundled sample. `wx` alone on a terminal is `wx browse`. \
      See wx(1) for files, environment and exit codes.
      """,
    version: WX.version,
    subcommands: [
      List.self, Show.self, Search.self, Forecast.self, Top.self, Hottest.self, Sync.self, Unit.self,
      Alerts.self, Fav.self, Status.self, Doctor.self, Completion.self, AQI.self, Browse.self,
    ]
  )
}

/// Entry point: the hot read commands in their plain forms skip the argument parser's
/// start-up work (4–6 ms: it decodes the type metadata of every option of every command); everything else,
/// including every error and `--help`, goes through ArgumentParser.
@main
enum Main {
  /// Synchronous on purpose: the fast path runs before the concurrency runtime starts.
  static func main() {
    var args = Array(CommandLine.arguments.dropFirst())
    // `wx` alone on a terminal is `wx browse`; in a pipe or CI it prints the help, as before,
    // so nothing ever waits for keys that cannot come.
    if args.isEmpty && TTY.isFullScreen { args = ["browse"] }
    // A reader that stops reading (`wx list | head -1`) is not an error: writes then fail with
    // EPIPE, which the writer passes over, and wx exits 0 quietly instead of dying of SIGPIPE
    // (141). The feed client wx spawns gets the default disposition back (FeedProcess).
    _ = signal(SIGPIPE, SIG_IGN)
    // Standard output and error, and what went wrong writing them: one value, handed down.
    let console = Console.standard()
    if args.count == 2, args[0] == "__build-atlas" { end(buildSharedAtlas(in: args[1], console), console) }
    if args == ["__parse"] { end(FastPath.check(console), console) }
    if let status = CompletionEntry.run(args, console) ?? FastPath.run(args, console) {
      end(status, console)
    }
    parse(args, console)
  }

  /// Everything but the fast path. Its own function, never inlined: the task it starts holds an
  /// `Optional<TaskPriority>`, whose size is known only at run time (the concurrency library
  /// is resilient), and a function sizes its stack at entry: in `main` it cost the fast path
  /// a metadata lookup (1.7 % of `wx search par` at a million cities).
  @inline(never)
  static func parse(_ args: [String], _ console: Console) -> Never {
    // ArgumentParser's own (hidden) script generator would print its scripts, which filter
    // the candidates again by case: answer with wx's.
    if let first = args.first, first.hasPrefix("--generate-completion-script") {
      let shell = first.contains("=") ? String(first.split(separator: "=", maxSplits: 1)[1]) : args.dropFirst().first ?? ""
      guard let script = CompletionScripts.script(for: shell) else {
        console.err("wx: no completion script for \(shell.quoted()); try bash, zsh or fish")
        exit(ExitStatus.usage.rawValue)
      }
      console.data(script)
      end(0, console)
    }
    // `wx --version` alone is printed here: through ArgumentParser it cost 20 M instructions
    // (2.5 ms), decoding the type metadata of every option of every command.
    if args.count == 1, args[0] == "--version" {
      console.data(WX.version)
      end(0, console)
    }
    // `wx --version extra` would print the version and ignore the rest.
    if args.first == "--version", args.count > 1 {
      console.err("wx: --version takes nothing after it, got \(cutQuoted(args[1].quoted(), "\"")) (see `wx --help`)")
      exit(ExitStatus.usage.rawValue)
    }
    // `wx shw paris` would be "2 unexpected arguments": a word that is no command but a
    // typing slip away from one says which (exit 64).
    if let first = args.first, !first.hasPrefix("-"), !commandNames.contains(first) {
      let near = nearestCommand(first).map { "; did you mean `wx \($0)`?" } ?? ""
      console.err("wx: no command named \(cutQuoted(first.quoted(), "\""))\(near) (see `wx --help`)")
      exit(ExitStatus.usage.rawValue)
    }
    // The same within a group: `wx fav ad paris` was "2 unexpected arguments" (its default
    // command, list, takes none).
    if args.count >= 2, let group = WX.configuration.subcommands.first(where: { $0._commandName == args[0] }),
      !group.configuration.subcommands.isEmpty
    {
      let names = group.configuration.subcommands.flatMap { [$0._commandName] + $0.configuration.aliases }
      if let near = nearestCommand(args[1], in: names) {
        let typed = cutQuoted("\(args[0]) \(args[1])".quoted(), "\"")
        console.err("wx: no command named \(typed); did you mean `wx \(args[0]) \(near)`? (see `wx \(args[0]) --help`)")
        exit(ExitStatus.usage.rawValue)
      }
    }
    // `wx help bogus` would print the top-level help and exit 0.
    if args.first == "help", args.count > 1, !args[1].hasPrefix("-"),
      !WX.configuration.subcommands.contains(where: { $0._commandName == args[1] })
    {
      console.err("wx: no command named \(cutQuoted(args[1].quoted(), "\"")); see `wx --help`")
      exit(ExitStatus.usage.rawValue)
    }
    Task {
      do {
        var command = try WX.parseAsRoot(args)
        if let wx = command as? any WXCommand {
          try await wx.run(console)
        } else if var async = command as? AsyncParsableCommand {
          try await async.run()  // a group without a subcommand: its help, as an error
        } else {
          try command.run()
        }
        end(0, console)
      } catch {
        end(report(error, console), console)
      }
    }
    dispatchMain()
  }

  /// Every command's name and alias, and `help`.
  static var commandNames: [String] {
    WX.configuration.subcommands.flatMap { [$0._commandName] + $0.configuration.aliases } + ["help"]
  }

  /// The command `word` is a typing slip (one or two edits) away from, when `word` names
  /// none itself and is no option; nil otherwise.
  static func nearestCommand(_ word: String, in names: [String] = commandNames) -> String? {
    guard !word.hasPrefix("-"), !word.isEmpty, word.utf8.count <= 20 else { return nil }
    guard !names.contains(word) else { return nil }
    let typed = Array(word.lowercased().utf8)
    let limit = typed.count <= 3 ? 1 : 2
    return names.compactMap { name in Resolver<CatalogueNames>.distance(typed, Array(name.utf8), limit: limit).map { (name, $0) }
    }
    .min { $0.1 < $1.1 }?.0
  }

  /// `wx __build-atlas FOLDER` (`make install`, `make run`): the shared atlas store built
  /// beside FOLDER's `atlas.bin`, and the sample catalogue beside its sample (a new state
  /// folder copies it rather than building its own), read-only, for every user and state folder.
  static func buildSharedAtlas(in folder: String, _ console: Console) -> Int32 {
    do {
      if let meta = try Home.buildSharedAtlas(in: folder) {
        console.err("wx: built the world atlas (\(PlaceText.people(meta.count)) places) in \(folder.quoted())")
      }
      if try Home.buildSharedSample(in: folder) {
        console.err("wx: built the sample catalogue in \(folder.quoted())")
      }
      return 0
    } catch {
      return ExitStatus.report(error, console).rawValue
    }
  }

  /// Exits with `status`, or, when the command succeeded but its output could not be
  /// written (a full disk, a closed standard output), says so and exits 74: a script must
  /// not take an empty file for the answer. A reader that stopped reading (EPIPE: `| head`)
  /// is not an error.
  static func end(_ status: Int32, _ console: Console) -> Never {
    if status == 0, let failure = console.outputFailure {
      let why = failure == EBADF ? "standard output is closed" : SystemError.describe(failure)
      console.err("wx: cannot write the output: \(why)")
      exit(ExitStatus.ioError.rawValue)
    }
    exit(status)
  }

  /// Help text with every line wider than `width` (ArgumentParser wraps its paragraphs but
  /// not the usage line) broken at spaces, the rest indented under the line's first word's
  /// end: `USAGE: wx show [<city> ...] [--json]` / `       [--unit <unit>] …`. A word wider
  /// than the room stays whole.
  static func wrapped(_ text: String, width: Int) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      guard line.count > width, let first = line.firstIndex(of: " ") else { return String(line) }
      let indent = String(repeating: " ", count: line.distance(from: line.startIndex, to: first) + 1)
      var out: [String] = []
      var current = String(line[..<first])
      for word in line[line.index(after: first)...].split(separator: " ") {
        if current.count + 1 + word.count > width && current.count > indent.count {
          out.append(current)
          current = indent + word
        } else {
          current += " " + word
        }
      }
      return (out + [current]).joined(separator: "\n")
    }.joined(separator: "\n")
  }

  /// ArgumentParser's "The value 'abc' is invalid for '--page <page>'" (and ". Please provide
  /// one of 'c', 'f' …") in wx's words, as wx's own checks put them: "--page takes a whole
  /// number: 'abc' is not one", "page 99999999999999999999 is past the end of any list",
  /// "--unit takes one of 'c', 'f' …: not 'kelvin'".
  /// The options whose value is a duration (``DurationText``), and those whose value is a count.
  static let durationOptions: Set = ["--max-age", "--if-older", "--within"]
  static let countOptions: Set = ["--page", "--per-page", "--count", "--max-cities", "--limit", "--hours"]

  static func plainValueError(_ message: String, arguments: [String] = CommandLine.arguments) -> String {
    // "Missing value for '--max-age <duration>'": given none, or a value that begins with a
    // dash, which ArgumentParser reads as an option (`--max-age -3h`).
    let missing = "Missing value for '"
    if message.hasPrefix(missing), let close = message.dropFirst(missing.count).firstIndex(of: "'") {
      let parts = message[message.index(message.startIndex, offsetBy: missing.count)..<close].split(separator: " ")
      guard let option = parts.first.map(String.init), option.hasPrefix("--") else { return message }
      let value = parts.dropFirst().joined(separator: " ")
      if let at = arguments.lastIndex(of: option), at + 1 < arguments.count, arguments[at + 1].hasPrefix("-") {
        let next = arguments[at + 1]
        // A negative duration or count is no value, however written: not a hint to write it
        // as `--max-age=-3h`, which is then refused too.
        if next.dropFirst().first?.isASCIIDigit == true {
          if Self.durationOptions.contains(option) {
            return "\(option) takes a duration (90m, 3h, 2d), never a negative one: not '\(next)'"
          }
          if Self.countOptions.contains(option) { return "\(option) takes no negative number: not '\(next)'" }
        }
        return "\(option) needs a value: '\(next)' reads as an option; write \(option)=\(next)"
      }
      return value.isEmpty ? "\(option) needs a value" : "\(option) needs a value: \(value)"
    }
    let start = "The value '"
    guard message.hasPrefix(start), let mid = message.firstRange(of: "' is invalid for '"),
      let end = message[mid.upperBound...].firstIndex(of: "'")
    else { return message }
    let value = message[message.index(message.startIndex, offsetBy: start.count)..<mid.lowerBound]
    let option = message[mid.upperBound..<end].split(separator: " ").first.map(String.init) ?? ""
    guard option.hasPrefix("--") else { return message }
    let rest = message[message.index(after: end)...]
    if let one = rest.firstRange(of: "Please provide one of ") {
      var choices = rest[one.upperBound...]
      while choices.last == "." { choices.removeLast() }
      // "'naqi' and 'us'" is a choice of one: "'naqi' or 'us'".
      var words = String(choices)
      if let and = words.ranges(of: "' and '").last { words.replaceSubrange(and, with: "' or '") }
      return "\(option) takes one of \(words): not '\(value)'"
    }
    if Self.countOptions.contains(option) {
      // Digits too many for a number: as wx says of a number too large.
      if !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }) {
        // Cut as a quoted value is: 100,000 nines made a line of 100 KB.
        let number = String(value).cut()
        if option == "--page" { return Pages.pastEveryList(number) }
        if option == "--per-page" { return Pages.perPageWords }
        return "\(option) \(number) is more than wx can take"
      }
      return "\(option) takes a whole number: '\(value)' is not one"
    }
    return "\(option) does not take '\(value)'"
  }

  /// `message` with each `quote`d part cut to 60 characters: an argument echoed back (`--page`
  /// given 128 KB) must not fill the terminal.
  static func cutQuoted(_ message: String, _ quote: Character = "'", limit: Int = 60) -> String {
    var out = ""
    var inside: String?
    for ch in message {
      if ch == quote {
        if let part = inside {
          out += part.cut(limit)
          out.append(ch)
          inside = nil
        } else {
          out.append(ch)
          inside = ""
        }
      } else if inside != nil {
        inside!.append(ch)
      } else {
        out.append(ch)
      }
    }
    if let part = inside { out += part.cut(limit) }
    return out
  }

  /// What ArgumentParser's own `main` would print, but through wx's writers: help on stdout
  /// as is; an error as one escaped line (`--sort $'\e[2J'` is echoed back) naming the help
  /// to read. Errors the commands report themselves arrive as a bare ``ExitCode``.
  static func report(_ error: any Error, _ console: Console) -> Int32 {
    let code = WX.exitCode(for: error)
    if code == .success {
      let text = WX.fullMessage(for: error)
      let width = Terminal.columns(tty: isatty(1) == 1) ?? 80  // as ArgumentParser measures
      // Help is fitted; a version or a JSON dump (`--experimental-dump-help`) is left as is.
      let help = text.hasPrefix("OVERVIEW: ") || text.hasPrefix("USAGE: ")
      // In a locale that is not UTF-8, help is spelled in ASCII as every other output is.
      let spelled = help && !Terminal.localeIsUTF8 ? ASCII.spell(BrowseView.spellArrows(text)) : text
      if !text.isEmpty { console.data(help ? wrapped(spelled, width: width) : spelled) }
      return 0
    }
    var message = WX.message(for: error).split(separator: "\n").first.map(String.init) ?? ""
    if message.isEmpty { return code.rawValue }
    if message.hasPrefix("Error: ") { message.removeFirst(7) }
    // The value echoed shows its invisible characters (`--sort $'name\u200b'`), as every
    // argument wx echoes does.
    message = Escape.visible(cutQuoted(plainValueError(message)), invisibles: true)
    var help = "wx --help"
    if let usage = WX.fullMessage(for: error).split(separator: "\n").first(where: { $0.hasPrefix("Usage: ") }) {
      let words = usage.dropFirst(7).split(separator: " ").prefix { !"[<-".contains($0.first ?? "-") }
      help = words.joined(separator: " ") + " --help"
    }
    console.err("wx: \(message) (see `\(help)`)")
    return code.rawValue
  }
}
