import ArgumentParser
import WXCore

/// `wx list`: a page of the catalogue in one of three orders.
struct ListRequest: PagedRequest {
  static let command = ["list"]
  static var options: [RequestOption<Self>] { pageOptions + [.choice("sort", \.sort)] + displayOptions }
  var page = PageDefaults.page
  var perPage = PageDefaults.perPage
  var sort = ListOrder.catalogue
  var json = false
  var display = Display()

  func perform() throws {
    let ctx = try Context.make(display: display)
    let catalogue = try ctx.catalogue()
    defer { catalogue.close() }
    let paging = Paging(page: page, perPage: perPage, total: catalogue.meta.count)
    try paging.check()
    let cities = try catalogue.page(order: sort, offset: paging.offset, limit: perPage)
    let view = CityPage(paging: paging, cities: cities, unit: ctx.unit(display), freshness: ctx.freshness(catalogue.meta))
    Runner.show(view, json: json, ctx.terminal)
  }
}

extension WX {
  struct List: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Page through the catalogue.",
      discussion: "Orders: catalogue (the provider's order), name (alphabetical), temperature (warmest first).")

    @OptionGroup var paging: PageOptions
    @Option(help: "Order: catalogue, name or temperature.") var sort = ListRequest().sort
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    var request: ListRequest {
      ListRequest(page: paging.page, perPage: paging.perPage, sort: sort, json: json, display: display.value)
    }
    func validate() throws { try check(request) }
    func execute() async throws { try request.perform() }
  }
}

extension ListOrder: ExpressibleByArgument {}
