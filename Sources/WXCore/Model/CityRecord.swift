/// The catalogue's binary form of a ``City``, by record version (the envelope's schema).
///
/// | version | layout |
/// |---|---|
/// | 1 | id, name, country, lat, lon, temp, description, humidity, wind, days (date, temp, description, humidity, wind) |
/// | 2 | as 1, but temp, humidity and wind each a presence byte and a double when present; then an observation (presence byte, local time, UTC offset, source) |
///
/// Version 1 records (wx before unknown values) still read: their values are all known.
package enum CityRecord {
  /// The version written; ``readable`` are read.
  package static let version: UInt8 = 2
  package static let readable: ClosedRange<UInt8> = 1...2
}

extension City {
  /// Binary form for the catalogue store (``CityRecord/version``).
  package func encoded() -> [UInt8] {
    var w = ByteWriter(capacity: 96 + forecast.count * 32)
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
    }
    w.bool(observation != nil)
    if let o = observation {
      w.string(o.localTime)
      w.int(o.utcOffsetSeconds)
      w.string(o.source)
    }
    return w.bytes
  }

  /// Reads a record of `version` (one of ``CityRecord/readable``).
  package init(decoding r: inout ByteReader, version: UInt8 = CityRecord.version) throws(MalformedValue) {
    let v1 = version == 1
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
      forecast.append(
        ForecastDay(
          date: try r.string(), temperatureC: try r.optionalDouble(always: v1), description: try r.string(),
          humidity: try r.optionalDouble(always: v1), windKmh: try r.optionalDouble(always: v1)))
    }
    observation = nil
    if !v1, try r.bool() {
      observation = Observation(localTime: try r.string(), utcOffsetSeconds: try r.int(), source: try r.string())
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

extension ByteReader {
  /// A value written by ``ByteWriter/optional(_:)``, or (`always`) a plain double.
  mutating func optionalDouble(always: Bool) throws(MalformedValue) -> Double? {
    if always { return try double() }
    return try bool() ? try double() : nil
  }
}
