/// Unknown coordinates. A provider may give a city none (AccuWeather's locations can lack a
/// `GeoPosition`): both are then stored as NaN (a record's coordinates are two doubles, and NaN
/// reads back as NaN), shown as unknown (`–`, JSON `null`) and never taken for 0°N 0°E:
/// Open-Meteo skips such a city.
extension City {
  package static let unknownCoordinate = Double.nan

  /// Whether the provider gave this city coordinates.
  package var hasCoordinates: Bool { !latitude.isNaN && !longitude.isNaN }
}
