/// The catalogue's binary form of a ``City``, by record version (the envelope's schema).
///
/// | version | layout |
/// |---|---|
/// | 1 | id, name, country, lat, lon, temp, description, humidity, wind, days (date, temp, description, humidity, wind) |
/// | 2 | as 1, but temp, humidity and wind each a presence byte and a double when present; then an observation (presence byte, local time, UTC offset, source) |
/// | 3 | as 2, each day followed by sunrise, sunset, UV maximum, precipitation sum, chance and dominant wind direction; after the observation feels-like, wind direction, gusts and precipitation now, then the hours (count; when any, the first hour's local time, then per hour the minutes since the one before and its ten values) |
/// | 4 | as 3, then the provenance (source byte, 0 for none; observed-at as a varint, 0 for none, else seconds since the epoch + 1), each day's minimum temperature (0.1 °C, scaled), then pressure (0.1 hPa), visibility (m), dew point (0.1 °C) and cloud cover (%), each scaled |
///
/// Version 3's new values are stored at the API's own resolution as one varint each
/// (``ByteWriter/scaled(_:_:)``: 0 for unknown, else the zigzag of the value × scale, plus 1):
/// 0.1 °C and km/h, 0.01 mm and UV, whole degrees and percent; sunrise and sunset as minutes
/// past midnight, a weather code as itself, day or night as one byte; an hour's values are
/// differences from the hour before's (``HourDeltas``), so an hour costs about 12 bytes (90 as
/// doubles). Version 1 records (wx before unknown values) and 2 still
/// read: what they lack is unknown.
package enum CityRecord {
  /// The version written; ``readable`` are read.
  package static let version: UInt8 = 4
  package static let readable: ClosedRange<UInt8> = 1...4
}

extension City {
  /// Binary form for the catalogue store (``CityRecord/version``).
  package func encoded() -> [UInt8] {
    var w = ByteWriter(capacity: 96 + forecast.count * 40 + hourly.count * 18)
    w.int(id)
    w.string(name)
    w.string(country)
    w.double(latitude)
    w.double(longitude)
    w.optional(temperatureC)
    w.string(description)
    w.optional(humidity)
    w.optional(windKmh)
    w.varint(UInt64(forecast.count))
    for day in forecast {
      w.string(day.date)
      w.optional(day.temperatureC)
      w.string(day.description)
      w.optional(day.humidity)
      w.optional(day.windKmh)
      w.scaled(day.sunrise.map(Double.init), 1)
      w.scaled(day.sunset.map(Double.init), 1)
      w.scaled(day.uvIndexMax, 100)
      w.scaled(day.precipitationMm, 100)
      w.scaled(day.precipitationProbability, 1)
      w.scaled(day.windDirection, 1)
    }
    w.bool(observation != nil)
    if let o = observation {
      w.string(o.localTime)
      w.int(o.utcOffsetSeconds)
      w.string(o.source)
    }
    w.scaled(feelsLikeC, 10)
    w.scaled(windDirection, 1)
    w.scaled(gustsKmh, 10)
    w.scaled(precipitationMm, 100)
    // Hours out of order are not stored (the decoder never makes them).
    let ordered = zip(hourly, hourly.dropFirst()).allSatisfy { $0.minutes < $1.minutes && $1.minutes - $0.minutes <= 24 * 60 }
    let hours = ordered ? hourly : []
    w.varint(UInt64(hours.count))
    var previous = hours.first?.minutes ?? 0
    if let first = hours.first { w.string(first.time) }
    var last = HourDeltas()
    for h in hours {
      w.varint(UInt64(h.minutes - previous))
      previous = h.minutes
      last.write(h, &w)
    }
    w.u8(provenance?.source.byte ?? 0)
    w.varint(provenance?.observedAt.map { UInt64(bitPattern: $0) &+ 1 } ?? 0)
    for day in forecast { w.scaled(day.temperatureMinC, 10) }
    w.scaled(pressureHpa, 10)
    w.scaled(visibilityM, 1)
    w.scaled(dewPointC, 10)
    w.scaled(cloudCover, 1)
    return w.bytes
  }

  /// Reads a record of `version` (one of ``CityRecord/readable``).
  package init(decoding r: inout ByteReader, version: UInt8 = CityRecord.version) throws(MalformedValue) {
    let v1 = version == 1
    let v3 = version >= 3
    id = try r.int()
    name = try r.string()
    country = try r.string()
    latitude = try r.double()
    longitude = try r.double()
    temperatureC = try r.optionalDouble(always: v1)
    description = try r.string()
    humidity = try r.optionalDouble(always: v1)
    windKmh = try r.optionalDouble(always: v1)
    let n = try r.count(limit: ForecastDay.maxDays)
    forecast = []
    forecast.reserveCapacity(n)
    for _ in 0..<n {
      var day = ForecastDay(
        date: try r.string(), temperatureC: try r.optionalDouble(always: v1), description: try r.string(),
        humidity: try r.optionalDouble(always: v1), windKmh: try r.optionalDouble(always: v1))
      if v3 {
        day.sunrise = try r.scaled(1).map { Int($0) }
        day.sunset = try r.scaled(1).map { Int($0) }
        day.uvIndexMax = try r.scaled(100)
        day.precipitationMm = try r.scaled(100)
        day.precipitationProbability = try r.scaled(1)
        day.windDirection = try r.scaled(1)
        guard [day.sunrise, day.sunset].allSatisfy({ $0 == nil || (0..<1440).contains($0!) }) else { throw MalformedValue() }
      }
      forecast.append(day)
    }
    observation = nil
    if !v1, try r.bool() {
      observation = Observation(localTime: try r.string(), utcOffsetSeconds: try r.int(), source: try r.string())
    }
    if v3 {
      feelsLikeC = try r.scaled(10)
      windDirection = try r.scaled(1)
      gustsKmh = try r.scaled(10)
      precipitationMm = try r.scaled(100)
      let hours = try r.count(limit: ForecastHour.maxHours)
      hourly.reserveCapacity(hours)
      if hours > 0 {
        guard var minutes = LocalTime.minutes(try r.string()) else { throw MalformedValue() }
        var last = HourDeltas()
        for k in 0..<hours {
          let step = try r.varint()
          guard k == 0 ? step == 0 : (1...(24 * 60)).contains(step) else { throw MalformedValue() }
          minutes += Int64(step)
          hourly.append(try last.read(minutes: minutes, &r))
        }
      }
    }
    if version >= 4 {
      let byte = try r.u8()
      let at = try r.varint()
      if byte != 0 {
        guard let source = WeatherSource(byte: byte) else { throw MalformedValue() }
        provenance = Provenance(source: source, observedAt: at == 0 ? nil : Int64(bitPattern: at &- 1))
      }
      for k in forecast.indices { forecast[k].temperatureMinC = try r.scaled(10) }
      pressureHpa = try r.scaled(10)
      visibilityM = try r.scaled(1)
      dewPointC = try r.scaled(10)
      cloudCover = try r.scaled(1)
    }
    let values = [temperatureC, humidity, windKmh].compactMap { $0 }
    guard !name.isEmpty, values.allSatisfy(\.isFinite) else { throw MalformedValue() }
  }
}

extension ByteWriter {
  /// A presence byte, then the value when present.
  mutating func optional(_ v: Double?) {
    bool(v != nil)
    if let v { double(v) }
  }
}

/// An hour's values after the first as differences from the hour before's (the last known
/// value of each; 0 before any), each ``ByteWriter/scaled(_:_:)``: the weather changes
/// little from one hour to the next, so most take one byte instead of two.
struct HourDeltas {
  static let scales: [Double] = [10, 10, 1, 100, 1, 10, 1, 10, 100]
  var last = [Int64](repeating: 0, count: 9)

  static func values(_ h: ForecastHour) -> [Double?] {
    [
      h.temperatureC, h.feelsLikeC, h.precipitationProbability, h.precipitationMm, h.weatherCode.map(Double.init),
      h.windKmh, h.windDirection, h.gustsKmh, h.uvIndex,
    ]
  }

  mutating func write(_ h: ForecastHour, _ w: inout ByteWriter) {
    for (k, v) in Self.values(h).enumerated() {
      guard let v else {
        w.varint(0)
        continue
      }
      let n = Int64((v * Self.scales[k]).rounded(.toNearestOrAwayFromZero))
      w.scaled(Double(n - last[k]), 1)
      last[k] = n
    }
    w.u8(h.isDay.map { $0 ? 2 : 1 } ?? 0)
  }

  mutating func read(minutes: Int64, _ r: inout ByteReader) throws(MalformedValue) -> ForecastHour {
    var v = [Double?](repeating: nil, count: 9)
    for k in 0..<9 {
      guard let d = try r.scaled(1) else { continue }
      last[k] += Int64(d)
      guard abs(last[k]) <= 1 << 32 else { throw MalformedValue() }
      v[k] = Double(last[k]) / Self.scales[k]
    }
    return ForecastHour(
      minutes: minutes, temperatureC: v[0], feelsLikeC: v[1], precipitationProbability: v[2], precipitationMm: v[3],
      weatherCode: v[4].map { Int($0) }, windKmh: v[5], windDirection: v[6], gustsKmh: v[7], uvIndex: v[8],
      isDay: try r.dayOrNight())
  }
}

extension ByteWriter {
  /// `v` at `scale` steps a unit as one varint: 0 when unknown, else zigzag(round(v × scale)) + 1.
  mutating func scaled(_ v: Double?, _ scale: Double) {
    guard let v else { return varint(0) }
    let n = Int64((v * scale).rounded(.toNearestOrAwayFromZero))
    varint(UInt64(bitPattern: (n << 1) ^ (n >> 63)) + 1)
  }
}

extension ByteReader {
  /// A value written by ``ByteWriter/scaled(_:_:)``.
  mutating func scaled(_ scale: Double) throws(MalformedValue) -> Double? {
    let raw = try varint()
    guard raw != 0 else { return nil }
    guard raw <= 1 << 40 else { throw MalformedValue() }  // far past any value a decoder accepts
    let z = Int64(raw - 1)
    return Double((z >> 1) ^ -(z & 1)) / scale
  }

  /// Day (2), night (1) or unknown (0).
  mutating func dayOrNight() throws(MalformedValue) -> Bool? {
    switch try u8() {
    case 0: return nil
    case 1: return false
    case 2: return true
    default: throw MalformedValue()
    }
  }

  /// A value written by ``ByteWriter/optional(_:)``, or (`always`) a plain double.
  mutating func optionalDouble(always: Bool) throws(MalformedValue) -> Double? {
    if always { return try double() }
    return try bool() ? try double() : nil
  }
}
