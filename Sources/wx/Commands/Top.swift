import ArgumentParser
import WXCore

/// `wx top`: the first cities of the catalogue with their temperature.
struct TopRequest: CatalogueRequest {
  static var options: [RequestOption<Self>] { [.int("count", \.count)] + outputOptions }
  static let counts = 1...1000
  var count = 5
  var output = Output()

  func validate() throws(UsageError) {
    if !Self.counts.contains(count) { throw UsageError("--count must be between 1 and 1000") }
  }

  func view(_ ctx: Context, _ catalogue: Catalogue) throws -> any View {
    let cities = try catalogue.page(order: .catalogue, offset: 0, limit: count)
    return TopView(cities: cities, unit: ctx.unit(output.display), freshness: ctx.freshness(catalogue.meta), now: ctx.now)
  }
}

/// "Weather" and City | Temperature rows; `{"unit", "items": [{id, city, country, temperature}]}`.
struct TopView: View {
  var cities: [City]
  var unit: Units
  var freshness: String
  /// The time now: each row's age.
  var now: Int64 = 0

  func json() -> JSON {
    .object([
      ("unit", .string(unit.rawValue)),
      (
        "items",
        .array(
          cities.map {
            .object(
              [
                ("id", .int($0.id)), ("city", .string($0.name)), ("country", .string($0.country)),
                ("temperature", Fields.temperature($0.current(at: now).city.temperatureC, unit)),
              ] + Ages.json($0, now))
          })
      ),
    ])
  }

  func text(_ term: Terminal) -> String {
    // On a narrow screen the header is shortened, so that the age still fits beside it.
    var t = Table(headers: ["City", (term.width ?? 80) < 30 ? "Temp" : "Temperature", "Age"])
    t.rightAligned = [1, 2]
    t.minWidths = [(0, 10)]
    t.fitting = [.shrink, .narrow(0, 4)]
    if !Ages.anyMarked(cities, now) { t.hide(2) }
    for c in cities {
      t.rows.append([c.name.visible, term.temperature(c.current(at: now).city.temperatureC, unit), Ages.cell(c, now)])
    }
    return term.bold("Weather") + "\n" + t.render(term) + term.footer(freshness)
  }
}

extension WX {
  struct Top: RequestCommand {
    static let configuration = CommandConfiguration(
      abstract: "The first cities of the catalogue with their temperature.",
      discussion: "With an AccuWeather catalogue (`wx sync --provider accuweather`) these are its top cities.")

    @Option(parsing: .unconditional, help: "How many cities (1–1000).") var count = TopRequest().count
    @OptionGroup var output: OutputOptions

    var request: TopRequest { TopRequest(count: count, output: output.value) }
    func validate() throws { try check(request) }
    func execute(_ console: Console) async throws { try request.perform(console) }
  }
}
