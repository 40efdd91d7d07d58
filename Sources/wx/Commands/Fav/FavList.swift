import ArgumentParser
import WXCore

/// `wx fav` / `wx fav list`: favourites with their current weather.
struct FavListRequest: OutputRequest {
  static var options: [RequestOption<Self>] {
    [.int("page", \.pages.page), .int("per-page", \.pages.perPage), .choice("sort", \.sort), .parsed("format", \.format, { $0 })]
      + outputOptions
  }
  var pages = Pages()
  var sort = FavouriteOrder.added
  /// One line each with wttr.in's specifiers (a status bar of several places).
  var format: String?
  var output = Output()

  func validate() throws(UsageError) {
    try pages.validate()
    guard let format else { return }
    if output.json { throw UsageError("--format and --json cannot be combined") }
    try FormatLine.check(format)
  }

  /// A favourite no longer in the catalogue, as a city whose weather is unknown.
  static func withoutWeather(_ f: Favourite) -> City {
    City(
      id: f.id, name: f.name, country: f.country, latitude: f.latitude ?? .nan, longitude: f.longitude ?? .nan,
      temperatureC: nil, description: "", humidity: nil, windKmh: nil, forecast: [])
  }

  /// The favourites first: what is wrong with their store is what `wx fav` reports. Only the
  /// page shown is looked up in the catalogue and the atlas (a page of 10,000 favourites
  /// costs what a page of 20 does), except in temperature order, which needs them all;
  /// `--format` prints every favourite, one line each (a status bar's list).
  func show(in ctx: Context) throws {
    // In the order added, the page is read alone (``FavouritesStore/page(offset:limit:)``).
    let paged = sort == .added && format == nil
    let read = paged ? try ctx.home.favourites.page(offset: Paging(pages, total: .max).offset, limit: pages.perPage) : nil
    var favourites = try read?.items ?? ctx.home.favourites.list()
    let catalogue = try ctx.catalogue()
    defer { catalogue.close() }
    // Catalogue cities and atlas places (PlaceFinder): an atlas favourite without weather yet.
    let finder = try ctx.finder(catalogue)
    defer { finder.atlas?.close() }
    if sort == .name {  // each name folded once, not at every comparison
      favourites = favourites.map { (Fold.key($0.name), $0) }.sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1)
    }
    let paging = Paging(pages, total: read?.total ?? favourites.count)
    try paging.check()
    let shown =
      paged || format != nil || sort == .temperature
      ? favourites[...] : favourites.dropFirst(paging.offset).prefix(paging.perPage)
    var rows: [(Favourite, Found?)] = []
    for f in shown { rows.append((f, try finder.found(f))) }
    if sort == .temperature {
      rows.sort { ($0.1?.city?.temperatureC ?? -.infinity) > ($1.1?.city?.temperatureC ?? -.infinity) }
      if format == nil { rows = Array(rows.dropFirst(paging.offset).prefix(paging.perPage)) }
    }
    let unit = ctx.unit(output.display)
    if let format {
      ctx.console.notesMuted = true
      if rows.isEmpty { return }  // no favourites: no line (a status bar shows nothing)
      let lines = rows.map { f, found in
        found.map { FormatLine(place: $0, unit: unit, format: format, ctx) }
          ?? FormatLine(city: Self.withoutWeather(f), unit: unit, format: format, now: ctx.now, region: f.region)
      }
      return Runner.show(FormatLine.Lines(lines), json: false, ctx)
    }
    let view = FavouritesView(
      rows: rows, paging: paging, unit: unit, freshness: ctx.freshness(catalogue.meta), now: ctx.now)
    Runner.show(view, json: output.json, ctx)
  }
}

/// A page of favourites and, for those still in the catalogue, their weather.
struct FavouritesView: View {
  var rows: [(favourite: Favourite, found: Found?)]
  var paging: Paging
  var unit: Units
  var freshness: String
  /// The time now: each row's age.
  var now: Int64 = 0

  func json() -> JSON {
    .object([
      ("page", .int(paging.page)), ("per_page", .int(paging.perPage)), ("pages", .int(paging.pages)),
      ("total", .int(paging.total)),
      (
        "items",
        .array(
          rows.map { f, found in
            let stored = found?.city
            let c = stored?.current(at: now).city
            let provenance = stored.map { Ages.json($0, now) } ?? Ages.none
            return .object(
              [
                ("city", .string(f.name)), ("country", .string(f.country)), ("id", .int(c?.id ?? f.id)),
                ("added", .string(Clock.iso8601(f.added))),
                ("temperature", Fields.temperature(c?.temperatureC, unit)),
                ("unit", .string(unit.rawValue)), ("description", c.map { .string($0.description) } ?? .null),
                ("in_catalogue", .bool(c != nil)),
              ] + provenance + AtlasFields.of(found?.place))
          })
      ),
    ])
  }

  func text(_ term: Terminal) -> String {
    guard paging.total > 0 else { return term.prose("No favourites yet. Add one with `wx fav add CITY`.") }
    var t = Table(headers: ["City", "Country", "Temp", "Age", "Conditions", "Added"])
    t.rightAligned = [2, 3]
    t.minWidths = [(0, 10), (1, 8), (4, 8)]
    t.fitting = [.drop(5), .shrink, .drop(4), .drop(1), .narrow(0, 4)]
    if !Ages.anyMarked(rows.map(\.found?.city), now) { t.hide(3) }
    // Two places of one name and country on the page read with their regions.
    let names = rows.map { Fold.key($0.favourite.name) + [0] + Fold.key($0.favourite.country) }
    for (k, (f, found)) in rows.enumerated() {
      let c = found?.city?.current(at: now).city
      let region = names.filter { $0 == names[k] }.count > 1 ? (f.region ?? found?.place?.region) : nil
      t.rows.append([
        f.name.visible + (region.map { ", " + $0.visible } ?? ""), f.country.visible, term.temperature(c?.temperatureC, unit),
        c.map { Ages.cell($0, now) } ?? "",
        c?.description.visible ?? term.dim("not in the current catalogue"), Clock.format(f.added, "%Y-%m-%d"),
      ])
    }
    let count = "\(paging.total) favourite\(paging.total == 1 ? "" : "s")"
    let page = paging.pages > 1 ? "page \(paging.page) of \(paging.pages) · " : ""
    return t.render(term) + term.footer(page + count + " · " + freshness)
  }
}

extension WX.Fav {
  struct List: RequestCommand {
    static let configuration = CommandConfiguration(abstract: "List favourites with their current weather.")

    @OptionGroup var pages: PageOptions
    @Option(help: "Order: added, name or temperature (warmest first).") var sort = FavListRequest().sort
    @Option(
      parsing: .unconditional,
      help: "One line each with wx show's --format specifiers (a status bar of several places; see wx(1)).")
    var format: String?
    @OptionGroup var output: OutputOptions

    var request: FavListRequest { FavListRequest(pages: pages.value, sort: sort, format: format, output: output.value) }
    func validate() throws { try check(request) }
    func execute(_ console: Console) async throws { try request.perform(console) }
  }
}
