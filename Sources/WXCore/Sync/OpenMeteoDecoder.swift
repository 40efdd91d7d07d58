/// Turns Open-Meteo forecast answers into ``City`` values (format: ../shared/notes/open-meteo.md).
///
/// A batch of n locations answers one object (n = 1) or an array of exactly n objects in the
/// order asked. Each answer is matched to its city by that position, never by coordinates,
/// which come back snapped to the model's grid. `null` values stay unknown (nil), never 0.
package enum OpenMeteoDecoder {
  package static let source = "Open-Meteo"

  /// The objects of an answer for `count` locations, in order.
  package static func locations(_ body: [UInt8], count: Int) throws(PayloadError) -> [JSON] {
    let json: JSON
    do throws(JSONError) {
      json = try JSON.parse(body)
    } catch {
      throw PayloadError("invalid JSON: \(error)")
    }
    switch json {
    case .object where count == 1: return [json]
    case .array(let items) where items.count == count: return items
    case .array(let items): throw PayloadError("\(items.count) locations in the answer for \(count) asked")
    default: throw PayloadError("expected \(count == 1 ? "an object" : "an array of \(count) locations"), found \(json.typeName)")
    }
  }

  /// `city` with the weather of `item`: current conditions, at most `days` days, observation.
  package static func city(_ city: City, from item: JSON, days: Int) throws(PayloadError) -> City {
    let label = "location \(JSONWriter.quote(city.name))"
    guard case .object = item, let current = item["current"], case .object = current else {
      throw PayloadError("\(label) has no \"current\" object")
    }
    var out = city
    out.temperatureC = try number(current["temperature_2m"], "\(label) temperature_2m", -100...70)
    out.humidity = try number(current["relative_humidity_2m"], "\(label) relative_humidity_2m", 0...100)
    out.windKmh = try number(current["wind_speed_10m"], "\(label) wind_speed_10m", 0...500)
    out.description = try code(current["weather_code"], "\(label) weather_code")
    guard case .string(let time)? = current["time"], let local = try? StoredText.clean(time), local.count >= 16 else {
      throw PayloadError("\(label) has no current \"time\"")
    }
    var offset = 0
    if case .number(let s, true)? = item["utc_offset_seconds"], abs(s) <= 18 * 3600 { offset = Int(s) }
    out.observation = Observation(localTime: String(local.prefix(16)), utcOffsetSeconds: offset, source: source)
    out.forecast = try forecast(item["daily"], label: label, days: days)
    return out
  }

  static func forecast(_ daily: JSON?, label: String, days: Int) throws(PayloadError) -> [ForecastDay] {
    guard let daily, case .object = daily, case .array(let dates)? = daily["time"] else {
      throw PayloadError("\(label) has no \"daily\" time list")
    }
    func list(_ key: String) throws(PayloadError) -> [JSON] {
      switch daily[key] {
      case nil, .null?: return Array(repeating: .null, count: dates.count)
      case .array(let values)? where values.count == dates.count: return values
      default: throw PayloadError("\(label) daily \(key) is not a list of \(dates.count) values")
      }
    }
    let codes = try list("weather_code")
    let highs = try list("temperature_2m_max")
    let winds = try list("wind_speed_10m_max")
    var out: [ForecastDay] = []
    for k in 0..<min(days, dates.count) {
      let what = "\(label) day \(k + 1)"
      guard case .string(let raw) = dates[k], let date = try? StoredText.clean(raw), !date.isEmpty else {
        throw PayloadError("\(what) has no date")
      }
      guard ForecastDay.isDate(date) else {
        throw PayloadError("\(what): \(JSONWriter.quote(String(date.prefix(40)))) is not a date (YYYY-MM-DD)")
      }
      out.append(
        ForecastDay(
          date: date, temperatureC: try number(highs[k], "\(what) temperature_2m_max", -100...70),
          description: try code(codes[k], "\(what) weather_code"), humidity: nil,
          windKmh: try number(winds[k], "\(what) wind_speed_10m_max", 0...500)))
    }
    return out
  }

  static func number(_ v: JSON?, _ what: @autoclosure () -> String, _ range: ClosedRange<Double>) throws(PayloadError)
    -> Double?
  {
    switch v {
    case nil, .null?: return nil
    case .number(let d, _)? where range.contains(d): return d
    case .number(let d, _)?: throw PayloadError("\(what()) is \(JSONWriter.number(d)), outside \(Int(range.lowerBound))…\(Int(range.upperBound))")
    case let other?: throw PayloadError("\(what()) must be a number, found \(other.typeName)")
    }
  }

  /// A WMO code's description; "" for null.
  static func code(_ v: JSON?, _ what: @autoclosure () -> String) throws(PayloadError) -> String {
    switch v {
    case nil, .null?: return ""
    case .number(let d, _)? where d == d.rounded() && (0...99).contains(d): return WMOCode.description(Int(d))
    case let other?: throw PayloadError("\(what()) must be a WMO code 0…99, found \(other.typeName == "a number" ? "another number" : other.typeName)")
    }
  }
}
