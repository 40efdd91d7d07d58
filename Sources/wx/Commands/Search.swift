import ArgumentParser
import WXCore

extension WX {
  struct Search: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Find cities by the start of their name or of any word in it.",
      discussion: """
        Case and accents do not matter (sao finds São Paulo, lodz finds Łódź). Cities whose name \
        starts with PREFIX come first, then cities with a later word starting with it (york finds \
        New York), each group alphabetical. Exits 1 when nothing matches.
        """)

    @Argument(help: "The start of a city name.") var prefix: String
    @OptionGroup var paging: PageOptions
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    func validate() throws {
      if Fold.key(prefix).isEmpty { throw ValidationError("PREFIX must contain at least one letter or digit") }
    }

    func execute() async throws {
      try Self.perform(prefix: prefix, page: paging.page, perPage: paging.perPage, json: json, display: display.value)
    }

    /// The command itself, shared by the argument parser and the fast path (FastPath.swift).
    static func perform(prefix: String, page number: Int, perPage: Int, json: Bool, display: Display) throws {
      let ctx = try Context.make(display: display)
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      let offset = (number - 1) * perPage
      let result = try catalogue.search(prefix, offset: offset, limit: perPage)
      let page = Paging(page: number, perPage: perPage, total: result.total)
      if result.total > 0 { try page.check() }
      let unit = ctx.unit(display)
      if json {
        Terminal.out(Render.pageJSON(page, result.cities, unit, query: prefix))
      } else if result.total > 0 {
        Terminal.out(
          Render.table(result.cities, first: offset + 1, unit, ctx.terminal)
            + ctx.terminal.dim(Render.footer(page, ctx.freshness(catalogue.meta))))
      }
      if result.total == 0 {
        Terminal.err("wx: no city starts with \"\(prefix)\"")
        throw NoMatch()
      }
    }
  }
}

/// City names for ArgumentParser's own completion protocol (`---completion`), which
/// `--generate-completion-script` scripts use; wx's scripts call `wx __complete` instead.
@Sendable func cityCompletions(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
  CompletionData.cities(prefix)
}
