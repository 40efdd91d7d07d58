import ArgumentParser
import WXCore

/// `wx hottest`: rain-free cities, warmest first.
struct HottestRequest: PagedRequest {
  static var options: [RequestOption<Self>] { pageOptions + outputOptions }
  var pages = Pages()
  var output = Output()

  func view(_ ctx: Context, _ catalogue: Catalogue) throws -> any View {
    let paging = Paging(pages, total: catalogue.meta.dryCount)
    try paging.check()
    let cities = try catalogue.dry(offset: paging.offset, limit: paging.perPage)
    return CityPage(
      paging: paging, cities: cities, unit: ctx.unit(output.display), freshness: ctx.freshness(catalogue.meta),
      one: "rain-free city", many: "rain-free cities",
      empty: "No rain-free cities in the catalogue: it is raining everywhere.", now: ctx.now)
  }
}

extension WX {
  struct Hottest: RequestCommand {
    static let configuration = CommandConfiguration(
      abstract: "Cities where it is not raining now, hottest first.",
      discussion: "Rain means a description mentioning rain, drizzle, storm or showers.")

    @OptionGroup var pages: PageOptions
    @OptionGroup var output: OutputOptions

    var request: HottestRequest { HottestRequest(pages: pages.value, output: output.value) }
    func validate() throws { try check(request) }
    func execute(_ console: Console) async throws { try request.perform(console) }
  }
}
