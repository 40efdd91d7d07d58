import WXCore

/// What the atlas adds to an item: `region`, `population`, `country_code` (null when unknown:
/// a catalogue city that is no atlas place).
enum AtlasFields {
  static func of(_ place: Place?) -> [(String, JSON)] {
    [
      ("region", place?.region.map { .string($0) } ?? .null), ("population", place.map { .int($0.population) } ?? .null),
      ("country_code", place.map { .string($0.countryCode) } ?? .null),
    ]
  }

  /// A search or favourites item: the catalogue city's (``CityPage/item(_:_:)``) with the
  /// atlas's fields; a place with no weather has a null id and null weather.
  static func item(_ f: Found, _ unit: Units, _ now: Int64) -> JSON {
    // A place wx has no weather for is the item of a city without weather: the same keys, its
    // weather null as unknown values are, and a null id (a place has a GeoNames id only).
    let item = CityPage.item(f.asCity, unit, now)
    guard case .object(let members) = item else { return item }
    let extra = of(f.place) + [("geonameid", f.place.map { JSON.int($0.geonameID) } ?? .null)]
    if f.city != nil { return .object(members.map { ($0.key, $0.value) } + extra) }
    return .object(withoutWeather(members) + extra)
  }

  /// A place without weather has no provenance: its keys null (`sample` false).
  static func withoutProvenance(_ key: String) -> JSON? { Ages.none.first { $0.0 == key }?.1 }

  /// A city's JSON members as a place's without weather: a null id (a place has a GeoNames
  /// id only) and a null description, as every unknown value.
  static func withoutWeather(_ members: [JSON.Member]) -> [(String, JSON)] {
    members.map { m -> (String, JSON) in
      if let blank = withoutProvenance(m.key) { return (m.key, blank) }
      return m.key == "id" || m.key == "description" ? (m.key, .null) : (m.key, m.value)
    }
  }
}

/// `wx search` over the catalogue and the atlas: # · City · Region · Country · Temp ·
/// Conditions · Humidity · Wind, places without weather showing "–"; JSON as ``CityPage``'s
/// with the atlas's fields in each item. (Without the atlas, search shows ``CityPage``.)
struct PlacePage: View {
  var paging: Paging
  var items: [Found]
  var unit: Units
  var freshness: String
  var query: String
  /// The time now: each row's age.
  var now: Int64 = 0

  func json() -> JSON {
    .object([
      ("query", .string(query)), ("page", .int(paging.page)), ("per_page", .int(paging.perPage)),
      ("pages", .int(paging.pages)), ("total", .int(paging.total)),
      ("items", .array(items.map { AtlasFields.item($0, unit, now) })),
    ])
  }

  func text(_ term: Terminal) -> String {
    var t = Table(headers: ["#", "City", "Region", "Country", "Temp", "Age", "Conditions", "Humidity", "Wind"])
    t.rightAligned = [0, 4, 5, 7, 8]
    t.maxWidths = [(1, 28), (2, 20), (3, 24), (6, 20)]
    t.minWidths = [(1, 10), (2, 8), (3, 8), (6, 8)]
    // The age follows the temperature and is never dropped: the last thing a narrow screen loses.
    t.fitting = [.drop(7), .drop(8), .drop(0), .drop(6), .shrink, .drop(2), .drop(3), .narrow(1, 4)]
    if !Ages.anyMarked(items.map(\.city), now) { t.hide(5) }
    for (k, f) in items.enumerated() {
      let c = f.city?.current(at: now).city
      t.rows.append([
        String(paging.offset + k + 1), f.name.visible, f.place?.region?.visible ?? Fields.unknown, f.country.visible,
        term.temperature(c?.temperatureC, unit), c.map { Ages.cell($0, now) } ?? "",
        c?.description.visible ?? Fields.unknown, Fields.humidity(c?.humidity), Fields.wind(c?.windKmh, unit),
      ])
    }
    let places = paging.total == 1 ? "place" : "places"
    return t.render(term)
      + term.footer("page \(paging.page) of \(paging.pages) · \(paging.total) \(places) · \(freshness) · places: GeoNames")
  }
}

/// `wx show` for an atlas place wx has no weather for: what it knows (region, country,
/// coordinates, population, time zone and local time) and the command that gets its weather.
/// JSON: `wx show`'s keys, the weather ones null, with the atlas's.
struct PlaceView: View {
  /// Which command's JSON it answers with: its keys, the weather ones null or empty.
  enum Shape { case show, forecast, hourly }

  var place: Place
  var unit: Units
  /// The place's local time now, when its time zone is installed.
  var localTime: String?
  /// The argument that names this place alone ("Springfield, Illinois").
  var argument: String
  var shape = Shape.show
  /// The time now (seconds since the epoch): the place's date today, in JSON.
  var now: Int64 = 0

  /// The view of `found`, an atlas place without weather (`wx show`, `wx forecast`).
  init(_ found: Found, _ finder: PlaceFinder, unit: Units, now: Int64, shape: Shape = .show) {
    let place = found.place!
    self.init(
      place: place, unit: unit, localTime: place.localTime(at: now), argument: PlaceText.argument(found, finder))
    (self.shape, self.now) = (shape, now)
  }

  init(place: Place, unit: Units, localTime: String?, argument: String) {
    (self.place, self.unit, self.localTime, self.argument) = (place, unit, localTime, argument)
  }

  var command: String { PlaceText.fetchCommand(argument) }

  /// The command's own JSON for the place as a city without weather (every weather key null,
  /// lists empty, as `wx show` gives a catalogue city's unknown values), its id null (a place
  /// has a GeoNames id, no catalogue id), with the atlas's keys and how to get its weather.
  func json() -> JSON {
    let p = place
    let city = p.city
    let base: JSON
    switch shape {
    case .show: base = CityView(city: city, unit: unit, freshness: "", now: now, place: p).json()
    case .forecast:
      base = ForecastView(
        city: city, forecast: city.datedForecast(at: now), days: [], hottest: false, unit: unit, freshness: ""
      ).json()
    case .hourly:
      base = HourlyView(city: city, window: .none, asked: 0, provider: "", unit: unit, freshness: "", now: now).json()
    }
    guard case .object(let members) = base else { return base }
    var out = AtlasFields.withoutWeather(members)
    if shape != .show { out += AtlasFields.of(p) }
    let local: JSON = localTime.map { .string($0) } ?? .null
    out += [("geonameid", JSON.int(p.geonameID)), ("time_zone", JSON.string(p.timeZone))]
    out += [("local_time", local), ("weather_command", .string(command))]
    return .object(out)
  }

  func text(_ term: Terminal) -> String {
    let p = place
    let found = Found(city: nil, place: p)
    var lines = [term.bold(PlaceText.full(found).visible) + term.dim("  GeoNames \(p.geonameID)")]
    if let region = p.region { lines.append("region       \(region.visible)") }
    lines.append("country      \(p.country.visible) (\(p.countryCode.visible))")
    lines.append("coordinates  \(CityView.coordinates(found.asCity))")
    lines.append("population   \(PlaceText.people(p.population))")
    lines.append("time zone    \(p.timeZone.visible)")
    if let localTime { lines.append("local time   \(localTime)") }
    lines += ["", "No weather for it yet; get it online:"]
    // On a narrow screen the country goes by its code (`'s-Hertogenbosch, NL`), which names
    // the place as well, so that the command is never cut.
    var city = "--city \(PlaceText.shellWord(argument))"
    if let width = term.width, DisplayWidth.of(city) + 4 > width, argument.hasSuffix(", " + p.country) {
      city = "--city \(PlaceText.shellWord(argument.dropLast(p.country.count) + p.countryCode))"
    }
    lines += Self.shown(["wx sync --provider open-meteo", city], term)
    lines.append("or make it a favourite and refresh:")
    lines += Self.shown(["wx sync --provider open-meteo", "--favourites"], term)
    return lines.joined(with: "\n") + "\n" + term.dim("place data: GeoNames")
  }

  /// A command indented on one line, or, when the screen is narrower, on several joined by
  /// the shell's `\` (a line cut to the width would lose the end of the command).
  static func shown(_ parts: [String], _ term: Terminal) -> [String] {
    let whole = "  " + parts.joined(with: " ")
    guard let width = term.width, DisplayWidth.of(whole) > width else { return [whole.visible] }
    return parts.enumerated().map { k, part in
      (k == 0 ? "  " : "    ") + part.visible + (k == parts.count - 1 ? "" : " \\")
    }
  }
}
