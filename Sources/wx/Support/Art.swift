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
    // No white, grey or dim foreground: each vanishes on a light background or a dark one.
    // Clouds, fog and the unknown take the terminal's own foreground (39), snow cyan.
    case .cloudy: return "39"
    case .rain, .showers: return "34;1"
    case .snow: return "36;1"
    case .fog: return "39"
    case .thunder: return "33;1"
    case .unknown: return "39"
    }
  }

  /// The pictures, five lines each, in the order of `Condition.allCases`: sunny, clear,
  /// partly cloudy, cloudy, scattered clouds, rain, showers, snow, fog, thunder, unknown.
  private static let pictures: [String] = [
    "    \\   /    ", "     .-.     ", "  ― (   ) ―  ", "     `-’     ", "    /   \\    ",
    "             ", "     .-.     ", "    (   )    ", "     `-’     ", "             ",
    "   \\  /      ", " _ /\"\".-.    ", "   \\_(   ).  ", "   /(___(__) ", "             ",
    "             ", "     .--.    ", "  .-(    ).  ", " (___.__)__) ", "             ",
    "     .-.     ", "  .-(   ).   ", " (___.__)__) ", "   .--.      ", "  (____)     ",
    "     .-.     ", "    (   ).   ", "   (___(__)  ", "  ‚ʻ‚ʻ‚ʻ‚ʻ   ", "  ‚ʻ‚ʻ‚ʻ‚ʻ   ",
    " _`/\"\".-.    ", "  ,\\_(   ).  ", "   /(___(__) ", "     ʻ ʻ ʻ ʻ ", "    ʻ ʻ ʻ ʻ  ",
    "     .-.     ", "    (   ).   ", "   (___(__)  ", "    *  *  *  ", "   *  *  *   ",
    "             ", " _ - _ - _ - ", "  _ - _ - _  ", " _ - _ - _ - ", "             ",
    "     .-.     ", "    (   ).   ", "   (___(__)  ", "     _/ ‚ʻ‚ʻ ", "     /  ‚ʻ   ",
    "    .-.      ", "     __)     ", "    (        ", "     `-’     ", "      •      ",
  ]

  private static func unicodeArt(_ c: Condition) -> [String] {
    let k = Condition.allCases.firstIndex(of: c)! * 5
    return Array(pictures[k..<k + 5])
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
