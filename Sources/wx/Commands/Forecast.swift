import ArgumentParser
import WXCore

extension WX {
  struct Forecast: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "A city's forecast days in date order.",
      discussion: "With --hottest, only the days without rain or showers, hottest first.")

    @Argument(help: "City name, \"Name, Country\" or id (default: the last city shown).", completion: .custom(cityCompletions))
    var city: [String] = []
    @Flag(help: "Only rain-free days, hottest first.") var hottest = false
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    func execute() async throws {
      try Self.perform(city: city.joinedName, hottest: hottest, json: json, display: display.value)
    }

    /// The command itself, shared by the argument parser and the fast path (FastPath.swift).
    static func perform(city argument: String?, hottest: Bool, json: Bool, display: Display) throws {
      let ctx = try Context.make(display: display)
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      let city = try ctx.resolveCity(argument, in: catalogue)
      var days = city.forecast.sorted { $0.date < $1.date }
      if hottest {
        days = days.filter { !Condition(description: $0.description).isRainy }
          .sorted { $0.temperatureC != $1.temperatureC ? $0.temperatureC > $1.temperatureC : $0.date < $1.date }
      }
      let unit = ctx.unit(display)
      if json {
        Terminal.data(
          JSONOut.object([
            ("id", .int(city.id)), ("city", .string(city.name)), ("country", .string(city.country)),
            ("unit", .string(unit.rawValue)), ("days", .array(days.map { CityView.forecastItem($0, unit) })),
          ]).text)
        return
      }
      var out = ctx.terminal.bold("\(city.name.visible), \(city.country.visible)") + (hottest ? " · rain-free days, hottest first" : "") + "\n"
      out += days.isEmpty && hottest ? "No rain-free days in the forecast.\n" : CityView.forecastTable(days, unit, ctx.terminal, numbered: true)
      Terminal.out(out + ctx.terminal.dim(ctx.freshness(catalogue.meta)))
    }
  }
}
