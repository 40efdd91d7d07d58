import ArgumentParser
import WXCore

/// `wx search`: cities whose name, or a later word of it, starts with the query.
struct SearchRequest: PagedRequest {
  static var options: [RequestOption<Self>] { pageOptions + outputOptions }
  static let takesWords = true
  mutating func take(words: String?) { query = words }
  var query: String?
  var pages = Pages()
  var output = Output()

  /// A query needs a letter or a digit: punctuation and spaces alone match nothing (exit 64).
  func validate() throws(UsageError) {
    try TypedName.check(query ?? "", as: "PREFIX")
    try pages.validate()
  }

  func view(_ ctx: Context, _ catalogue: Catalogue) throws -> any View {
    let query = query ?? ""
    // The catalogue and the atlas together (PlaceFinder): largest places first in each class.
    let finder = try ctx.finder(catalogue)
    defer { finder.atlas?.close() }
    let offset = (pages.page - 1) * pages.perPage
    // "Name, Qualifier" (Springfield, IL; Bangor, Wales; Paris, FR) as `wx show` reads it.
    let parts = query.split(separator: ",", maxSplits: 1).map(String.init)
    let result =
      parts.count == 2 && finder.atlas != nil && (try? TypedName.check(parts[0], as: "")) != nil
      ? try finder.search(parts[0], qualifier: parts[1], offset: offset, limit: pages.perPage)
      : try finder.search(query, offset: offset, limit: pages.perPage)
    let paging = Paging(pages, total: result.total)
    let unit = ctx.unit(output.display)
    let freshness = ctx.freshness(catalogue.meta)
    // Without the atlas (WX_ATLAS=off, not installed, damaged), the catalogue's page as before.
    let view: any View =
      finder.atlas == nil
      ? CityPage(paging: paging, cities: result.items.map(\.asCity), unit: unit, freshness: freshness, query: query, now: ctx.now)
      : PlacePage(paging: paging, items: result.items, unit: unit, freshness: freshness, query: query, now: ctx.now)
    guard result.total > 0 else {
      // Like grep: nothing found is exit 1, with an empty page for scripts.
      if output.json { Runner.show(view, json: true, ctx) }
      ctx.console.err("wx: no city name or word in it starts with \(query.quoted())")
      throw NoMatch()
    }
    try paging.check()
    return view
  }
}

extension WX {
  struct Search: RequestCommand {
    static let configuration = CommandConfiguration(
      abstract: "Find cities by the start of their name or of any word in it.",
      discussion: """
        Case, accents and punctuation do not matter (sao finds São Paulo, lodz finds Łódź, ndj finds \
        N'Djamena). The catalogue's cities and the world atlas's places (GeoNames, every place of \
        1,000 people or more; an alternate name typed whole, such as kiev or cologne, finds its \
        place): those whose name starts with PREFIX come first, then those with a later word \
        starting with it (york finds New York), each group largest first. "Prefix, Qualifier" keeps \
        those of that country, region or US state ("Springfield, IL", "Bangor, Wales"), and \
        "Prefix, Region, Country" those of both ("Springfield, MO, US"); failing those, the ones whose \
        country or region the qualifier begins ("Berlin, Germ"). St, Mt and Ft read as \
        Saint (and Sankt), Mount and Fort too, every spelling listed by size ("St Paul": Saint \
        Paul, Minnesota, then St. Paul, Alberta; "St Gallen": Sankt Gallen). Exits 1 when \
        nothing matches.
        """)

    @Argument(
      help: "The start of a city name (the words of an unquoted query are joined).",
      completion: .custom(cityCompletions))
    var words: [String] = []
    @OptionGroup var pages: PageOptions
    @OptionGroup var output: OutputOptions

    var request: SearchRequest { SearchRequest(query: words.joinedName, pages: pages.value, output: output.value) }
    func validate() throws { try check(request) }
    func execute(_ console: Console) async throws { try request.perform(console) }
  }
}
