import ArgumentParser
import WXCore

/// `wx search`: cities whose name, or a later word of it, starts with the query.
struct SearchRequest: PagedRequest {
  static let command = ["search"]
  static var options: [RequestOption<Self>] { pageOptions + displayOptions }
  static var words: WritableKeyPath<Self, String?>? { \.query }
  var query: String?
  var page = PageDefaults.page
  var perPage = PageDefaults.perPage
  var json = false
  var display = Display()

  /// A query needs a letter or a digit: punctuation and spaces alone match nothing (exit 64).
  func validate() throws(UsageError) {
    guard let query, query.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil })
    else { throw UsageError("PREFIX must contain at least one letter or digit") }
    try validatePaging()
  }

  func perform() throws {
    let query = query ?? ""
    let ctx = try Context.make(display: display)
    let catalogue = try ctx.catalogue()
    defer { catalogue.close() }
    let result = try catalogue.search(query, offset: (page - 1) * perPage, limit: perPage)
    let found = Paging(page: page, perPage: perPage, total: result.total)
    if result.total > 0 { try found.check() }
    let view = CityPage(
      paging: found, cities: result.cities, unit: ctx.unit(display), freshness: ctx.freshness(catalogue.meta),
      query: query)
    if json || result.total > 0 { Runner.show(view, json: json, ctx.terminal) }
    if result.total == 0 {
      Terminal.err("wx: no city name or word in it starts with \(query.quoted())")
      throw NoMatch()
    }
  }
}

extension WX {
  struct Search: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Find cities by the start of their name or of any word in it.",
      discussion: """
        Case, accents and punctuation do not matter (sao finds São Paulo, lodz finds Łódź, ndj finds \
        N'Djamena). Cities whose name starts with PREFIX come first, then cities with a later word \
        starting with it (york finds New York), each group alphabetical. Exits 1 when nothing matches.
        """)

    @Argument(help: "The start of a city name (the words of an unquoted query are joined).") var words: [String] = []
    @OptionGroup var paging: PageOptions
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    var request: SearchRequest {
      SearchRequest(query: words.joinedName, page: paging.page, perPage: paging.perPage, json: json, display: display.value)
    }
    func validate() throws { try check(request) }
    func execute() async throws { try request.perform() }
  }
}

/// City names for ArgumentParser's own completion protocol (`---completion`), which
/// `--generate-completion-script` scripts use; wx's scripts call `wx __complete` instead.
@Sendable func cityCompletions(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
  CompletionData.cities(prefix)
}
