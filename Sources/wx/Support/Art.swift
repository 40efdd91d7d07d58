import WXCore

/// Small pictures of conditions, five lines of 13 columns, in Unicode or plain ASCII.
enum Art {
  static func picture(_ condition: Condition, unicode: Bool) -> [String] {
    unicode ? unicodeArt(condition) : asciiArt(condition)
  }

  /// ANSI colour for the picture's main element.
  static func color(_ condition: Condition) -> String {
    switch condition {
    case .sunny, .clear: return "33;1"
    case .partlyCloudy, .scatteredClouds: return "33"
    case .cloudy: return "37"
    case .rain, .showers: return "34;1"
    case .snow: return "97"
    case .unknown: return "2"
    }
  }

  private static func unicodeArt(_ c: Condition) -> [String] {
    switch c {
    case .sunny:
      return ["    \\   /    ", "     .-.     ", "  ― (   ) ―  ", "     `-’     ", "    /   \\    "]
    case .clear:
      return ["             ", "     .-.     ", "    (   )    ", "     `-’     ", "             "]
    case .partlyCloudy:
      return ["   \\  /      ", " _ /\"\".-.    ", "   \\_(   ).  ", "   /(___(__) ", "             "]
    case .scatteredClouds:
      return ["     .-.     ", "  .-(   ).   ", " (___.__)__) ", "   .--.      ", "  (____)     "]
    case .cloudy:
      return ["             ", "     .--.    ", "  .-(    ).  ", " (___.__)__) ", "             "]
    case .rain:
      return ["     .-.     ", "    (   ).   ", "   (___(__)  ", "  ‚ʻ‚ʻ‚ʻ‚ʻ   ", "  ‚ʻ‚ʻ‚ʻ‚ʻ   "]
    case .showers:
      return [" _`/\"\".-.    ", "  ,\\_(   ).  ", "   /(___(__) ", "     ʻ ʻ ʻ ʻ ", "    ʻ ʻ ʻ ʻ  "]
    case .snow:
      return ["     .-.     ", "    (   ).   ", "   (___(__)  ", "    *  *  *  ", "   *  *  *   "]
    case .unknown:
      return ["    .-.      ", "     __)     ", "    (        ", "     `-’     ", "      •      "]
    }
  }

  /// The Unicode pictures with their few non-ASCII strokes spelled in ASCII.
  private static func asciiArt(_ c: Condition) -> [String] {
    unicodeArt(c).map { line in
      var out = ""
      let chars = Array(line)
      var k = 0
      while k < chars.count {
        switch chars[k] {
        case "‚" where k + 1 < chars.count && chars[k + 1] == "ʻ": out += " /"; k += 1  // rain
        case "―": out += "-"
        case "’", "ʻ": out += "'"
        case "•": out += "*"
        case let ch: out.append(ch)
        }
        k += 1
      }
      return out
    }
  }
}
