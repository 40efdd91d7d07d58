import ArgumentParser
import WXCore

extension WX {
  struct Show: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Current weather and forecast for a city.",
      discussion: """
        CITY is a name (case and accents do not matter: zurich finds Zürich), "Name, Country", \
        or an id. Without CITY, the last city shown.
        """)

    @Argument(help: "City name, \"Name, Country\" or id (the words of an unquoted name are joined).", completion: .custom(cityCompletions))
    var city: [String] = []
    @Flag(help: "Print JSON instead of text.") var json = false
    @OptionGroup var display: DisplayOptions

    func execute() async throws {
      try Self.perform(city: city.joinedName, json: json, display: display.value)
    }

    /// The command itself, shared by the argument parser and the fast path (FastPath.swift).
    static func perform(city argument: String?, json: Bool, display: Display) throws {
      let ctx = try Context.make(display: display)
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      let city = try ctx.resolveCity(argument, in: catalogue)
      let unit = ctx.unit(display)
      if json { Terminal.data(CityView.json(city, unit)) } else { Terminal.out(CityView.text(city, unit, ctx, meta: catalogue.meta)) }
    }
  }
}

extension [String] {
  /// The words of a city argument typed without quotes (`wx show New York`), as one name.
  var joinedName: String? { isEmpty ? nil : joined(separator: " ") }
}

extension Context {
  /// CITY, or the last city shown; remembers the result as the last city.
  func resolveCity(_ argument: String?, in catalogue: Catalogue) throws -> City {
    let city: City
    if let argument {
      city = try catalogue.lookup(argument).city
    } else {
      guard let last = savedPreferences().lastCity else { throw LookupError.noLastCity }
      guard let found = try catalogue.find(last)?.city else {
        throw LookupError.notFound(query: "\(last.name), \(last.country)", suggestions: [])
      }
      city = found
    }
    remember(city)
    return city
  }

  /// Saves the last city, skipping the write (and the lock) when it is already saved. A read
  /// command must not fail because its state folder is read-only, damaged or busy: a failure
  /// to save is a warning, once.
  func remember(_ city: City) {
    let prefs = home.preferences
    do {
      if try prefs.load().lastCity == city.identity { return }
    } catch {
      StateWarnings.warn(error, StateWarnings.usingDefaults)  // a damaged file: not rewritten here
      return
    }
    do {
      try prefs.modify { $0.lastCity = city.identity }
    } catch {
      StateWarnings.warn(error, "the last city was not saved")
    }
  }
}

/// The detail view of one city.
enum CityView {
  static func json(_ c: City, _ unit: TemperatureUnit) -> String {
    JSONOut.object([
      ("id", .int(c.id)), ("city", .string(c.name)), ("country", .string(c.country)),
      ("latitude", .number(c.latitude)), ("longitude", .number(c.longitude)),
      ("temperature", .number(unit.jsonTemperature(c.temperatureC))), ("unit", .string(unit.rawValue)),
      ("description", .string(c.description)), ("humidity", .number(c.humidity)),
      ("wind_speed", .number(unit.jsonWind(c.windKmh))),
      ("forecast", .array(c.forecast.map { forecastItem($0, unit) })),
    ]).text
  }

  static func forecastItem(_ d: ForecastDay, _ unit: TemperatureUnit) -> JSONOut {
    .object([
      ("date", .string(d.date)), ("temperature", .number(unit.jsonTemperature(d.temperatureC))),
      ("description", .string(d.description)), ("humidity", .number(d.humidity)),
      ("wind_speed", .number(unit.jsonWind(d.windKmh))),
    ])
  }

  static func text(_ c: City, _ unit: TemperatureUnit, _ ctx: Context, meta: CatalogueMeta) -> String {
    let term = ctx.terminal
    let condition = Condition(description: c.description)
    let art = Art.picture(condition, unicode: term.unicode).map { term.paint($0, Art.color(condition)) }
    let facts = [
      term.bold("\(c.name.visible), \(c.country.visible)") + term.dim("  id \(c.id)"),
      c.description.visible,
      term.temperature(c.temperatureC, unit),
      "humidity \(TemperatureUnit.oneDecimal(c.humidity))% · wind \(unit.formatWind(c.windKmh))",
      term.dim(coordinates(c)),
    ]
    var out = ""
    for (a, f) in zip(art, facts) { out += a + "  " + f + "\n" }
    out += "\n" + forecastTable(c.forecast, unit, term, numbered: true)
    out += term.dim(ctx.freshness(meta))
    return out
  }

  static func coordinates(_ c: City) -> String {
    let lat = "\(TemperatureUnit.oneDecimal(abs(c.latitude)))°\(c.latitude < 0 ? "S" : "N")"
    let lon = "\(TemperatureUnit.oneDecimal(abs(c.longitude)))°\(c.longitude < 0 ? "W" : "E")"
    return "\(lat) \(lon)"
  }

  /// `Day 1  2026-11-23  Partly cloudy  17 °C  62%  10 km/h` rows.
  static func forecastTable(_ days: [ForecastDay], _ unit: TemperatureUnit, _ term: Terminal, numbered: Bool) -> String {
    guard !days.isEmpty else { return "No forecast in the catalogue for this city.\n" }
    var t = Table(headers: ["Day", "Date", "Conditions", "Temp", "Humidity", "Wind"])
    t.rightAligned = [3, 4, 5]
    t.maxWidths = [(2, 24)]
    t.minWidths = [(2, 8)]
    t.fitting = [.drop(4), .drop(0), .drop(5), .shrink]
    for (k, d) in days.enumerated() {
      t.rows.append([
        "Day \(k + 1)", d.date.visible, d.description.visible, term.temperature(d.temperatureC, unit),
        "\(TemperatureUnit.oneDecimal(d.humidity))%", unit.formatWind(d.windKmh),
      ])
    }
    return t.render(term)
  }
}
