import ArgumentParser
import WXCore

extension WX {
  struct Top: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "The first cities of the catalogue with their temperature.",
      discussion: "With an AccuWeather catalogue (`wx sync --provider accuweather`) these are its top cities.")

    static let counts = 1...1000

    @Option(parsing: .unconditional, help: "How many cities (1–1000).") var count = 5
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    func validate() throws {
      if !Self.counts.contains(count) { throw ValidationError("--count must be between 1 and 1000") }
    }

    func execute() async throws {
      try Self.perform(count: count, json: json, display: display.value)
    }

    /// The command itself, shared by the argument parser and the fast path (FastPath.swift).
    static func perform(count: Int, json: Bool, display: Display) throws {
      let ctx = try Context.make(display: display)
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      let cities = try catalogue.page(order: .catalogue, offset: 0, limit: count)
      let unit = ctx.unit(display)
      if json {
        Terminal.data(
          JSONOut.object([
            ("unit", .string(unit.rawValue)),
            (
              "items",
              .array(
                cities.map {
                  .object([
                    ("id", .int($0.id)), ("city", .string($0.name)), ("country", .string($0.country)),
                    ("temperature", .number(unit.jsonTemperature($0.temperatureC))),
                  ])
                })
            ),
          ]).text)
        return
      }
      var t = Table(headers: ["City", "Temperature"])
      t.rightAligned = [1]
      t.minWidths = [(0, 10)]
      t.fitting = [.shrink]
      for c in cities { t.rows.append([c.name.visible, ctx.terminal.temperature(c.temperatureC, unit)]) }
      Terminal.out(ctx.terminal.bold("Weather") + "\n" + t.render(ctx.terminal) + ctx.terminal.dim(ctx.freshness(catalogue.meta)))
    }
  }
}
