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
  /// `--city`: one place, a catalogue city or any atlas place (`wx sync --provider open-meteo`).
  var city: String? = nil

  func validate() throws(UsageError) {
    if let maxCities, !Self.maxCitiesRange.contains(maxCities) {
      throw UsageError("--max-cities must be between 1 and \(Self.maxCitiesRange.upperBound)")
    }
    if city != nil && (favourites || maxCities != nil) {
      throw UsageError("--city names one place: it goes without --favourites and --max-cities")
    }
    if let city { try TypedName.check(city, as: "--city") }
  }

  /// The current catalogue's cities, the positions the call covers (all, the favourites, one
  /// `city`, or the first `maxCities`; more than ``cap`` only when asked), and the catalogue's
  /// header. Favourites and a `city` that are atlas places but no catalogue city are added
  /// after the catalogue's cities: the sync stores them with their weather.
  func cities(_ ctx: Context) throws -> (cities: [City], refresh: [Int], meta: CatalogueMeta) {
    let catalogue = try ctx.catalogue()
    defer { catalogue.close() }
    var cities = try catalogue.all()
    var refresh = Array(cities.indices)
    if let city {
      let finder = try ctx.finder(catalogue)
      defer { finder.atlas?.close() }
      refresh = [try Self.position(of: try ctx.resolvePlace(city, in: finder), in: &cities)]
    } else if favourites {
      let list = try ctx.home.favourites.list()
      guard !list.isEmpty else { throw UsageError("no favourites to refresh; add some with `wx fav add CITY`") }
      // Catalogue cities, and atlas places, which join the catalogue with their weather.
      let finder = try ctx.finder(catalogue)
      defer { finder.atlas?.close() }
      var wanted: Set<Int> = []
      for f in list {
        if let found = try finder.found(f) {
          wanted.insert(try Self.position(of: found, in: &cities))
        } else if let lat = f.latitude, let lon = f.longitude, finder.atlas == nil {
          cities.append(
            City(
              id: f.id, name: f.name, country: f.country, latitude: lat, longitude: lon,
              temperatureC: nil, description: "", humidity: nil, windKmh: nil, forecast: []))
          wanted.insert(cities.count - 1)
        }
      }
      refresh = wanted.sorted()
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

  /// The position of `found` in `cities`: its catalogue city's, or a new one at the end for a
  /// place that is no catalogue city (it joins the catalogue with its weather).
  static func position(of found: Found, in cities: inout [City]) throws -> Int {
    if let city = found.city, let i = cities.firstIndex(of: city) { return i }
    cities.append(found.asCity)
    return cities.count - 1
  }
}
