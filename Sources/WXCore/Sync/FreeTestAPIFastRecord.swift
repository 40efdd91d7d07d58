import WXFeed

/// A freetestapi record read straight from its bytes, for the records of the usual shape: an
/// object of exactly the known fields (each once, `forecast` optional), numbers and strings
/// where they belong, and a forecast of day objects of exactly their known fields. It builds no
/// tree of the record and looks up no member by name.
///
/// It decides nothing: on anything else (another field, a duplicate, another type, a value
/// that fails a check, bytes still to come) it returns nil, and the record is parsed and
/// checked by ``JSON`` and ``FreeTestAPIDecoder/record(_:position:)``, which give the message.
/// What it accepts, those accept too and turn into the same ``City``: strings and numbers are
/// read by the parser's own routines and checked by the decoder's rules (a test and the decoder
/// fuzzer compare the two readings).
enum FreeTestAPIFastRecord {
  private typealias Limits = FreeTestAPIDecoder.Limits
  private enum Field: Int, CaseIterable {
    case id, city, country, latitude, longitude, temperature, description, humidity, wind, forecast
  }
  private enum DayField: Int, CaseIterable {
    case date, temperature, description, humidity, wind
  }

  private static let fields: [(StaticString, Field)] = [
    ("id", .id), ("city", .city), ("country", .country), ("latitude", .latitude), ("longitude", .longitude),
    ("temperature", .temperature), ("weather_description", .description), ("humidity", .humidity),
    ("wind_speed", .wind), ("forecast", .forecast),
  ]
  private static let dayFields: [(StaticString, DayField)] = [
    ("date", .date), ("temperature", .temperature), ("weather_description", .description), ("humidity", .humidity),
    ("wind_speed", .wind),
  ]

  /// The record whose object starts at `buf[0]`, and the offset just past it; nil to leave it
  /// to the parser and the decoder.
  static func read(_ buf: UnsafeBufferPointer<UInt8>) -> (City, Int)? {
    var r = Reader(buf: buf)
    guard r.take(UInt8(ascii: "{")) else { return nil }
    // Locals, not arrays: no allocation but the values' own.
    var (id, lat, lon, temp, hum, wind) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    var (name, country, description) = ("", "", "")
    var seen: UInt32 = 0
    var days: [ForecastDay] = []
    while true {
      guard let field = r.key(fields), seen & (1 << field.rawValue) == 0 else { return nil }
      seen |= 1 << field.rawValue
      switch field {
      case .city, .country, .description:
        guard let text = r.text(nonEmpty: field != .description) else { return nil }
        if field == .city { name = text } else if field == .country { country = text } else { description = text }
      case .forecast:
        guard let list = r.forecast() else { return nil }
        days = list
      case .id, .latitude, .longitude, .temperature, .humidity, .wind:
        guard let n = r.number() else { return nil }
        switch field {
        case .id: id = n
        case .latitude: lat = n
        case .longitude: lon = n
        case .temperature: temp = n
        case .humidity: hum = n
        default: wind = n
        }
      }
      guard let next = r.next() else { return nil }
      if next == UInt8(ascii: "}") { break }
      guard next == UInt8(ascii: ",") else { return nil }
    }
    // Every field but the forecast is required.
    guard seen | (1 << Field.forecast.rawValue) == (1 << Field.allCases.count) - 1 else { return nil }
    guard Limits.isID(id), Limits.latitude.contains(lat), Limits.longitude.contains(lon),
      Limits.temperature.contains(temp), Limits.humidity.contains(hum), Limits.wind.contains(wind),
      Fold.hasKey(name)
    else { return nil }
    days.sort { $0.date < $1.date }
    let city = City(
      id: Int(id), name: name, country: country, latitude: lat, longitude: lon, temperatureC: temp,
      description: description, humidity: hum, windKmh: wind, forecast: days)
    return (city, r.i)
  }

  private struct Reader {
    let buf: UnsafeBufferPointer<UInt8>
    var i = 0

    mutating func space() {
      while i < buf.count, buf[i] == 0x20 || buf[i] == 0x0A || buf[i] == 0x0D || buf[i] == 0x09 { i += 1 }
    }

    mutating func take(_ b: UInt8) -> Bool {
      space()
      guard i < buf.count, buf[i] == b else { return false }
      i += 1
      return true
    }

    /// The next byte after white space, consumed: `,` `}` `]` or anything.
    mutating func next() -> UInt8? {
      space()
      guard i < buf.count else { return nil }
      i += 1
      return buf[i - 1]
    }

    /// A member name among `known` (plain bytes, no escape), and its `:`.
    mutating func key<F>(_ known: [(StaticString, F)]) -> F? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      let start = i
      while i < buf.count, buf[i] != UInt8(ascii: "\""), buf[i] != UInt8(ascii: "\\") { i += 1 }
      guard i < buf.count, buf[i] == UInt8(ascii: "\"") else { return nil }
      let length = i - start
      i += 1
      for (name, field) in known where name.utf8CodeUnitCount == length {
        var same = true
        for k in 0..<length where name.utf8Start[k] != buf[start + k] {
          same = false
          break
        }
        if same { return take(UInt8(ascii: ":")) ? field : nil }
      }
      return nil
    }

    mutating func number() -> Double? {
      space()
      guard let (d, end) = JSON.number(in: buf, at: i) else { return nil }
      i = end
      return d
    }

    /// A string, cleaned as the decoder stores it (``StoredText``).
    mutating func text(nonEmpty: Bool) -> String? {
      space()
      guard let (raw, end) = JSON.string(in: buf, at: i), let s = try? StoredText.clean(raw), !nonEmpty || !s.isEmpty
      else { return nil }
      i = end
      return s
    }

    /// `[ {day}, … ]`, each day of exactly the known fields, at most ``ForecastDay/maxDays``.
    mutating func forecast() -> [ForecastDay]? {
      guard take(UInt8(ascii: "[")) else { return nil }
      var days: [ForecastDay] = []
      space()
      if i < buf.count, buf[i] == UInt8(ascii: "]") {
        i += 1
        return days
      }
      while true {
        guard days.count < ForecastDay.maxDays, let day = day() else { return nil }
        days.append(day)
        guard let next = next() else { return nil }
        if next == UInt8(ascii: "]") { return days }
        guard next == UInt8(ascii: ",") else { return nil }
      }
    }

    mutating func day() -> ForecastDay? {
      guard take(UInt8(ascii: "{")) else { return nil }
      var (temp, hum, wind) = (0.0, 0.0, 0.0)
      var date = ""
      var description = ""
      var seen: UInt32 = 0
      while true {
        guard let field = key(FreeTestAPIFastRecord.dayFields), seen & (1 << field.rawValue) == 0 else { return nil }
        seen |= 1 << field.rawValue
        switch field {
        case .date:
          guard let d = text(nonEmpty: true), ForecastDay.isDate(d) else { return nil }
          date = d
        case .description:
          guard let d = text(nonEmpty: false) else { return nil }
          description = d
        case .temperature, .humidity, .wind:
          guard let n = number() else { return nil }
          if field == .temperature { temp = n } else if field == .humidity { hum = n } else { wind = n }
        }
        guard let next = next() else { return nil }
        if next == UInt8(ascii: "}") { break }
        guard next == UInt8(ascii: ",") else { return nil }
      }
      guard seen == (1 << DayField.allCases.count) - 1 else { return nil }
      guard Limits.temperature.contains(temp), Limits.humidity.contains(hum), Limits.wind.contains(wind) else { return nil }
      return ForecastDay(date: date, temperatureC: temp, description: description, humidity: hum, windKmh: wind)
    }
  }
}
