import WXFeed

/// A payload problem, naming the record and field where known.
package struct PayloadError: Error, Equatable, Sendable, CustomStringConvertible {
  package var reason: String
  package init(_ reason: String) { self.reason = reason }
  package var description: String { reason }
}

/// Turns a freetestapi `/weathers` response body into validated ``City`` values.
///
/// Accepts what the live API really sends (ints or floats for numbers, unknown extra fields,
/// forecasts of 0…366 days) and rejects what would poison the catalogue (wrong types,
/// missing fields, empty names, values outside physical ranges), naming the record. Every
/// string goes through ``StoredText/clean(_:)``: no control or bidi character is stored.
package enum FreeTestAPIDecoder {
  package static func decode(_ body: [UInt8]) throws(PayloadError) -> [City] {
    if body.isEmpty { throw PayloadError("the response body is empty") }
    let json: JSON
    do throws(JSONError) {
      json = try JSON.parse(body)
    } catch {
      if error.offset >= body.count { throw PayloadError("the JSON ends early (\(body.count) bytes, truncated?)") }
      throw PayloadError("invalid JSON: \(error)")
    }
    guard case .array(let items) = json else {
      throw PayloadError("expected a JSON array of weather records, found \(json.typeName)")
    }
    var cities: [City] = []
    cities.reserveCapacity(items.count)
    for (n, item) in items.enumerated() {
      cities.append(try record(item, position: n + 1))
    }
    return cities
  }

  /// What a record's numbers may be (``FreeTestAPIFastRecord`` checks the same).
  enum Limits {
    static let latitude: ClosedRange<Double> = -90...90
    static let longitude: ClosedRange<Double> = -180...180
    static let temperature: ClosedRange<Double> = -100...70
    static let humidity: ClosedRange<Double> = 0...100
    static let wind: ClosedRange<Double> = 0...500
    /// An id: a whole number from 1 to below 10^15 (exact as a Double). A city is looked up
    /// by its id as typed (`wx show 42`): one that cannot be typed as a number is refused.
    static func isID(_ d: Double) -> Bool { d == d.rounded() && d >= 1 && d < 1e15 }
  }

  static func record(_ item: JSON, position: Int) throws(PayloadError) -> City {
    guard case .object = item else { throw PayloadError("record \(position) is \(item.typeName), not an object") }
    // Labels name the record in error messages only: they are built when a check fails,
    // never for the 170,000 records that pass.
    let id = try integer(item, "id", "record \(position)")
    let name = try text(item, "city", "record \(position) (id \(id))", nonEmpty: true)
    func label() -> String { "record \(position) (id \(id), \(Redact.quoted(name, limit: 200)))" }
    guard Fold.hasKey(name) else { throw PayloadError("\(label()): field \"city\" has no letters") }
    let country = try text(item, "country", label(), nonEmpty: true)
    let lat = try number(item, "latitude", label(), Limits.latitude)
    let lon = try number(item, "longitude", label(), Limits.longitude)
    let temp = try number(item, "temperature", label(), Limits.temperature)
    let desc = try text(item, "weather_description", label(), nonEmpty: false)
    let hum = try number(item, "humidity", label(), Limits.humidity)
    let wind = try number(item, "wind_speed", label(), Limits.wind)
    var days: [ForecastDay] = []
    switch item["forecast"] {
    case nil, .null?: break
    case .array(let list)?:
      guard list.count <= ForecastDay.maxDays else {
        throw PayloadError("\(label()): field \"forecast\" has \(list.count) days, more than \(ForecastDay.maxDays)")
      }
      days.reserveCapacity(list.count)
      for (k, day) in list.enumerated() {
        func dl() -> String { "\(label()) forecast day \(k + 1)" }
        guard case .object = day else { throw PayloadError("\(dl()) is \(day.typeName), not an object") }
        let date = try text(day, "date", dl(), nonEmpty: true)
        guard ForecastDay.isDate(date) else {
          throw PayloadError("\(dl()): field \"date\" is \(Redact.quoted(date)), not a date (YYYY-MM-DD)")
        }
        days.append(
          ForecastDay(
            date: date, temperatureC: try number(day, "temperature", dl(), Limits.temperature),
            description: try text(day, "weather_description", dl(), nonEmpty: false),
            humidity: try number(day, "humidity", dl(), Limits.humidity),
            windKmh: try number(day, "wind_speed", dl(), Limits.wind)))
      }
      days.sort { $0.date < $1.date }
    case let other?:
      throw PayloadError("\(label()): field \"forecast\" must be an array, found \(other.typeName)")
    }
    return City(
      id: id, name: name, country: country, latitude: lat, longitude: lon,
      temperatureC: temp, description: desc, humidity: hum, windKmh: wind, forecast: days)
  }

  private static func field(_ o: JSON, _ key: String, _ label: () -> String) throws(PayloadError) -> JSON {
    guard let v = o[key] else { throw PayloadError("\(label()): missing field \"\(key)\"") }
    return v
  }

  private static func integer(_ o: JSON, _ key: String, _ label: @autoclosure () -> String) throws(PayloadError) -> Int {
    let v = try field(o, key, label)
    guard case .number(let d, _) = v, Limits.isID(d) else {
      if case .number(let d, _) = v, d == d.rounded() {
        throw PayloadError("\(label()): field \"\(key)\" must be from 1 to 999999999999999, found \(JSONWriter.number(d))")
      }
      throw PayloadError("\(label()): field \"\(key)\" must be an integer, found \(v.typeName)")
    }
    return Int(d)
  }

  private static func number(
    _ o: JSON, _ key: String, _ label: @autoclosure () -> String, _ range: ClosedRange<Double>
  ) throws(PayloadError) -> Double {
    let v = try field(o, key, label)
    guard case .number(let d, _) = v else {
      throw PayloadError("\(label()): field \"\(key)\" must be a number, found \(v.typeName)")
    }
    guard range.contains(d) else {
      throw PayloadError(
        "\(label()): field \"\(key)\" is \(JSONWriter.number(d)), outside \(Int(range.lowerBound))…\(Int(range.upperBound))")
    }
    return d
  }

  private static func text(
    _ o: JSON, _ key: String, _ label: @autoclosure () -> String, nonEmpty: Bool
  ) throws(PayloadError) -> String {
    let v = try field(o, key, label)
    guard case .string(let raw) = v else {
      throw PayloadError("\(label()): field \"\(key)\" must be a string, found \(v.typeName)")
    }
    let s: String
    do throws(StoredText.TooLong) {
      s = try StoredText.clean(raw)
    } catch {
      throw PayloadError("\(label()): field \"\(key)\" has \(error.scalars) characters, more than \(StoredText.maxScalars)")
    }
    if nonEmpty && s.isEmpty { throw PayloadError("\(label()): field \"\(key)\" is empty") }
    return s
  }
}
