import ArgumentParser
import WXCore

/// `wx list`: a page of the catalogue in one of three orders.
struct ListRequest: PagedRequest {
  static var options: [RequestOption<Self>] { pageOptions + [.choice("sort", \.sort)] + outputOptions }
  var pages = Pages()
  var sort = ListOrder.catalogue
  var output = Output()

  func view(_ ctx: Context, _ catalogue: Catalogue) throws -> any View {
    let paging = Paging(pages, total: catalogue.meta.count)
    try paging.check()
    let cities = try catalogue.page(order: sort, offset: paging.offset, limit: paging.perPage)
    return CityPage(
      paging: paging, cities: cities, unit: ctx.unit(output.display), freshness: ctx.freshness(catalogue.meta), now: ctx.now)
  }
}

extension WX {
  struct List: RequestCommand {
    static let configuration = CommandConfiguration(
      abstract: "Page through the catalogue.",
      discussion: "Orders: catalogue (the provider's order), name (alphabetical), temperature (warmest first).")

    @OptionGroup var pages: PageOptions
    @Option(help: "Order: catalogue, name or temperature.") var sort = ListRequest().sort
    @OptionGroup var output: OutputOptions

    var request: ListRequest { ListRequest(pages: pages.value, sort: sort, output: output.value) }
    func validate() throws { try check(request) }
    func execute(_ console: Console) async throws { try request.perform(console) }
  }
}

extension ListOrder: ExpressibleByArgument {}
