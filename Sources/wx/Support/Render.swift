import WXCore

/// Rendering of cities: tables for people, JSON for scripts. Units convert here only.
enum Render {
  /// The item object shared by `list`, `search` and `hottest` JSON.
  static func item(_ c: City, _ unit: TemperatureUnit) -> JSONOut {
    .object([
      ("id", .int(c.id)), ("city", .string(c.name)), ("country", .string(c.country)),
      ("temperature", .number(unit.jsonTemperature(c.temperatureC))), ("unit", .string(unit.rawValue)),
      ("description", .string(c.description)), ("humidity", .number(c.humidity)),
      ("wind_speed", .number(unit.jsonWind(c.windKmh))),
    ])
  }

  static func pageJSON(_ paging: Paging, _ cities: [City], _ unit: TemperatureUnit, query: String? = nil) -> String {
    var members: [(String, JSONOut)] = []
    if let query { members.append(("query", .string(query))) }
    members += [
      ("page", .int(paging.page)), ("per_page", .int(paging.perPage)), ("pages", .int(paging.pages)),
      ("total", .int(paging.total)), ("items", .array(cities.map { item($0, unit) })),
    ]
    return JSONOut.object(members).text
  }

  /// City · Country · Temp · Conditions · Humidity · Wind rows, numbered from `first`.
  /// On a narrow screen Humidity, Wind and # go first, then City, Country and Conditions are
  /// shortened (to 10, 8 and 8 columns), then Conditions and Country go.
  static func table(_ cities: [City], first: Int, _ unit: TemperatureUnit, _ term: Terminal) -> String {
    var t = Table(headers: ["#", "City", "Country", "Temp", "Conditions", "Humidity", "Wind"])
    t.rightAligned = [0, 3, 5, 6]
    t.maxWidths = [(1, 28), (2, 24), (4, 20)]
    t.minWidths = [(1, 10), (2, 8), (4, 8)]
    t.fitting = [.drop(5), .drop(6), .drop(0), .shrink, .drop(4), .drop(2)]
    for (k, c) in cities.enumerated() {
      t.rows.append([
        String(first + k), c.name.visible, c.country.visible, term.temperature(c.temperatureC, unit), c.description.visible,
        "\(TemperatureUnit.oneDecimal(c.humidity))%", unit.formatWind(c.windKmh),
      ])
    }
    return t.render(term)
  }

  /// Prints a page of cities as `list` and `hottest` show it: JSON, or the table and its footer.
  static func page(
    _ page: Paging, _ cities: [City], _ unit: TemperatureUnit, json: Bool, _ ctx: Context, _ meta: CatalogueMeta,
    one: String = "city", many: String = "cities"
  ) {
    if json {
      Terminal.data(pageJSON(page, cities, unit))
    } else {
      Terminal.out(
        table(cities, first: page.offset + 1, unit, ctx.terminal)
          + ctx.terminal.dim(footer(page, one: one, many: many, ctx.freshness(meta))))
    }
  }

  static func footer(_ paging: Paging, one: String = "city", many: String = "cities", _ tail: String) -> String {
    "page \(paging.page) of \(paging.pages) · \(paging.total) \(paging.total == 1 ? one : many) · \(tail)"
  }
}
