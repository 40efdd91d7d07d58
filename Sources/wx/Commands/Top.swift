import ArgumentParser
import WXCore

/// `wx top`: the first cities of the catalogue with their temperature.
struct TopRequest: DisplayRequest {
  static let command = ["top"]
  static var options: [RequestOption<Self>] { [.int("count", \.count)] + displayOptions }
  static let counts = 1...1000
  var count = 5
  var json = false
  var display = Display()

  func validate() throws(UsageError) {
    if !Self.counts.contains(count) { throw UsageError("--count must be between 1 and 1000") }
  }

  func perform() throws {
    let ctx = try Context.make(display: display)
    let catalogue = try ctx.catalogue()
    defer { catalogue.close() }
    let cities = try catalogue.page(order: .catalogue, offset: 0, limit: count)
    let view = TopView(cities: cities, unit: ctx.unit(display), freshness: ctx.freshness(catalogue.meta))
    Runner.show(view, json: json, ctx.terminal)
  }
}

/// "Weather" and City | Temperature rows; `{"unit", "items": [{id, city, country, temperature}]}`.
struct TopView: View {
  var cities: [City]
  var unit: TemperatureUnit
  var freshness: String

  func json() -> JSONOut {
    .object([
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
    ])
  }

  func text(_ term: Terminal) -> String {
    var t = Table(headers: ["City", "Temperature"])
    t.rightAligned = [1]
    t.minWidths = [(0, 10)]
    t.fitting = [.shrink]
    for c in cities { t.rows.append([c.name.visible, term.temperature(c.temperatureC, unit)]) }
    return term.bold("Weather") + "\n" + t.render(term) + term.dim(freshness)
  }
}

extension WX {
  struct Top: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "The first cities of the catalogue with their temperature.",
      discussion: "With an AccuWeather catalogue (`wx sync --provider accuweather`) these are its top cities.")

    @Option(parsing: .unconditional, help: "How many cities (1–1000).") var count = TopRequest().count
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    var request: TopRequest { TopRequest(count: count, json: json, display: display.value) }
    func validate() throws { try check(request) }
    func execute() async throws { try request.perform() }
  }
}
