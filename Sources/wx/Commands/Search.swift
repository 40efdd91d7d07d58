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

    @Argument(help: "The start of a city name (the words of an unquoted query are joined).") var words: [String] = []
    var prefix: String { words.joined(separator: " ") }
    @OptionGroup var paging: PageOptions
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    func validate() throws {
      if !Self.searchable(prefix) { throw ValidationError("PREFIX must contain at least one letter or digit") }
    }

    func execute() async throws {
      try Self.perform(prefix: prefix, page: paging.page, perPage: paging.perPage, json: json, display: display.value)
    }

    /// A query needs a letter or a digit: punctuation and spaces alone match nothing (exit 64).
    static func searchable(_ prefix: String) -> Bool {
      prefix.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
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
        Terminal.data(Render.pageJSON(page, result.cities, unit, query: prefix))
      } else if result.total > 0 {
        Terminal.out(
          Render.table(result.cities, first: offset + 1, unit, ctx.terminal)
            + ctx.terminal.dim(Render.footer(page, ctx.freshness(catalogue.meta))))
      }
      if result.total == 0 {
        Terminal.err("wx: no city name or word in it starts with \(prefix.quoted())")
        throw NoMatch()
      }
    }
  }
}

/// Shell completion of city names from the trie, offline.
@Sendable func cityCompletions(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
  guard let ctx = try? Context.make(), let (catalogue, _) = try? ctx.home.openCatalogue() else { return [] }
  defer { catalogue.close() }
  return (try? catalogue.completions(prefix, limit: 200)) ?? []
}
