/// One city of the catalogue with its current conditions and forecast.
///
/// Units are canonical and metric: temperatures in °C, wind in km/h, humidity in percent.
/// Conversion happens only when rendering (see ``TemperatureUnit``).
package struct City: Equatable, Sendable {
  /// The provider's id. Not unique: the live freetestapi catalogue gives Canberra and
  /// Wellington the same id 45, so identity is ``identity`` (city + country), never the id.
  package var id: Int
  package var name: String
  package var country: String
  package var latitude: Double
  package var longitude: Double
  /// Current temperature, °C; nil when the provider does not know it (such a city sorts
  /// last in warmest-first orders).
  package var temperatureC: Double?
  package var description: String
  /// Relative humidity, percent (0–100); nil when unknown.
  package var humidity: Double?
  /// Wind speed, km/h; nil when unknown.
  package var windKmh: Double?
  /// Forecast days in date order (freetestapi sends two; 0…``ForecastDay/maxDays`` are accepted).
  package var forecast: [ForecastDay]
  /// Where and when the current conditions were observed, when the provider says.
  package var observation: Observation?
  /// Apparent ("feels like") temperature, °C (Open-Meteo only, as are the next four).
  package var feelsLikeC: Double? = nil
  /// Where the wind blows from, degrees clockwise from north.
  package var windDirection: Double? = nil
  /// Wind gusts, km/h.
  package var gustsKmh: Double? = nil
  /// Precipitation now, mm (the last interval's).
  package var precipitationMm: Double? = nil
  /// The next hours from the observation's hour on (at most ``ForecastHour/maxHours``), in
  /// time order; empty when the provider sends none (freetestapi, AccuWeather).
  package var hourly: [ForecastHour] = []
  /// Pressure at sea level, hPa; visibility, m; dew point, °C; cloud cover, percent
  /// (Open-Meteo only; nil when unknown).
  package var pressureHpa: Double? = nil
  package var visibilityM: Double? = nil
  package var dewPointC: Double? = nil
  package var cloudCover: Double? = nil
  /// Where the weather came from and when it was observed (``Provenance``); stored with
  /// records of version 4, filled in by the catalogue for older ones (``origin`` reads it).
  package var provenance: Provenance? = nil

  package init(
    id: Int, name: String, country: String, latitude: Double, longitude: Double, temperatureC: Double?,
    description: String, humidity: Double?, windKmh: Double?, forecast: [ForecastDay], observation: Observation? = nil
  ) {
    self.id = id
    self.name = name
    self.country = country
    self.latitude = latitude
    self.longitude = longitude
    self.temperatureC = temperatureC
    self.description = description
    self.humidity = humidity
    self.windKmh = windKmh
    self.forecast = forecast
    self.observation = observation
  }

  /// The stable identity of a city across syncs: folded name and country.
  package var identity: CityIdentity { CityIdentity(name: name, country: country) }
}

/// One forecast day. Units as in ``City``.
package struct ForecastDay: Equatable, Sendable {
  /// The most forecast days a city may have: the store reads back no more, so the decoder
  /// accepts no more.
  package static let maxDays = 366

  /// `YYYY-MM-DD`, as the provider sent it: the city's local date.
  package var date: String

  /// Whether `s` is a calendar date written `YYYY-MM-DD` (years 1…9999, leap days checked):
  /// the only form the decoders accept, so forecast days sort by date and read as dates.
  package static func isDate(_ s: String) -> Bool {
    var s = s
    return s.withUTF8 { isDate(bytes: $0) }
  }

  static func isDate(bytes b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return false }
    func number(_ r: Range<Int>) -> Int? {
      var n = 0
      for i in r {
        guard b[i] >= UInt8(ascii: "0") && b[i] <= UInt8(ascii: "9") else { return nil }
        n = n * 10 + Int(b[i] - UInt8(ascii: "0"))
      }
      return n
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      year >= 1, (1...12).contains(month), day >= 1
    else { return false }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    switch month {
    case 2: return day <= (leap ? 29 : 28)
    case 4, 6, 9, 11: return day <= 30
    default: return day <= 31
    }
  }
  /// The day's temperature (Open-Meteo: its maximum), °C; nil when unknown.
  package var temperatureC: Double?
  /// The day's minimum, °C (Open-Meteo only; nil when unknown).
  package var temperatureMinC: Double? = nil
  package var description: String
  package var humidity: Double?
  /// The day's wind (Open-Meteo: its maximum), km/h.
  package var windKmh: Double?
  /// Sunrise and sunset, minutes past local midnight (Open-Meteo only, as are the next four;
  /// nil in a polar day or night, or when unknown).
  package var sunrise: Int? = nil
  package var sunset: Int? = nil
  /// The day's highest UV index.
  package var uvIndexMax: Double? = nil
  /// The day's precipitation, mm.
  package var precipitationMm: Double? = nil
  /// The day's highest chance of precipitation, percent.
  package var precipitationProbability: Double? = nil
  /// The day's dominant wind direction, degrees clockwise from north.
  package var windDirection: Double? = nil

  package init(date: String, temperatureC: Double?, description: String, humidity: Double?, windKmh: Double?) {
    self.date = date
    self.temperatureC = temperatureC
    self.description = description
    self.humidity = humidity
    self.windKmh = windKmh
  }
}

/// What stays the same about a city from one sync to the next: its name and country,
/// compared folded (so "Zürich" written "Zu\u{308}rich" is the same city).
package struct CityIdentity: Hashable, Sendable {
  package var name: String
  package var country: String

  package init(name: String, country: String) {
    self.name = name
    self.country = country
  }

  /// The key form: folded name, U+001F, folded country.
  package var key: [UInt8] { Fold.key(name) + [0x1F] + Fold.key(country) }
}

/// When and by whom a city's current conditions were observed.
package struct Observation: Equatable, Sendable {
  /// The city's local time, `YYYY-MM-DDTHH:MM`, as the provider sent it.
  package var localTime: String
  /// The city's offset from UTC at that time, in seconds.
  package var utcOffsetSeconds: Int
  /// Who observed it (`Open-Meteo`).
  package var source: String

  package init(localTime: String, utcOffsetSeconds: Int, source: String) {
    self.localTime = localTime
    self.utcOffsetSeconds = utcOffsetSeconds
    self.source = source
  }

  /// `18:45`: the local clock time.
  package var clock: String { localTime.count >= 16 ? String(localTime.dropFirst(11).prefix(5)) : localTime }

  /// ISO 8601 with the offset, seconds included (RFC 3339): `2026-11-23T18:45:00+01:00`.
  package var iso8601: String {
    let sign = utcOffsetSeconds < 0 ? "-" : "+"
    let m = abs(utcOffsetSeconds) / 60
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(localTime):00\(sign)\(two(m / 60)):\(two(m % 60))"
  }
}

extension City {
  /// What tells two of a catalogue's records apart, compared without copying either: the id
  /// alone does not (freetestapi's Canberra and Wellington share one), and ``identity`` (name
  /// and country) is what one place is, across catalogues.
  package struct RecordKey: Equatable, Sendable {
    let id: Int
    let name: String
    let latitude: Double
    let longitude: Double
  }

  package var recordKey: RecordKey { RecordKey(id: id, name: name, latitude: latitude, longitude: longitude) }
}
