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
  /// Current temperature, °C.
  package var temperatureC: Double
  package var description: String
  /// Relative humidity, percent (0–100).
  package var humidity: Double
  /// Wind speed, km/h.
  package var windKmh: Double
  /// Forecast days in date order (freetestapi sends two; 0…``ForecastDay/maxDays`` are accepted).
  package var forecast: [ForecastDay]

  package init(
    id: Int, name: String, country: String, latitude: Double, longitude: Double, temperatureC: Double,
    description: String, humidity: Double, windKmh: Double, forecast: [ForecastDay]
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
  }

  /// The stable identity of a city across syncs: folded name and country.
  package var identity: CityIdentity { CityIdentity(name: name, country: country) }
}

/// One forecast day. Units as in ``City``.
package struct ForecastDay: Equatable, Sendable {
  /// The most forecast days a city may have: the store reads back no more, so the decoder
  /// accepts no more.
  package static let maxDays = 366

  /// `YYYY-MM-DD`, as the provider sent it.
  package var date: String
  package var temperatureC: Double
  package var description: String
  package var humidity: Double
  package var windKmh: Double

  package init(date: String, temperatureC: Double, description: String, humidity: Double, windKmh: Double) {
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

extension City {
  /// Binary form for the catalogue store.
  package func encoded() -> [UInt8] {
    var w = ByteWriter(capacity: 96 + forecast.count * 32)
    w.int(id)
    w.string(name)
    w.string(country)
    w.double(latitude)
    w.double(longitude)
    w.double(temperatureC)
    w.string(description)
    w.double(humidity)
    w.double(windKmh)
    w.varint(UInt64(forecast.count))
    for day in forecast {
      w.string(day.date)
      w.double(day.temperatureC)
      w.string(day.description)
      w.double(day.humidity)
      w.double(day.windKmh)
    }
    return w.bytes
  }

  package init(decoding r: inout ByteReader) throws(MalformedValue) {
    id = try r.int()
    name = try r.string()
    country = try r.string()
    latitude = try r.double()
    longitude = try r.double()
    temperatureC = try r.double()
    description = try r.string()
    humidity = try r.double()
    windKmh = try r.double()
    let n = try r.count(limit: ForecastDay.maxDays)
    forecast = []
    forecast.reserveCapacity(n)
    for _ in 0..<n {
      forecast.append(
        ForecastDay(
          date: try r.string(), temperatureC: try r.double(), description: try r.string(),
          humidity: try r.double(), windKmh: try r.double()))
    }
    guard !name.isEmpty, temperatureC.isFinite, windKmh.isFinite, humidity.isFinite else { throw MalformedValue() }
  }
}
