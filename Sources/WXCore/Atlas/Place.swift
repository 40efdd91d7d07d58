import Glibc

/// One place of the world atlas (GeoNames `cities1000`: every place of 1,000 people or more).
///
/// A place has no weather of its own: it gets some when a catalogue city is the same place
/// (``PlaceSearch``), or once an Open-Meteo sync has fetched it.
package struct Place: Equatable, Sendable {
  /// Its position in the atlas, which lists places largest first: a smaller position is a
  /// larger place, so ranking by population is ranking by position.
  package var position: Int
  package var geonameID: Int
  package var name: String
  /// ISO 3166-1 alpha-2 (`SI`).
  package var countryCode: String
  /// The country's name as GeoNames writes it (`Slovenia`, `United States`).
  package var country: String
  /// The first-level region's name (`Illinois`, `Ontario`, `Hesse`); nil when unknown.
  package var region: String?
  /// The US state's postal code (`IL`), for "Portland, OR"; nil elsewhere.
  package var stateCode: String?
  package var latitude: Double
  package var longitude: Double
  package var population: Int
  /// IANA time zone (`Europe/Ljubljana`).
  package var timeZone: String

  package init(
    position: Int, geonameID: Int, name: String, countryCode: String, country: String, region: String?,
    stateCode: String?, latitude: Double, longitude: Double, population: Int, timeZone: String
  ) {
    self.position = position
    self.geonameID = geonameID
    self.name = name
    self.countryCode = countryCode
    self.country = country
    self.region = region
    self.stateCode = stateCode
    self.latitude = latitude
    self.longitude = longitude
    self.population = population
    self.timeZone = timeZone
  }

  /// The place as a catalogue city without weather (what an Open-Meteo sync fills in): its
  /// id is the GeoNames id.
  package var city: City {
    City(
      id: geonameID, name: name, country: country, latitude: latitude, longitude: longitude, temperatureC: nil,
      description: "", humidity: nil, windKmh: nil, forecast: [])
  }

  /// Its atlas record (the position is the record's place in the store, not stored).
  func encoded() -> [UInt8] {
    var w = ByteWriter(capacity: 64 + name.utf8.count)
    w.varint(UInt64(geonameID))
    w.string(name)
    w.string(countryCode)
    w.string(country)
    w.string(region ?? "")
    w.string(stateCode ?? "")
    w.double(latitude)
    w.double(longitude)
    w.varint(UInt64(population))
    w.string(timeZone)
    return w.bytes
  }

  init(decoding r: inout ByteReader, position: Int) throws(MalformedValue) {
    self.position = position
    geonameID = Int(try r.varint())
    name = try r.string()
    countryCode = try r.string()
    country = try r.string()
    let region = try r.string()
    self.region = region.isEmpty ? nil : region
    let state = try r.string()
    stateCode = state.isEmpty ? nil : state
    latitude = try r.double()
    longitude = try r.double()
    population = Int(try r.count(limit: Int(Int32.max)))
    timeZone = try r.string()
    guard !name.isEmpty, latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else {
      throw MalformedValue()
    }
  }

  /// Kilometres between two points on the Earth (haversine).
  package static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let rad = Double.pi / 180
    let dLat = (lat2 - lat1) * rad
    let dLon = (lon2 - lon1) * rad
    let a = sin2(dLat / 2) + cosine(lat1 * rad) * cosine(lat2 * rad) * sin2(dLon / 2)
    return 2 * 6371 * asinSqrt(a)
  }
}

private func sin2(_ x: Double) -> Double { let s = sin(x); return s * s }
private func cosine(_ x: Double) -> Double { cos(x) }
private func asinSqrt(_ a: Double) -> Double { asin(min(1, a.squareRoot())) }

extension Place {
  /// The place's local time at `seconds` (`2026-11-25 07:58`) from the system's time-zone
  /// data, or nil when its zone is not installed. The zone is checked to be a plain IANA name
  /// (`Area/City`) before it is given to the C library.
  package func localTime(at seconds: Int64, _ pattern: String = "%Y-%m-%d %H:%M") -> String? {
    guard Self.isZoneName(timeZone), FileSystem.exists("/usr/share/zoneinfo/" + timeZone) else { return nil }
    let previous = getenv("TZ").map { String(cString: $0) }
    setenv("TZ", timeZone, 1)
    tzset()
    defer {
      if let previous { setenv("TZ", previous, 1) } else { unsetenv("TZ") }
      tzset()
    }
    return Clock.format(seconds, pattern)
  }

  static func isZoneName(_ zone: String) -> Bool {
    !zone.isEmpty && zone.count < 64 && !zone.hasPrefix("/") && !zone.contains("..")
      && zone.utf8.allSatisfy { b in
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
          || b == UInt8(ascii: "/") || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
      }
  }
}
