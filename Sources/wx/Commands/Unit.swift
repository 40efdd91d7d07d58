import ArgumentParser
import WXCore

extension WX {
  struct Unit: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show or set the temperature unit (celsius or fahrenheit), or the wind unit.",
      discussion: """
        `wx unit f` saves the temperature unit only. Wind follows it (km/h with celsius, mph with \
        fahrenheit) unless `wx unit wind UNIT` saved one of its own: kmh, mph, ms, knots or beaufort \
        (`wx unit wind auto` follows the temperature unit again). Precipitation follows the \
        temperature unit: mm with celsius, inches with fahrenheit. --unit and --wind on a read \
        command override them once.
        """)

    @Argument(
      help: "celsius (c) or fahrenheit (f); or wind, then kmh, mph, ms, knots, beaufort or auto; omit to show the units.",
      completion: .list(UnitArgument.allValueStrings + ["wind"]))
    var words: [String] = []

    /// What the words ask: set the temperature unit, set (nil: follow) the wind unit, or show.
    enum Change {
      case temperature(TemperatureUnit)
      case wind(WindUnit?)
      case show, showWind
    }

    var change: Change {
      get throws {
        // Words in any case, as the units themselves are read (`wx unit WIND Auto`).
        let words = words.map { $0.lowercased() == "wind" || $0.lowercased() == "auto" ? $0.lowercased() : $0 }
        switch words.count {
        case 0: return .show
        case 1 where words[0] == "wind": return .showWind
        case 1:
          guard let unit = TemperatureUnit(argument: words[0]) else {
            throw ValidationError(
              "\(words[0].quoted(limit: 40)) is not a unit: use celsius (c) or fahrenheit (f), or wind and a wind unit")
          }
          return .temperature(unit)
        case 2 where words[0] == "wind":
          if words[1] == "auto" { return .wind(nil) }
          guard let wind = WindUnit(argument: words[1]) else {
            throw ValidationError("\(words[1].quoted(limit: 40)) is not a wind unit: use kmh, mph, ms, knots, beaufort or auto")
          }
          return .wind(wind)
        default: throw ValidationError("give one unit, or wind and a wind unit")
        }
      }
    }

    func validate() throws { _ = try change }

    func execute(_ console: Console) async throws {
      let ctx = try Context.make(console)
      let change = try change
      if let apply = change.apply {
        try ctx.home.prepare()
        try ctx.home.preferences.modify(apply)
      }
      console.out(change.shown(try ctx.home.preferences.load()))
    }
  }
}

extension WX.Unit.Change {
  /// What it saves (nil: it only shows).
  var apply: ((inout Preferences) -> Void)? {
    switch self {
    case .temperature(let unit): return { $0.unit = unit }
    case .wind(let wind): return { $0.wind = wind }
    case .show, .showWind: return nil
    }
  }

  /// What it prints of the `saved` preferences: the wind unit, or the temperature unit and a
  /// wind unit saved apart on a line of its own.
  func shown(_ saved: Preferences) -> String {
    switch self {
    case .wind, .showWind: return Units(saved.unit, wind: saved.wind).wind.rawValue
    case .temperature, .show: return saved.unit.rawValue + (saved.wind.map { "\nwind \($0.rawValue)" } ?? "")
    }
  }
}
