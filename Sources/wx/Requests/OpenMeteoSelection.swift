import WXCore

/// Which of the catalogue's cities an Open-Meteo call covers (`--favourites`, `--max-cities`):
/// one value, its range and its rules, for `wx sync --provider open-meteo` and `wx aqi sync`.
struct OpenMeteoSelection {
  /// Cities asked for without `--favourites` or `--max-cities`: the free tier counts one call
  /// per location and allows 600 a minute.
  static let cap = 500
  static let maxCitiesRange = 1...100_000
  var favourites = false
  var maxCities: Int?

  func validate() throws(UsageError) {
    if let maxCities, !Self.maxCitiesRange.contains(maxCities) {
      throw UsageError("--max-cities must be between 1 and \(Self.maxCitiesRange.upperBound)")
    }
  }

  /// The current catalogue's cities, the positions the call covers (all, the favourites, or
  /// the first `maxCities`; more than ``cap`` only when asked), and the catalogue's header.
  func cities(_ ctx: Context) throws -> (cities: [City], refresh: [Int], meta: CatalogueMeta) {
    let catalogue = try ctx.catalogue()
    defer { catalogue.close() }
    let cities = try catalogue.all()
    var refresh = Array(cities.indices)
    if favourites {
      let wanted = Set(try ctx.home.favourites.list().map { $0.identity.key })
      guard !wanted.isEmpty else { throw UsageError("no favourites to refresh; add some with `wx fav add CITY`") }
      refresh = refresh.filter { wanted.contains(cities[$0].identity.key) }
      guard !refresh.isEmpty else { throw UsageError("none of the favourites is in the current catalogue") }
    }
    if let maxCities {
      refresh = Array(refresh.prefix(maxCities))
    } else if refresh.count > Self.cap {
      throw UsageError(
        "the catalogue has \(refresh.count) cities, more than the \(Self.cap) Open-Meteo is asked for by default "
          + "(one API call each); pass --favourites or --max-cities N")
    }
    return (cities, refresh, catalogue.meta)
  }
}
