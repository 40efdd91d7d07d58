import WXCore

/// Reading the command line a shell hands to completion, and writing candidates back into it.
///
/// bash passes the raw line (`COMP_LINE`, `COMP_POINT`), so wx splits it itself, as the shell
/// and readline would: readline replaces only the text after the last unquoted word-break
/// character or after an unclosed quote, so a candidate is written as the rest of the word from
/// there, quoted for the quote that is open. zsh and fish pass words they already split.
enum ShellQuote: Equatable {
  case none, single, double

  /// `text` written so that, typed inside this kind of quote, it reads back as `text`.
  func quote(_ text: String) -> String {
    var out = ""
    for ch in text.unicodeScalars {
      switch self {
      case .single:
        out += ch == "'" ? "'\\''" : String(ch)
      case .double:
        if "\\\"$`".unicodeScalars.contains(ch) { out += "\\" }
        out.unicodeScalars.append(ch)
      case .none:
        if ch.isASCII && !Self.plain.contains(ch) { out += "\\" }
        out.unicodeScalars.append(ch)
      }
    }
    return out
  }

  /// ASCII characters that need no backslash outside quotes.
  private static let plain = Set(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,._+-/@%".unicodeScalars)
}

/// A command line up to the cursor, split into words the way bash and readline split it.
struct ShellLine {
  /// The complete words (unquoted), the command name first.
  var words: [String] = []
  /// The word under the cursor, unquoted, up to the cursor.
  var current = ""
  /// The start of `current` that readline keeps: what precedes an unclosed quote or the last
  /// unquoted word-break character.
  var kept = ""
  /// The quote open at the cursor.
  var quote = ShellQuote.none

  /// Splits `line`; `breaks` are readline's word-break characters (`COMP_WORDBREAKS`).
  init(_ line: String, breaks: String = " \t\n\"'><=;|&(:") {
    let breakSet = Set(breaks.unicodeScalars)
    var inWord = false
    var escaped = false
    var keptAtBreak = ""  // the value up to the last unquoted word-break character
    for ch in line.unicodeScalars {
      if escaped {
        escaped = false
        // Inside double quotes a backslash quotes only \ " $ ` (and newline); it stays otherwise.
        if quote == .double && !"\\\"$`\n".unicodeScalars.contains(ch) { current += "\\" }
        current.unicodeScalars.append(ch)
        continue
      }
      switch (quote, ch) {
      case (.single, "'"), (.double, "\""):
        quote = .none
        kept = keptAtBreak
      case (.single, _):
        current.unicodeScalars.append(ch)
      case (.double, "\\"), (.none, "\\"):
        escaped = true
        inWord = true
      case (.double, _):
        current.unicodeScalars.append(ch)
      case (.none, "'"), (.none, "\""):
        kept = current
        quote = ch == "'" ? .single : .double
        inWord = true
      case (.none, " "), (.none, "\t"), (.none, "\n"):
        if inWord { words.append(current) }
        current = ""
        kept = ""
        keptAtBreak = ""
        inWord = false
      default:
        current.unicodeScalars.append(ch)
        inWord = true
        if breakSet.contains(ch) {
          keptAtBreak = current
          kept = current
        }
      }
    }
  }

  /// What to put in place of readline's text for a candidate (the whole word's value), or nil
  /// when the candidate cannot follow what readline keeps.
  func replacement(for candidate: String) -> String? {
    if !candidate.hasPrefix(kept) {
      let head = String(candidate.prefix(kept.count))
      guard head.count == kept.count, Fold.key(head) == Fold.key(kept) else { return nil }
    }
    var rest = String(candidate.dropFirst(kept.count))
    // The quote the user opened is the name's apostrophe (`n'dj` for N'Djamena): the rest
    // goes inside it (`n'Djamena'`, which folds to the same name).
    if quote == .single && rest.hasPrefix("'") && rest.count > 1 { rest.removeFirst() }
    let text = quote.quote(rest)
    // readline does not double an opening quote: a replacement starting with the open quote
    // character replaces that quote, so it gets one more.
    return quote == .single && text.hasPrefix("'") ? "'" + text : text
  }

  /// `replacement` written so that it starts with a quote character (the same word once the
  /// shell has removed the quotes): `'Zürich'` outside quotes, `""Zürich` inside `"`.
  /// readline keeps the typed word only when the candidates share no first character.
  func quoteFirst(_ replacement: String, of candidate: String) -> String {
    switch quote {
    case .none: return "'" + ShellQuote.single.quote(String(candidate.dropFirst(kept.count))) + "'"
    case .single: return "''" + replacement
    case .double: return "\"\"" + replacement
    }
  }

  /// Undoes quoting the way a shell would, leniently: an unclosed quote runs to the end.
  static func unquote(_ word: String) -> String {
    let line = ShellLine(word, breaks: "")
    return (line.words + [line.current]).joined(separator: " ")
  }
}
