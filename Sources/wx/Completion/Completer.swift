import WXCore
import WXFeed

/// The candidates for the word under the cursor, given the words before it.
///
/// Everything is matched here, once, so the shells need not (and must not) filter again:
/// city names through the catalogue's trie (case, accents and the rest of `Fold` ignored, like
/// `wx search`), every other word by a case-insensitive prefix. Candidates holding control or
/// bidi-override characters (API data is untrusted) are dropped, so each is one printable line.
struct Completer {
  /// The words after `wx` and before the cursor's word, unquoted.
  var words: [String]
  /// The cursor's word up to the cursor, unquoted.
  var current: String

  /// A candidate: the whole word, and whether it is a name from the user's data.
  struct Candidate: Equatable {
    var word: String
    var isName = false
  }

  func candidates() -> [Candidate] {
    var command = CompletionGrammar.root
    var path: [CompletionCommand] = []
    var pending: CompletionOption?
    var positionals: [String] = []
    var onlyPositionals = false
    for word in words {
      if pending != nil {
        pending = nil
      } else if !onlyPositionals && word == "--" {
        onlyPositionals = true
      } else if !onlyPositionals && word.hasPrefix("-") && word.count > 1 {
        if !word.contains("="), let option = command.option(word), option.value != nil { pending = option }
      } else if positionals.isEmpty, let sub = command.subcommand(word) {
        path.append(command)
        command = sub
      } else {
        positionals.append(word)
      }
    }
    if let option = pending { return complete(option.value ?? .none, help: positionals) }
    if !onlyPositionals && current.hasPrefix("-") {
      if current.hasPrefix("--"), let eq = current.firstIndex(of: "=") {
        let name = String(current[..<eq])
        guard let option = command.option(name), let source = option.value else { return [] }
        let value = String(current[current.index(after: eq)...])
        return Completer(words: [], current: value).complete(source, help: [])
          .map { Candidate(word: name + "=" + $0.word, isName: $0.isName) }
      }
      return matching(command.allOptions.flatMap(\.names))
    }
    var out: [Candidate] = []
    if positionals.isEmpty && !command.subcommands.isEmpty {
      out = matching(CompletionGrammar.names(command))
    }
    // A command whose words are one name (`wx show New York`) completes its first argument
    // across all of them; one that takes several names (`wx fav add`) completes each.
    if command.joinsWords && !positionals.isEmpty {
      return out + complete(command.argument(0), help: positionals, after: positionals, whole: true)
    }
    return out + complete(command.argument(positionals.count), help: positionals, after: command.repeats ? positionals : [])
  }

  /// Candidates from one source, for `current`.
  /// `before`: the names typed before the cursor's word that a name may continue from.
  func complete(_ source: CompletionSource, help positionals: [String], after before: [String] = [], whole: Bool = false)
    -> [Candidate]
  {
    switch source {
    case .none: return []
    case .words(let list): return matching(list)
    case .commands:
      var command = CompletionGrammar.root
      for word in positionals {
        guard let sub = command.subcommand(word) else { return [] }
        command = sub
      }
      return matching(CompletionGrammar.names(command))
    case .cities: return names(CompletionData.cities(current, after: before, whole: whole))
    case .favourites: return names(CompletionData.favourites(current, after: before, whole: whole))
    case .airQualityCities: return names(CompletionData.airQualityCities(current, after: before, whole: whole))
    }
  }

  func matching(_ list: [String]) -> [Candidate] { Self.matching(list, current) }

  static func matching(_ list: [String], _ prefix: String) -> [Candidate] {
    let p = prefix.lowercased()
    return list.filter { $0.lowercased().hasPrefix(p) }.map { Candidate(word: $0) }
  }

  private func names(_ list: [String]) -> [Candidate] {
    var seen = Set<String>()
    return list.filter { Self.isPrintable($0) && seen.insert($0).inserted }.map { Candidate(word: $0, isName: true) }
  }

  /// False for text holding C0/C1 controls, DEL, line/paragraph separators or bidi controls
  /// (``UnsafeScalars``).
  static func isPrintable(_ text: String) -> Bool {
    !text.isEmpty && !UnsafeScalars.found(in: text)
  }
}
