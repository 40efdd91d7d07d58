import ArgumentParser
import WXCore

extension WX {
  struct Unit: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show or set the temperature unit (celsius or fahrenheit).",
      discussion: "Wind follows the unit: km/h with celsius, mph with fahrenheit. --unit on a read command overrides it once.")

    @Argument(help: "celsius (c) or fahrenheit (f); omit to show the current unit.") var unit: UnitArgument?

    func execute() async throws {
      let ctx = try Context.make()
      if let unit = unit?.unit {
        try ctx.home.prepare()
        try ctx.home.preferences.modify { $0.unit = unit }
      }
      Terminal.out((try ctx.home.preferences.load()).unit.rawValue)
    }
  }
}
