import ArgumentParser
import WXCore

extension WX {
  struct Top: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "The first cities of the catalogue with their temperature.",
      discussion: "With an AccuWeather catalogue (`wx sync --provider accuweather`) these are its top cities.")

    @Option(help: "How many cities (1–1000).") var count = 5
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    func validate() throws {
      if count < 1 || count > 1000 { throw ValidationError("--count must be between 1 and 1000") }
    }

    func execute() async throws {
      let ctx = try Context.make(display: display.value)
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      let cities = try catalogue.page(order: .catalogue, offset: 0, limit: count)
      let unit = ctx.unit(display.value)
      if json {
        Terminal.out(
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
      for c in cities { t.rows.append([c.name, ctx.terminal.temperature(c.temperatureC, unit)]) }
      Terminal.out(ctx.terminal.bold("Weather") + "\n" + t.render(ctx.terminal) + ctx.terminal.dim(ctx.freshness(catalogue.meta)))
    }
  }

  struct Forecast: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "A city's forecast days in date order.",
      discussion: "With --hottest, only the days without rain or showers, hottest first.")

    @Argument(help: "City name, \"Name, Country\" or id (default: the last city shown).", completion: .custom(cityCompletions))
    var city: String?
    @Flag(help: "Only rain-free days, hottest first.") var hottest = false
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    func execute() async throws {
      let ctx = try Context.make(display: display.value)
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      let city = try ctx.resolveCity(city, in: catalogue)
      var days = city.forecast.sorted { $0.date < $1.date }
      if hottest {
        days = days.filter { !Condition(description: $0.description).isRainy }
          .sorted { $0.temperatureC != $1.temperatureC ? $0.temperatureC > $1.temperatureC : $0.date < $1.date }
      }
      let unit = ctx.unit(display.value)
      if json {
        Terminal.out(
          JSONOut.object([
            ("id", .int(city.id)), ("city", .string(city.name)), ("country", .string(city.country)),
            ("unit", .string(unit.rawValue)), ("days", .array(days.map { CityView.forecastItem($0, unit) })),
          ]).text)
        return
      }
      var out = ctx.terminal.bold("\(city.name), \(city.country)") + (hottest ? " · rain-free days, hottest first" : "") + "\n"
      out += days.isEmpty && hottest ? "No rain-free days in the forecast.\n" : CityView.forecastTable(days, unit, ctx.terminal, numbered: true)
      Terminal.out(out + ctx.terminal.dim(ctx.freshness(catalogue.meta)))
    }
  }

  struct Hottest: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Cities where it is not raining now, hottest first.",
      discussion: "Rain means a description mentioning rain, drizzle, storm or showers.")

    @OptionGroup var paging: PageOptions
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    func execute() async throws {
      let ctx = try Context.make(display: display.value)
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      let page = Paging(page: paging.page, perPage: paging.perPage, total: catalogue.meta.dryCount)
      try page.check()
      let cities = try catalogue.dry(offset: page.offset, limit: page.perPage)
      let unit = ctx.unit(display.value)
      if json {
        Terminal.out(Render.pageJSON(page, cities, unit))
      } else {
        Terminal.out(
          Render.table(cities, first: page.offset + 1, unit, ctx.terminal)
            + ctx.terminal.dim(Render.footer(page, one: "rain-free city", many: "rain-free cities", ctx.freshness(catalogue.meta))))
      }
    }
  }

  struct Completion: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print a shell completion script (bash, zsh or fish).",
      discussion: "City arguments complete from the local catalogue, offline. Example: wx completion bash > ~/.local/share/bash-completion/completions/wx")

    @Argument(help: "bash, zsh or fish.") var shell: CompletionShell

    func run() throws {
      Terminal.out(WX.completionScript(for: shell))
    }
  }
}

extension CompletionShell: @retroactive ExpressibleByArgument {}
