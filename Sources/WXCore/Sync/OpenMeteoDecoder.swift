import WXFeed

/// Turns Open-Meteo forecast answers into ``City`` values (format: ../shared/notes/open-meteo.md).
///
/// A batch of n locations answers one object (n = 1) or an array of exactly n objects in the
/// order asked. Each answer is matched to its city by that position, never by coordinates,
/// which come back snapped to the model's grid. `null` values stay unknown (nil), never 0.
package enum OpenMeteoDecoder {
  package static let source = "Open-Meteo"

  /// The `current` variables asked for and stored.
  package static let current = [
    "temperature_2m", "relative_humidity_2m", "wind_speed_10m", "weather_code", "apparent_temperature",
    "wind_direction_10m", "wind_gusts_10m", "precipitation", "pressure_msl", "visibility", "dew_point_2m", "cloud_cover",
  ]
  /// The `daily` variables.
  package static let daily = [
    "weather_code", "temperature_2m_max", "temperature_2m_min", "wind_speed_10m_max", "sunrise", "sunset", "uv_index_max",
    "precipitation_sum", "precipitation_probability_max", "wind_direction_10m_dominant",
  ]
  /// The `hourly` variables.
  package static let hourly = [
    "temperature_2m", "apparent_temperature", "precipitation_probability", "precipitation", "weather_code",
    "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m", "uv_index", "is_day",
  ]

  /// What a forecast answer's location keeps (``OpenMeteoStream``): the variables above, the
  /// times and the UTC offset; nothing else is built.
  package static let shape = OpenMeteoStream.Shape.object([
    ("utc_offset_seconds", .scalar),
    ("current", .object([("time", .scalar)] + current.map { ($0, .scalar) })),
    ("daily", .object([("time", .list)] + daily.map { ($0, .list) })),
    ("hourly", .object([("time", .list)] + hourly.map { ($0, .list) })),
    ("current_units", .object(current.map { ($0, .scalar) })),
    ("daily_units", .object(daily.map { ($0, .scalar) })),
    ("hourly_units", .object(hourly.map { ($0, .scalar) })),
  ])

  /// How a value in the unit an answer names becomes the unit wx stores (°C, km/h, mm).
  /// Open-Meteo's units follow the request (`temperature_unit=fahrenheit` in a configured URL
  /// gives `°F`): every block's units are read, and a unit wx does not know for a variable it
  /// converts is refused (bad data, exit 65), never stored as another unit.
  package struct UnitsBlock {
    var block: JSON?
    var name: String
    var label: String

    /// The conversion of `key`'s values to wx's unit.
    func convert(_ key: String) throws(PayloadError) -> (Double) -> Double {
      guard case .string(let unit)? = block?[key] else { return { $0 } }
      let kind = UnitsBlock.kind(key)
      if let f = UnitsBlock.conversion(unit, kind) { return f }
      throw PayloadError(
        "\(label) \(name) \(key) is in \(OpenMeteoDecoder.quoted(unit)), not a unit of \(kind.rawValue) wx reads")
    }

    enum Kind: String { case temperature, speed, precipitation, pressure, distance, other }

    /// The kinds of the variables wx asks for, worked out once (a sync asks each location's
    /// blocks for them all).
    static let kinds: [String: Kind] = Dictionary(
      (current + daily + hourly).map { ($0, rule($0)) }, uniquingKeysWith: { a, _ in a })

    static func kind(_ key: String) -> Kind { kinds[key] ?? rule(key) }

    static func rule(_ key: String) -> Kind {
      if key.contains("temperature") || key.hasPrefix("dew_point") { return .temperature }
      if key.hasPrefix("pressure") { return .pressure }
      if key == "visibility" { return .distance }
      if key.hasPrefix("wind_speed") || key.hasPrefix("wind_gusts") { return .speed }
      if key == "precipitation" || key == "precipitation_sum" { return .precipitation }
      return .other
    }

    /// The conversion from `unit`, or nil for a unit wx does not read.
    static func conversion(_ unit: String, _ kind: Kind) -> ((Double) -> Double)? {
      switch (kind, unit) {
      case (.temperature, "°C"), (.speed, "km/h"), (.precipitation, "mm"), (.pressure, "hPa"), (.distance, "m"), (.other, _):
        return { $0 }
      case (.distance, "ft"): return { ($0 * 0.3048 * 10).rounded() / 10 }
      case (.temperature, "°F"): return { (($0 - 32) * 5 / 9 * 100).rounded() / 100 }
      case (.speed, "m/s"): return { ($0 * 3.6 * 100).rounded() / 100 }
      case (.speed, "mp/h"), (.speed, "mph"): return { ($0 * 1.609344 * 100).rounded() / 100 }
      case (.speed, "kn"): return { ($0 * 1.852 * 100).rounded() / 100 }
      case (.precipitation, "inch"): return { ($0 * 25.4 * 100).rounded() / 100 }
      default: return nil
      }
    }
  }

  /// The objects of an answer for `count` locations, in order, each holding only the members
  /// of `shape`, from a body in hand fed `chunk` bytes at a time (tests and the fuzzer; syncs
  /// stream it as it arrives, ``OpenMeteoProvider/locations(_:shown:config:count:shape:_:)``).
  package static func locations(
    _ body: [UInt8], count: Int, shape: OpenMeteoStream.Shape = shape, chunk: Int = .max
  ) throws(PayloadError) -> [JSON] {
    var out: [JSON] = []
    var stream = OpenMeteoStream(count: count, location: shape) { _, item in out.append(item) }
    do {
      var k = 0
      while k < body.count {
        let end = body.count - k > chunk ? k + chunk : body.count
        try body[k..<end].withUnsafeBytes { try stream.feed($0) }
        k = end
      }
      try stream.finish()
    } catch let error as PayloadError {
      throw error
    } catch {
      throw PayloadError("\(error)")  // unreachable: appending throws nothing
    }
    return out
  }

  /// `city` with the weather of `item`: current conditions, at most `days` days and
  /// ``ForecastHour/maxHours`` hours, observation.
  package static func city(_ city: City, from item: JSON, days: Int) throws(PayloadError) -> City {
    let label = "location \(Redact.quoted(city.name, limit: 200))"
    guard case .object = item, let current = item["current"], case .object = current else {
      throw PayloadError("\(label) has no \"current\" object")
    }
    var out = city
    let units = UnitsBlock(block: item["current_units"], name: "current", label: label)
    func value(_ key: String, _ range: ClosedRange<Double>) throws(PayloadError) -> Double? {
      try number(current[key], "\(label) \(key)", range, try units.convert(key))
    }
    out.temperatureC = try value("temperature_2m", -100...70)
    out.humidity = try value("relative_humidity_2m", 0...100)
    out.windKmh = try value("wind_speed_10m", 0...500)
    out.description = try code(current["weather_code"], "\(label) weather_code")
    out.feelsLikeC = try value("apparent_temperature", -100...70)
    out.windDirection = try value("wind_direction_10m", 0...360)
    out.gustsKmh = try value("wind_gusts_10m", 0...500)
    out.precipitationMm = try value("precipitation", 0...2000)
    out.pressureHpa = try value("pressure_msl", 300...1200)
    out.visibilityM = try value("visibility", 0...1_000_000)
    out.dewPointC = try value("dew_point_2m", -100...70)
    out.cloudCover = try value("cloud_cover", 0...100)
    out.observation = try observation(item, current, label: label)
    out.provenance = Provenance(source: .openMeteo, observedAt: out.observation?.epochSeconds)
    out.forecast = try forecast(
      item["daily"], label: label, days: days, units: UnitsBlock(block: item["daily_units"], name: "daily", label: label))
    out.hourly = try hours(
      item["hourly"], label: label, units: UnitsBlock(block: item["hourly_units"], name: "hourly", label: label))
    return out
  }

  /// The time a location's `current` values were observed: `current.time`, a local time
  /// (`YYYY-MM-DDTHH:MM`), at `utc_offset_seconds` (a whole number within ±18 h; UTC when
  /// absent), or bad data. The forecast's and the air quality's alike.
  static func observation(_ item: JSON, _ current: JSON, label: String) throws(PayloadError) -> Observation {
    guard case .string(let time)? = current["time"] else { throw PayloadError("\(label) has no current \"time\"") }
    guard LocalTime.minutes(time) != nil else {
      throw PayloadError("\(label) current time \(quoted(time)) is not a local time (YYYY-MM-DDTHH:MM)")
    }
    var offset = 0
    switch item["utc_offset_seconds"] {
    case nil, .null?: break
    case .number(let s, true)? where abs(s) <= 18 * 3600: offset = Int(s)
    case let other?:
      let shown = if case .number(let d, _) = other { JSONWriter.number(d) } else { other.typeName }
      throw PayloadError("\(label) utc_offset_seconds \(shown) is not a whole number of seconds within ±18 h")
    }
    return Observation(localTime: time, utcOffsetSeconds: offset, source: source)
  }

  /// A text the answer sent, cut and quoted for a message (JSON escapes its controls).
  static func quoted(_ s: String) -> String { Redact.quoted(s) }

  /// The lists of a `daily` or `hourly` object: `time` and each variable, all as long as `time`
  /// (a variable missing or null is a list of nulls).
  static func lists(_ block: JSON?, _ name: String, label: String) throws(PayloadError) -> (
    [JSON], (String) throws(PayloadError) -> [JSON]
  ) {
    guard let block, case .object = block, case .array(let times)? = block["time"] else {
      throw PayloadError("\(label) has no \"\(name)\" time list")
    }
    return (
      times,
      { (key: String) throws(PayloadError) -> [JSON] in
        switch block[key] {
        case nil, .null?: return Array(repeating: .null, count: times.count)
        case .array(let values)? where values.count == times.count: return values
        default: throw PayloadError("\(label) \(name) \(key) is not a list of \(times.count) values")
        }
      }
    )
  }

  static func forecast(
    _ daily: JSON?, label: String, days: Int, units: UnitsBlock? = nil
  ) throws(PayloadError) -> [ForecastDay] {
    let units = units ?? UnitsBlock(block: nil, name: "daily", label: label)
    let (dates, list) = try lists(daily, "daily", label: label)
    let codes = try list("weather_code")
    let highs = try list("temperature_2m_max"), lows = try list("temperature_2m_min")
    let (toHigh, toLow) = (try units.convert("temperature_2m_max"), try units.convert("temperature_2m_min"))
    let (toWind, toRain) = (try units.convert("wind_speed_10m_max"), try units.convert("precipitation_sum"))
    let winds = try list("wind_speed_10m_max")
    let (rises, sets) = (try list("sunrise"), try list("sunset"))
    let uv = try list("uv_index_max")
    let (rain, chance) = (try list("precipitation_sum"), try list("precipitation_probability_max"))
    let direction = try list("wind_direction_10m_dominant")
    var out: [ForecastDay] = []
    for k in 0..<min(days, dates.count) {
      func what() -> String { "\(label) day \(k + 1)" }
      guard case .string(let raw) = dates[k], let date = try? StoredText.clean(raw), !date.isEmpty else {
        throw PayloadError("\(what()) has no date")
      }
      guard ForecastDay.isDate(date) else {
        throw PayloadError("\(what()): \(quoted(date)) is not a date (YYYY-MM-DD)")
      }
      var day = ForecastDay(
        date: date, temperatureC: try number(highs[k], "\(what()) temperature_2m_max", -100...70, toHigh),
        description: try code(codes[k], "\(what()) weather_code"), humidity: nil,
        windKmh: try number(winds[k], "\(what()) wind_speed_10m_max", 0...500, toWind))
      day.temperatureMinC = try number(lows[k], "\(what()) temperature_2m_min", -100...70, toLow)
      day.sunrise = try clock(rises[k], "\(what()) sunrise")
      day.sunset = try clock(sets[k], "\(what()) sunset")
      day.uvIndexMax = try number(uv[k], "\(what()) uv_index_max", 0...30)
      day.precipitationMm = try number(rain[k], "\(what()) precipitation_sum", 0...2000, toRain)
      day.precipitationProbability = try number(chance[k], "\(what()) precipitation_probability_max", 0...100)
      day.windDirection = try number(direction[k], "\(what()) wind_direction_10m_dominant", 0...360)
      out.append(day)
    }
    return out
  }

  /// The first ``ForecastHour/maxHours`` hours, in strictly increasing local times; none when
  /// the answer has no `hourly` object.
  static func hours(_ hourly: JSON?, label: String, units: UnitsBlock? = nil) throws(PayloadError) -> [ForecastHour] {
    let units = units ?? UnitsBlock(block: nil, name: "hourly", label: label)
    switch hourly {
    case nil, .null?: return []
    default: break
    }
    let (times, list) = try lists(hourly, "hourly", label: label)
    let temps = try list("temperature_2m"), feels = try list("apparent_temperature")
    let chance = try list("precipitation_probability"), rain = try list("precipitation")
    let codes = try list("weather_code"), winds = try list("wind_speed_10m")
    let directions = try list("wind_direction_10m"), gusts = try list("wind_gusts_10m")
    let uv = try list("uv_index"), day = try list("is_day")
    let (toTemp, toFeels) = (try units.convert("temperature_2m"), try units.convert("apparent_temperature"))
    let (toRain, toWind, toGusts) = (
      try units.convert("precipitation"), try units.convert("wind_speed_10m"), try units.convert("wind_gusts_10m")
    )
    var out: [ForecastHour] = []
    var previous: Int64?
    for k in 0..<min(ForecastHour.maxHours, times.count) {
      // Built only for a message: a string for each value was 8 % of decoding's instructions.
      func what() -> String { "\(label) hour \(k + 1)" }
      guard case .string(let time) = times[k], let minutes = LocalTime.minutes(time) else {
        let shown = if case .string(let t) = times[k] { quoted(t) } else { times[k].typeName }
        throw PayloadError("\(what()): \(shown) is not a local time (YYYY-MM-DDTHH:MM)")
      }
      if let previous, minutes <= previous || minutes - previous > 24 * 60 {
        throw PayloadError("\(what()): \(quoted(time)) does not follow the hour before")
      }
      previous = minutes
      let isDay = try number(day[k], "\(what()) is_day", 0...1)
      out.append(
        ForecastHour(
          minutes: minutes, temperatureC: try number(temps[k], "\(what()) temperature_2m", -100...70, toTemp),
          feelsLikeC: try number(feels[k], "\(what()) apparent_temperature", -100...70, toFeels),
          precipitationProbability: try number(chance[k], "\(what()) precipitation_probability", 0...100),
          precipitationMm: try number(rain[k], "\(what()) precipitation", 0...2000, toRain),
          weatherCode: try wmo(codes[k], "\(what()) weather_code"),
          windKmh: try number(winds[k], "\(what()) wind_speed_10m", 0...500, toWind),
          windDirection: try number(directions[k], "\(what()) wind_direction_10m", 0...360),
          gustsKmh: try number(gusts[k], "\(what()) wind_gusts_10m", 0...500, toGusts),
          uvIndex: try number(uv[k], "\(what()) uv_index", 0...30), isDay: isDay.map { $0 != 0 }))
    }
    return out
  }

  /// Minutes past midnight of a local time (sunrise, sunset); nil for null.
  static func clock(_ v: JSON, _ what: @autoclosure () -> String) throws(PayloadError) -> Int? {
    switch v {
    case .null: return nil
    case .string(let s):
      guard let m = LocalTime.clockMinutes(s) else {
        throw PayloadError("\(what()): \(quoted(s)) is not a local time (YYYY-MM-DDTHH:MM)")
      }
      return m
    default: throw PayloadError("\(what()) must be a local time, found \(v.typeName)")
    }
  }

  /// A number in `range` once converted to wx's unit (`convert`); nil for null.
  static func number(
    _ v: JSON?, _ what: @autoclosure () -> String, _ range: ClosedRange<Double>, _ convert: (Double) -> Double = { $0 }
  ) throws(PayloadError) -> Double? {
    switch v {
    case nil, .null?: return nil
    case .number(let raw, _)? where range.contains(convert(raw)): return convert(raw)
    case .number(let d, _)?:
      throw PayloadError("\(what()) is \(JSONWriter.number(d)), outside \(Int(range.lowerBound))…\(Int(range.upperBound))")
    case let other?: throw PayloadError("\(what()) must be a number, found \(other.typeName)")
    }
  }

  /// A WMO code's description; "" for null.
  static func code(_ v: JSON?, _ what: @autoclosure () -> String) throws(PayloadError) -> String {
    try wmo(v, what()).map(WMOCode.description) ?? ""
  }

  /// A WMO code 0…99; nil for null.
  static func wmo(_ v: JSON?, _ what: @autoclosure () -> String) throws(PayloadError) -> Int? {
    switch v {
    case nil, .null?: return nil
    case .number(let d, _)? where d == d.rounded() && (0...99).contains(d): return Int(d)
    case let other?:
      throw PayloadError(
        "\(what()) must be a WMO code 0…99, found \(other.typeName == "a number" ? "another number" : other.typeName)")
    }
  }
}
