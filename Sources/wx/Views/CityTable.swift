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
  /// The time now (seconds since the epoch): each row's age.
  var now: Int64 = 0

  func json() -> JSON {
    var members: [(String, JSON)] = []
    if let query { members.append(("query", .string(query))) }
    members += [
      ("page", .int(paging.page)), ("per_page", .int(paging.perPage)), ("pages", .int(paging.pages)),
      ("total", .int(paging.total)), ("items", .array(cities.map { Self.item($0, unit, now) })),
    ]
    return .object(members)
  }

  /// The item object shared by `list`, `search` and `hottest` JSON, with the city's
  /// provenance (``Ages/json(_:_:)``).
  static func item(_ c: City, _ unit: Units, _ now: Int64) -> JSON {
    let shown = c.current(at: now).city
    return .object(
      [
        ("id", .int(c.id)), ("city", .string(c.name)), ("country", Fields.country(c)),
      ] + Fields.weather(shown.temperatureC, shown.description, shown.humidity, shown.windKmh, unit)
        + Ages.json(c, now))
  }

  func text(_ term: Terminal) -> String {
    if cities.isEmpty, let empty { return empty + "\n" + term.footer(freshness) }
    return Self.table(cities, first: paging.offset + 1, unit, now, term) + term.footer(footer)
  }

  /// `page 2 of 3 · 51 cities · synced …`.
  var footer: String {
    "page \(paging.page) of \(paging.pages) · \(paging.total) \(paging.total == 1 ? one : many) · \(freshness)"
  }

  /// City · Country · Temp · Age · Conditions · Humidity · Wind rows, numbered from `first`;
  /// Age (``Ages/cell(_:_:)``: `5h`, `2d`, `sample`) only when a row's values are over three
  /// hours old or invented. On a narrow screen Humidity, Wind and # go first, then City,
  /// Country and Conditions are shortened (to 10, 8 and 8 columns), then Conditions and
  /// Country go, then City is shortened further: the age is the last thing cut.
  static func table(_ cities: [City], first: Int, _ unit: Units, _ now: Int64, _ term: Terminal) -> String {
    var t = Table(headers: ["#", "City", "Country", "Temp", "Age", "Conditions", "Humidity", "Wind"])
    t.rightAligned = [0, 3, 4, 6, 7]
    t.maxWidths = [(1, 28), (2, 24), (5, 20)]
    t.minWidths = [(1, 10), (2, 8), (5, 8)]
    t.fitting = [.drop(6), .drop(7), .drop(0), .shrink, .drop(5), .drop(2), .narrow(1, 4)]
    if !Ages.anyMarked(cities, now) { t.hide(4) }
    for (k, city) in cities.enumerated() {
      let c = city.current(at: now).city
      t.rows.append([
        String(first + k), c.name.visible, c.country.visible, term.temperature(c.temperatureC, unit), Ages.cell(c, now),
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
