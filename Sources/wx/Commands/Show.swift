import ArgumentParser
import WXCore

/// `wx show`: one city's weather and forecast (the last city shown without CITY).
struct ShowRequest: DisplayRequest {
  static let command = ["show"]
  static var options: [RequestOption<Self>] { displayOptions }
  static var words: WritableKeyPath<Self, String?>? { \.city }
  var city: String?
  var json = false
  var display = Display()

  func perform() throws {
    let ctx = try Context.make(display: display)
    let catalogue = try ctx.catalogue()
    defer { catalogue.close() }
    let found = try ctx.resolveCity(city, in: catalogue)
    let view = CityView(city: found, unit: ctx.unit(display), freshness: ctx.freshness(catalogue.meta))
    Runner.show(view, json: json, ctx.terminal)
  }
}

extension WX {
  struct Show: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Current weather and forecast for a city.",
      discussion: """
        CITY is a name (case, accents and punctuation do not matter: zurich finds Zürich, ndjamena \
        finds N'Djamena), "Name, Country" (the country as a name, a prefix, an ISO code such as FR \
        or FRA, or UK/USA), or an id. Without CITY, the last city shown.
        """)

    @Argument(
      help: "City name, \"Name, Country\" or id (the words of an unquoted name are joined).",
      completion: .custom(cityCompletions))
    var city: [String] = []
    @Flag(help: "Print JSON instead of text.") var json = false
    @OptionGroup var display: DisplayOptions

    var request: ShowRequest { ShowRequest(city: city.joinedName, json: json, display: display.value) }
    func execute() async throws { try request.perform() }
  }
}
