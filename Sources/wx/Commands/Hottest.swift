import ArgumentParser
import WXCore

/// `wx hottest`: rain-free cities, warmest first.
struct HottestRequest: PagedRequest {
  static let command = ["hottest"]
  static var options: [RequestOption<Self>] { pageOptions + displayOptions }
  var page = PageDefaults.page
  var perPage = PageDefaults.perPage
  var json = false
  var display = Display()

  func perform() throws {
    let ctx = try Context.make(display: display)
    let catalogue = try ctx.catalogue()
    defer { catalogue.close() }
    let paging = Paging(page: page, perPage: perPage, total: catalogue.meta.dryCount)
    try paging.check()
    let cities = try catalogue.dry(offset: paging.offset, limit: perPage)
    let freshness = ctx.freshness(catalogue.meta)
    if cities.isEmpty && !json {
      Terminal.out("No rain-free cities in the catalogue: it is raining everywhere.\n" + ctx.terminal.dim(freshness))
      return
    }
    let view = CityPage(
      paging: paging, cities: cities, unit: ctx.unit(display), freshness: freshness, one: "rain-free city",
      many: "rain-free cities")
    Runner.show(view, json: json, ctx.terminal)
  }
}

extension WX {
  struct Hottest: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Cities where it is not raining now, hottest first.",
      discussion: "Rain means a description mentioning rain, drizzle, storm or showers.")

    @OptionGroup var paging: PageOptions
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    var request: HottestRequest {
      HottestRequest(page: paging.page, perPage: paging.perPage, json: json, display: display.value)
    }
    func validate() throws { try check(request) }
    func execute() async throws { try request.perform() }
  }
}
