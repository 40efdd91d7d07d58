import WXCore

/// One city in detail, as `wx show` prints it: a picture of the conditions beside the facts,
/// the full forecast's extras and the next 24 hours (Open-Meteo records), then the forecast
/// days; `{"id", "city", …, "hourly": [...], "forecast": [...]}`.
struct CityView: View {
  var city: City
  var unit: Units
  var freshness: String
  /// The time now (seconds since the epoch): which stored hours are past.
  var now: Int64
  /// The atlas place the city is, if any (its region, population and country code).
  var place: Place? = nil
  /// The region the heading names, when another place of its name is in its country
  /// (``PlaceText/telling(_:_:)``, as `wx forecast` heads it).
  var region: String? = nil

  func json() -> JSON {
    let c = city.current(at: now).city
    let hour = c.observedHour, day = c.observedDay
    let head: [(String, JSON)] = [
      ("id", .int(c.id)), ("city", .string(c.name)), ("country", Fields.country(c)),
      ("latitude", .number(c.latitude)), ("longitude", .number(c.longitude)),
    ]
    let weather = Fields.weather(c.temperatureC, c.description, c.humidity, c.windKmh, unit)
    let hours: [JSON] = Self.upcoming(c, now).map { Self.hourItem($0, unit) }
    let full: [(String, JSON)] = [
      ("feels_like", Fields.temperature(c.feelsLikeC, unit)), ("wind_direction", Fields.number(c.windDirection)),
      ("wind_gusts", Fields.wind(c.gustsKmh, unit)),
      ("uv_index", Fields.number(hour?.uvIndex)), ("precipitation_probability", Fields.number(hour?.precipitationProbability)),
      ("precipitation", Fields.precipitation(c.precipitationMm, unit)),
      ("sunrise", Fields.clock(day?.sunrise)), ("sunset", Fields.clock(day?.sunset)),
      ("pressure", Fields.number(c.pressureHpa)), ("visibility", Fields.number(c.visibilityM)),
      ("dew_point", Fields.temperature(c.dewPointC, unit)), ("cloud_cover", Fields.number(c.cloudCover)),
      ("dawn", Self.sunClock(c, now, \.dawn)), ("solar_noon", Self.sunClock(c, now, { $0.noon })),
      ("dusk", Self.sunClock(c, now, \.dusk)),
      (
        "moon_phase",
        .object([
          ("fraction", .number((Moon.fraction(at: now) * 1000).rounded() / 1000)),
          ("name", .string(Moon.names[Moon.phase(at: now)])),
        ])
      ),
      ("hourly", .array(hours)),
    ]
    let provenance = Ages.json(city, now)
    let events = Outlook.events(city, now: now, until: OutlookText.endOfTomorrow(city, now))
    let coming: [(String, JSON)] = [
      ("outlook", OutlookText.sentence(city, unit, now, events: events).map { .string($0) } ?? .null),
      ("events", .array(events.map { OutlookText.json($0, place: nil, unit) })),
    ]
    return .object(
      head + weather + full + coming + provenance + Self.forecastJSON(c.datedForecast(at: now), unit, key: "forecast")
        + AtlasFields.of(place))
  }

  /// A time of the sun's day (``Sun/day(at:latitude:longitude:offset:)``) as local `HH:MM`;
  /// null without coordinates or in a polar day or night.
  static func sunClock(_ c: City, _ now: Int64, _ pick: ((dawn: Int64?, noon: Int64, dusk: Int64?)) -> Int64?) -> JSON {
    guard c.hasCoordinates else { return .null }
    let sun = Sun.day(at: now, latitude: c.latitude, longitude: c.longitude, offset: c.utcOffsetEstimate)
    return pick(sun).map { .string(CivilTime.dayAndClock($0, offset: c.utcOffsetEstimate).clock) } ?? .null
  }

  /// The forecast from the city's today on (`key`), its date today and the days already past:
  /// `"today"`, `key`, `"past_days"`.
  static func forecastJSON(_ f: DatedForecast, _ unit: Units, key: String, days: [DatedForecast.Day]? = nil)
    -> [(String, JSON)]
  {
    [
      ("today", .string(f.today)), (key, .array((days ?? f.upcoming).map { forecastItem($0.day, unit) })),
      ("past_days", .array(f.past.map { forecastItem($0.day, unit) })),
    ]
  }

  static func forecastItem(_ d: ForecastDay, _ unit: Units) -> JSON {
    let weather = Fields.weather(d.temperatureC, d.description, d.humidity, d.windKmh, unit, unitKey: false)
    let full: [(String, JSON)] = [
      ("temperature_max", Fields.temperature(d.temperatureC, unit)),
      ("temperature_min", Fields.temperature(d.temperatureMinC, unit)),
      ("wind_direction", Fields.number(d.windDirection)), ("uv_index_max", Fields.number(d.uvIndexMax)),
      ("precipitation", Fields.precipitation(d.precipitationMm, unit)),
      ("precipitation_probability", Fields.number(d.precipitationProbability)),
      ("sunrise", Fields.clock(d.sunrise)), ("sunset", Fields.clock(d.sunset)),
    ]
    return .object([("date", .string(d.date))] + weather + full)
  }

  /// `{time (local ISO), temperature, feels_like, precipitation_probability, precipitation,
  /// description, wind_speed, wind_direction, uv_index}` (`show` and `forecast --hourly`).
  static func hourItem(_ h: ForecastHour, _ unit: Units) -> JSON {
    .object([
      ("time", .string(h.time)), ("temperature", Fields.temperature(h.temperatureC, unit)),
      ("feels_like", Fields.temperature(h.feelsLikeC, unit)),
      ("precipitation_probability", Fields.number(h.precipitationProbability)),
      ("precipitation", Fields.precipitation(h.precipitationMm, unit)),
      ("description", h.weatherCode == nil ? .null : .string(h.description)), ("wind_speed", Fields.wind(h.windKmh, unit)),
      ("wind_direction", Fields.number(h.windDirection)), ("uv_index", Fields.number(h.uvIndex)),
    ])
  }

  /// The stored hours from the current one on (none when every one is past).
  static func upcoming(_ c: City, _ now: Int64) -> [ForecastHour] {
    if case .hours(let hours) = c.hours(at: now) { return hours }
    return []
  }

  func text(_ term: Terminal) -> String {
    let (shown, _, hour) = city.current(at: now)
    var out = ""
    // What is coming, on top: from the stored hours (nothing without them).
    if let sentence = OutlookText.sentence(city, unit, now) {
      for line in term.width.map({ Ages.wrap(sentence.visible, $0) }) ?? [sentence.visible] { out += term.bold(line) + "\n" }
      out += "\n"
    }
    for line in Self.summary(shown, region: region, unit, term) + Self.extras(shown, unit, now, term) { out += line + "\n" }
    var about = ""
    if let place {
      about = (place.region.map { $0.visible + " · " } ?? "") + "\(PlaceText.people(place.population)) people · "
    }
    // When the values are from and who gave them: a line of its own, never cut.
    let age = Self.ageLine(Ages.line(city, now, estimate: hour), stale: Ages.isStale(city, now), term)
    return out + "\n" + Self.forecast(city.datedForecast(at: now), unit, term, source: city.origin.source) + age + "\n"
      + term.footer(about + freshness)
  }

  /// The age line: plain when fresh, bold when the values are over three hours old or invented
  /// (never in a colour: it must read on light and dark backgrounds).
  /// Wrapped to the terminal's width between words, never cut (a pipe gets one line).
  static func ageLine(_ s: String, stale: Bool, _ term: Terminal) -> String {
    let lines = term.width.map { Ages.wrap(s, $0) } ?? [s]
    return lines.map { stale ? term.bold($0) : term.dim($0) }.joined(separator: "\n")
  }

  /// The forecast table from the city's today on, then how many days before it were left
  /// out as past; a forecast wholly in the past says so instead of a table.
  static func forecast(_ f: DatedForecast, _ unit: Units, _ term: Terminal, source: WeatherSource = .openMeteo) -> String {
    guard !f.isWhollyPast else { return wordsForPast(f, term, source: source) }
    return forecastTable(f.upcoming, unit, term) + wordsForPast(f, term, source: source)
  }

  /// What a forecast with past days says of them: none when no day is past.
  static func wordsForPast(_ f: DatedForecast, _ term: Terminal, source: WeatherSource) -> String {
    let past = f.past
    guard let last = past.last?.day.date.visible else { return "" }
    // Short lines: each fits 40 columns.
    if f.isWhollyPast {
      return "Forecast wholly past (to \(last)).\nToday there: \(f.today.visible).\n" + syncHint(source) + "\n"
    }
    let n = past.count
    return term.dim("\(n) past day\(n == 1 ? "" : "s") not shown (\(n == 1 ? "" : "to ")\(last)).") + "\n"
  }

  /// What brings a current forecast: `wx sync` from a provider whose forecasts move on; from
  /// freetestapi (whose records are fixed, dated 2023) or the sample, Open-Meteo. Lines fit
  /// 40 columns.
  static func syncHint(_ source: WeatherSource) -> String {
    switch source {
    case .openMeteo, .accuweather: "Run `wx sync` for a current one."
    case .freetestapi: "freetestapi has no current one;\nrun `wx sync --provider open-meteo`."
    // A sentence's first word: "The bundled sample", not "the".
    case .sample: "The bundled sample has no current one;\nrun `wx sync --provider open-meteo`."
    }
  }

  /// The Day column: `Today`, `Tomorrow`, then the weekday (`Fri`); a past day is `past`.
  static func label(_ d: DatedForecast.Day) -> String { label(fromToday: d.fromToday, weekday: d.weekday) }

  /// The weekdays' short names, Sunday first (``CalendarDay/weekday(_:)``).
  static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

  /// `past`, `Today`, `Tomorrow` or the weekday (0 Sunday … 6 Saturday).
  static func label(fromToday: Int, weekday: Int) -> String {
    switch fromToday {
    case ..<0: "past"
    case 0: "Today"
    case 1: "Tomorrow"
    default: weekdays[weekday]
    }
  }

  /// Rain, gusts, UV and the sun's times, then the next 24 hours, each block after a blank
  /// line: Open-Meteo records only (``City/hasFullForecast``); nothing for others.
  static func extras(_ c: City, _ unit: Units, _ now: Int64, _ term: Terminal) -> [String] {
    guard c.hasFullForecast else { return [] }
    let hour = c.observedHour, day = c.observedDay
    var out = [
      "",
      "rain \(Fields.percent(hour?.precipitationProbability) as String) · \(Fields.precipitation(c.precipitationMm, unit) as String)"
        + " · gusts \(Fields.wind(c.gustsKmh, unit) as String)",
      "UV \(Fields.uv(hour?.uvIndex)) · sunrise \(Fields.clock(day?.sunrise) as String) · sunset \(Fields.clock(day?.sunset) as String)",
    ]
    // Pressure, visibility, dew point and clouds: when the record has them (a sync since wx had them).
    if [c.pressureHpa, c.visibilityM, c.dewPointC, c.cloudCover].contains(where: { $0 != nil }) {
      let miles = unit.rawValue == "fahrenheit"
      let visibility = c.visibilityM.map {
        miles ? "\(Number.oneDecimal($0 / 1609.344)) mi" : "\(Number.oneDecimal($0 / 1000)) km"
      }
      out.append(
        "pressure \(c.pressureHpa.map { "\(Number.amount($0, 0)) hPa" } ?? Fields.unknown) · visibility \(visibility ?? Fields.unknown)"
      )
      out.append("dew point \(term.temperature(c.dewPointC, unit)) · clouds \(Fields.percent(c.cloudCover))")
    }
    switch c.hours(at: now, limit: HourStrip.hours) {
    case .hours(let hours):
      let strip = HourStrip.render(hours, unit, term)
      if !strip.isEmpty { out += [""] + strip }
    case .ended(let last):
      out += [""] + HourlyView.ended(last, c, now).map(term.dim)
    case .none: break
    }
    return out
  }

  /// The picture and the facts, side by side: five lines. The heading names the place's
  /// region where the atlas knows it (two favourite Portlands read alike without it).
  static func summary(_ c: City, region: String? = nil, _ unit: Units, _ term: Terminal) -> [String] {
    var facts = weather(c, unit, term)
    facts[3] = term.dim(facts[3])
    let heading = region.map { "\(c.name.visible), \($0.visible), \(c.country.visible)" } ?? Fields.place(c)
    return beside(c, [term.bold(heading) + term.dim("  id \(c.id)")] + facts, term)
  }

  /// Description, temperature (and feels-like), humidity and wind (and its direction),
  /// coordinates: four lines (`wx show`, `wx browse`).
  static func weather(_ c: City, _ unit: Units, _ term: Terminal) -> [String] {
    let full = c.hasFullForecast
    let feels = full ? " · feels like \(term.temperature(c.feelsLikeC, unit))" : ""
    // An unknown direction is left out: "wind –", not "wind – –".
    let direction = full && c.windDirection != nil ? " \(Fields.direction(c.windDirection, unicode: term.unicode))" : ""
    return [
      c.description.visible, term.temperature(c.temperatureC, unit) + feels,
      "humidity \(Fields.humidity(c.humidity) as String) · wind \(Fields.wind(c.windKmh, unit) as String)\(direction)",
      coordinates(c),
    ]
  }

  /// The picture of the city's conditions with `lines` beside it (five at most), or the lines
  /// alone where the picture would cut a value.
  static func beside(_ c: City, _ lines: [String], _ term: Terminal) -> [String] {
    let condition = Condition(description: c.description)
    let art = Art.picture(condition, unicode: term.unicode).map { term.paint($0, Art.color(condition)) }
    // A screen too narrow for the picture beside the widest value gets the values alone: a
    // value is never cut for a picture (`wind 29.6 km/h ↗` at 40 columns).
    if let width = term.width, let first = art.first,
      DisplayWidth.of(first) + 2 + (lines.dropFirst().map(DisplayWidth.of).max() ?? 0) > width
    {
      return lines
    }
    return zip(art, lines).map { $0 + "  " + $1 }
  }

  static func coordinates(_ c: City) -> String {
    guard c.hasCoordinates else { return "coordinates unknown" }
    let lat = "\(Number.oneDecimal(abs(c.latitude)))°\(c.latitude < 0 ? "S" : "N")"
    let lon = "\(Number.oneDecimal(abs(c.longitude)))°\(c.longitude < 0 ? "W" : "E")"
    return "\(lat) \(lon)"
  }

  /// `Today  2026-11-23  Partly cloudy  17 °C  62%  1.3 mm  10 km/h  SW ↗  3 moderate  07:02  16:39`
  /// rows, each labelled by its date (``label(_:)``) in whatever order they come: chance of
  /// rain, precipitation, humidity, wind direction, UV maximum and the sun's times are shown
  /// when any day knows them (Open-Meteo sends all but humidity, freetestapi only humidity).
  /// On a narrow screen Sunset, Sunrise, Dir, Precip, UV, Humidity, Day, Rain and Wind go,
  /// then Conditions is shortened.
  static func forecastTable(_ days: [DatedForecast.Day], _ unit: Units, _ term: Terminal) -> String {
    guard !days.isEmpty else { return "No forecast stored for this city.\n" }
    typealias Column = (header: String, right: Bool, optional: Bool, cell: (DatedForecast.Day) -> String)
    let all: [Column] = [
      ("Day", false, false, { label($0) }), ("Date", false, false, { $0.day.date.visible }),
      ("Conditions", false, false, { $0.day.description.visible }),
      ("Temp", true, false, { term.temperature($0.day.temperatureC, unit) }),
      ("Low", true, true, { term.temperature($0.day.temperatureMinC, unit) }),
      ("Rain", true, true, { Fields.percent($0.day.precipitationProbability) }),
      ("Precip", true, true, { Fields.precipitation($0.day.precipitationMm, unit) }),
      ("Humidity", true, true, { Fields.humidity($0.day.humidity) }),
      ("Wind", true, false, { Fields.wind($0.day.windKmh, unit) }),
      ("Dir", false, true, { Fields.direction($0.day.windDirection, unicode: term.unicode) }),
      ("UV", false, true, { Fields.uv($0.day.uvIndexMax) }), ("Sunrise", false, true, { Fields.clock($0.day.sunrise) }),
      ("Sunset", false, true, { Fields.clock($0.day.sunset) }),
    ]
    let rows = days.map { d in all.map { $0.cell(d) } }
    // A column no day knows is left out, not shown as a column of "–".
    let kept = all.indices.filter { k in !all[k].optional || rows.contains { $0[k] != Fields.unknown } }
    func index(_ header: String) -> Int? { kept.firstIndex { all[$0].header == header } }
    // With the day's low beside it, the day's temperature is its high.
    let hasLow = kept.contains { all[$0].header == "Low" }
    var t = Table(headers: kept.map { hasLow && all[$0].header == "Temp" ? "High" : all[$0].header })
    t.rightAligned = kept.indices.filter { all[kept[$0]].right }
    let conditions = index("Conditions") ?? 2
    t.maxWidths = [(conditions, 24)]
    t.minWidths = [(conditions, 8)]
    t.fitting =
      ["Sunset", "Sunrise", "Dir", "Precip", "UV", "Humidity", "Day", "Rain", "Wind", "Low"].compactMap(index).map(Table.Fit.drop)
      + [.shrink]
    t.rows = rows.map { row in kept.map { row[$0] } }
    return t.render(term)
  }
}
