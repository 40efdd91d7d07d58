import WXCore

/// `wx __complete SHELL …`, the hidden command the completion scripts call on every TAB.
/// It runs before ArgumentParser starts (see `Main`), reads only the trie and the small
/// stores, and prints one candidate a line:
///
/// - `wx __complete bash LINE POINT WORDBREAKS`: bash's `COMP_LINE`, `COMP_POINT` (a byte
///   offset) and `COMP_WORDBREAKS`. wx splits the line itself and prints each candidate as the
///   text that replaces readline's word, quoted (`New\ York`, `N\'Djamena`, or escaped for the
///   quote the user opened), so that readline never shortens the typed word (see `lines`).
/// - `wx __complete zsh -- WORD… CURRENT`: unquoted words; zsh quotes what it inserts.
/// - `wx __complete fish -- WORD… CURRENT`: unquoted words and the raw current token; a name
///   that fish would not match itself is offered so that it does (see `fish`).
enum CompletionEntry {
  static let command = "__complete"

  /// The exit status, or nil when `args` is not a `__complete` command line.
  static func run(_ args: [String], _ console: Console) -> Int32? {
    guard args.first == command else { return nil }
    let rest = Array(args.dropFirst())
    guard let lines = lines(rest) else {
      console.err("wx: usage: wx __complete bash LINE POINT WORDBREAKS | wx __complete zsh|fish -- WORD… CURRENT")
      return ExitStatus.usage.rawValue
    }
    if !lines.isEmpty { console.data(lines.joined(separator: "\n")) }
    return 0
  }

  /// The candidates as the locale can insert them: in a non-UTF-8 locale, names in their
  /// ASCII spelling (Łódź → Lodz, which wx reads as Łódź), never bytes the shell shows as
  /// `$'\305'`; a name with no ASCII spelling (東京) is left out. Each once.
  static func spelled(_ found: [Completer.Candidate]) -> [Completer.Candidate] {
    guard !Terminal.localeIsUTF8 else { return found }
    var seen = Set<String>()
    return found.compactMap { c in
      var c = c
      c.word = Fold.ascii(c.word)
      guard !c.word.contains("?"), seen.insert(c.word).inserted else { return nil }
      return c
    }
  }

  /// The longest prefix all `words` share, by Unicode scalar (as the shells compare).
  static func sharedPrefix(_ words: [String]) -> String {
    guard var shared = words.first?.unicodeScalars.map({ $0 }) else { return "" }
    for word in words.dropFirst() {
      let scalars = Array(word.unicodeScalars)
      var k = 0
      while k < min(shared.count, scalars.count) && shared[k] == scalars[k] { k += 1 }
      shared.removeLast(shared.count - k)
    }
    var out = String.UnicodeScalarView()
    out.append(contentsOf: shared)
    return String(out)
  }

  static func lines(_ args: [String]) -> [String]? {
    switch (args.first, args.count) {
    case ("bash", 3), ("bash", 4):
      let point = Int(args[2]) ?? Int.max
      let line = ShellLine(
        String(decoding: args[1].utf8.prefix(max(0, point)), as: UTF8.self),
        breaks: args.count == 4 ? args[3] : " \t\n\"'><=;|&(:")
      let found = Self.spelled(Completer(words: Array(line.words.dropFirst()), current: line.current).candidates())
      var replies: [String] = []
      var words: [String] = []
      for c in found {
        guard let reply = line.replacement(for: c.word) else { continue }
        replies.append(reply)
        words.append(c.word)
      }
      // readline replaces the word with what all candidates share. When that is shorter than
      // what was typed ("Zu": Zurich and Zürich share "Z"), readline would cut the word; it
      // keeps the word as typed only when the candidates share nothing. So one candidate is
      // written quoted (`'Zürich'`, one that does not start with the word as typed): the same
      // name once the shell removes the quotes, and readline lists them all and keeps "Zu".
      let shared = Self.sharedPrefix(replies).count
      if replies.count > 1, let typed = line.replacement(for: line.current), shared > 0, shared < typed.count {
        let rest = replies.indices.dropFirst()
        let k =
          rest.first { !replies[$0].lowercased().hasPrefix(typed.lowercased()) } ?? rest.first { !replies[$0].hasPrefix(typed) }
          ?? replies.count - 1
        replies[k] = line.quoteFirst(replies[k], of: words[k])
      }
      return replies
    case ("zsh", 2...) where args[1] == "--":
      return Self.spelled(Completer(words: Array(args.dropFirst(2).dropLast()), current: args.last ?? "").candidates()).map(
        \.word)
    case ("fish", 2...) where args[1] == "--":
      let current = args.count > 2 ? ShellLine.unquote(args[args.count - 1]) : ""
      let found = Self.spelled(Completer(words: Array(args.dropFirst(2).dropLast()), current: current).candidates())
      return fish(found, current)
    default:
      return nil
    }
  }

  /// fish matches what it is offered against the typed word once more, ignoring case but not
  /// accents, and keeps only the candidates of the best kind of match it finds (a name that
  /// starts with the word hides one that only contains it, which hides one matched by its
  /// description). So a name matched only when folded is offered as its ASCII spelling
  /// (`koln`: Kolno and Koln, described Köln) when another name starts with the word and none
  /// is spelled so, else as itself with its folded form as the description (`sao`: São
  /// Paulo); a place the word names whole by another of its names (`kiev`: Kyiv) as the word
  /// itself, described by the place's name.
  static func fish(_ found: [Completer.Candidate], _ current: String) -> [String] {
    let typed = current.lowercased()
    let key = Fold.key(current)
    let someStart = found.contains { $0.isName && $0.word.lowercased().hasPrefix(typed) }
    let spelled = Set(found.lazy.filter(\.isName).map { $0.word.lowercased() })
    return found.map { c in
      guard c.isName, !key.isEmpty, !c.word.lowercased().contains(typed) else { return c.word }
      let (folded, starts) = Fold.keyAndWordStarts(c.word)
      let described = c.word + "\t" + String(decoding: folded, as: UTF8.self)
      // By its own name, the word as typed or as wx also reads it (`o fal`: O'Fallon).
      let byItsName = Resolver<CatalogueNames>.keys(key).contains { k in
        ([0] + starts).contains(where: { folded[$0...].starts(with: k) })
      }
      guard byItsName else {
        // Not by its own name: fish still matches `us` to United States (its letters in
        // order), but nothing to `kiev` in Kyiv.
        return isSubsequence(typed, of: c.word.lowercased()) || !Completer.isPrintable(current)
          ? described : current + "\t" + c.word
      }
      // Not when another name is spelled so: without the atlas, wx resolves `Zurich` to the
      // one spelled as typed (Canada's), not to Zürich.
      if someStart, let ascii = asciiSpelling(c.word), ascii.lowercased().contains(typed), !spelled.contains(ascii.lowercased()) {
        return ascii + "\t" + c.word
      }
      // Typed without its apostrophes, hyphens or periods (`ndj`: N'Djamena, offered as
      // Ndjamena, which names it as well), when another name starts with the word: fish would
      // hide the name behind those.
      if someStart, let plain = asciiSpelling(c.word).map(withoutPunctuation), plain.lowercased().hasPrefix(typed),
        !spelled.contains(plain.lowercased())
      {
        return plain + "\t" + c.word
      }
      return described
    }
  }

  /// `name` without its apostrophes, hyphens and periods, the letter after each in lower case
  /// (`N'Djamena` → `Ndjamena`, `Saint-Étienne` → `Saint-etienne`… as folded), as a person
  /// types it.
  static func withoutPunctuation(_ name: String) -> String {
    var out = ""
    var lower = false
    for ch in name {
      if ch == "'" || ch == "’" || ch == "-" || ch == "." {
        lower = true
        continue
      }
      out += lower ? ch.lowercased() : String(ch)
      lower = false
    }
    return out
  }

  /// Whether the characters of `word` are in `text`, in order.
  static func isSubsequence(_ word: String, of text: String) -> Bool {
    var rest = text[...]
    for ch in word {
      guard let at = rest.firstIndex(of: ch) else { return false }
      rest = rest[rest.index(after: at)...]
    }
    return true
  }

  /// `name` with each letter past ASCII spelled as it folds, keeping its case (`Zürich` →
  /// `Zurich`, `Łódź` → `Lodz`), or nil when that would not fold to the same key (a name in
  /// another script).
  static func asciiSpelling(_ name: String) -> String? {
    var out = ""
    for ch in name {
      guard !ch.isASCII else {
        out.append(ch)
        continue
      }
      let folded = String(decoding: Fold.key(String(ch)), as: UTF8.self)
      guard !folded.isEmpty, folded.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
      out += ch.isUppercase ? folded.prefix(1).uppercased() + folded.dropFirst() : folded
    }
    return Fold.key(out) == Fold.key(name) ? out : nil
  }
}
