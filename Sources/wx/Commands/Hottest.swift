import ArgumentParser
import WXCore

extension WX {
  struct Hottest: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Cities where it is not raining now, hottest first.",
      discussion: "Rain means a description mentioning rain, drizzle, storm or showers.")

    @OptionGroup var paging: PageOptions
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    func execute() async throws {
      try Self.perform(page: paging.page, perPage: paging.perPage, json: json, display: display.value)
    }

    /// The command itself, shared by the argument parser and the fast path (FastPath.swift).
    static func perform(page number: Int, perPage: Int, json: Bool, display: Display) throws {
      let ctx = try Context.make(display: display)
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      let page = Paging(page: number, perPage: perPage, total: catalogue.meta.dryCount)
      try page.check()
      let cities = try catalogue.dry(offset: page.offset, limit: page.perPage)
      let unit = ctx.unit(display)
      if cities.isEmpty && !json {
        Terminal.out("No rain-free cities in the catalogue: it is raining everywhere.\n" + ctx.terminal.dim(ctx.freshness(catalogue.meta)))
        return
      }
      Render.page(page, cities, unit, json: json, ctx, catalogue.meta, one: "rain-free city", many: "rain-free cities")
    }
  }
}
