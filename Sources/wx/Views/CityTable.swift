import WXCore

/// A page of cities as `list`, `search` and `hottest` show it: the table and its footer, or
/// `{"page", "per_page", "pages", "total", "items"}` (with `"query"` for a search).
struct CityPage: View {
  var paging: Paging
  var cities: [City]
  var unit: Units
  /// `synced … (3h ago)`, the footer's tail.
  var freshness: String
  var query: String? = nil
  var one = "city"
  var many = "cities"
  /// Said instead of an empty table (JSON stays a page with no items).
  var empty: String? = nil

  func json() -> JSON {
    var members: [(String, JSON)] = []
    if let query { members.append(("query", .string(query))) }
    members += [
      ("page", .int(paging.page)), ("per_page", .int(paging.perPage)), ("pages", .int(paging.pages)),
      ("total", .int(paging.total)), ("items", .array(cities.map { Self.item($0, unit) })),
    ]
    return .object(members)
  }

  /// The item object shared by `list`, `search` and `hottest` JSON.
  static func item(_ c: City, _ unit: Units) -> JSON {
    .object(
      [
        ("id", .int(c.id)), ("city", .string(c.name)), ("country", Fields.country(c)),
      ] + Fields.weather(c.temperatureC, c.description, c.humidity, c.windKmh, unit))
  }

  func text(_ term: Terminal) -> String {
    if cities.isEmpty, let empty { return empty + "\n" + term.dim(freshness) }
    return Self.table(cities, first: paging.offset + 1, unit, term) + term.dim(footer)
  }

  /// `page 2 of 3 · 51 cities · synced …`.
  var footer: String {
    "page \(paging.page) of \(paging.pages) · \(paging.total) \(paging.total == 1 ? one : many) · \(freshness)"
  }

  /// City · Country · Temp · Conditions · Humidity · Wind rows, numbered from `first`.
  /// On a narrow screen Humidity, Wind and # go first, then City, Country and Conditions are
  /// shortened (to 10, 8 and 8 columns), then Conditions and Country go.
  static func table(_ cities: [City], first: Int, _ unit: Units, _ term: Terminal) -> String {
    var t = Table(headers: ["#", "City", "Country", "Temp", "Conditions", "Humidity", "Wind"])
    t.rightAligned = [0, 3, 5, 6]
    t.maxWidths = [(1, 28), (2, 24), (4, 20)]
    t.minWidths = [(1, 10), (2, 8), (4, 8)]
    t.fitting = [.drop(5), .drop(6), .drop(0), .shrink, .drop(4), .drop(2)]
    for (k, c) in cities.enumerated() {
      t.rows.append([
        String(first + k), c.name.visible, c.country.visible, term.temperature(c.temperatureC, unit),
        c.description.visible, Fields.humidity(c.humidity), Fields.wind(c.windKmh, unit),
      ])
    }
    return t.render(term)
  }
}

/// Page arithmetic shared by list, search and hottest.
struct Paging {
  let page: Int
  let perPage: Int
  let total: Int

  init(_ pages: Pages, total: Int) {
    page = pages.page
    perPage = pages.perPage
    self.total = total
  }

  var pages: Int { max(1, (total + perPage - 1) / perPage) }
  /// The first row's position; past any catalogue (`Int.max`) when it would overflow
  /// (`--page 9223372036854775807`): every page arithmetic is checked.
  var offset: Int {
    let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
    return overflow ? Int.max : offset
  }

  /// Throws a usage error for a page past the end (page 1 of an empty list is fine).
  func check() throws {
    if page > pages { throw UsageError("page \(page) is past the end: there \(pages == 1 ? "is 1 page" : "are \(pages) pages")") }
  }
}
