import WXCore

/// Open-Meteo is asked by coordinates: a city without them (AccuWeather may leave one so) is
/// never fetched at 0°N 0°E. It is skipped, keeps its record, and the summary says how many.
extension OpenMeteoSelection {
  /// `refresh` without the cities that have no coordinates, and how many those were; a usage
  /// error when none is left.
  static func located(_ cities: [City], _ refresh: [Int]) throws(UsageError) -> (refresh: [Int], skipped: Int) {
    let located = refresh.filter { cities[$0].hasCoordinates }
    guard !located.isEmpty else {
      throw UsageError(
        "none of the \(refresh.count) cities has coordinates, which Open-Meteo needs; sync a list of cities with them first")
    }
    return (located, refresh.count - located.count)
  }

  /// How a summary says that cities were skipped for having no coordinates (nil when none were).
  static func skippedWords(_ n: Int) -> String? {
    n == 0 ? nil : "skipped \(n) \(n == 1 ? "city" : "cities") without coordinates (Open-Meteo is asked by coordinates)"
  }
}
