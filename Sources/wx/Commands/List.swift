import ArgumentParser
import WXCore

extension WX {
  struct List: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Page through the catalogue.",
      discussion: "Orders: catalogue (the provider's order), name (alphabetical), temperature (warmest first).")

    @OptionGroup var paging: PageOptions
    @Option(help: "Order: catalogue, name or temperature.") var sort: ListOrder = .catalogue
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    func execute() async throws {
      try Self.perform(page: paging.page, perPage: paging.perPage, sort: sort, json: json, display: display.value)
    }

    /// The command itself, shared by the argument parser and the fast path (FastPath.swift).
    static func perform(page number: Int, perPage: Int, sort: ListOrder, json: Bool, display: Display) throws {
      let ctx = try Context.make(display: display)
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      let page = Paging(page: number, perPage: perPage, total: catalogue.meta.count)
      try page.check()
      let cities = try catalogue.page(order: sort, offset: page.offset, limit: page.perPage)
      let unit = ctx.unit(display)
      Render.page(page, cities, unit, json: json, ctx, catalogue.meta)
    }
  }
}

extension ListOrder: ExpressibleByArgument {}
