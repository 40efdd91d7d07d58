/// Which cities an Open-Meteo call covers (`wx sync --provider open-meteo`, `wx aqi sync`):
/// every city of the catalogue (at most ``cap``), its favourites or one place, the first
/// `limit` of them when asked, less those without coordinates.
///
/// The catalogue is read a record block at a time and only the chosen cities are kept: a plan
/// for the favourites of a 170,000-city catalogue holds the favourites, not the catalogue.
/// Places that are no catalogue city (atlas places among the favourites, `--city`) come after
/// the catalogue's cities: a weather sync stores them at its end.
package struct RefreshPlan: Sendable {
  /// Cities asked for without a limit: the free tier counts one call per location and
  /// allows 600 a minute.
  package static let cap = 500

  package enum Scope: Sendable {
    /// Every city of the catalogue.
    case all
    /// The cities of these favourites: catalogue cities, or atlas places (or, without the
    /// atlas, the favourite's own coordinates).
    case favourites([Favourite])
    /// One catalogue city or atlas place.
    case place(Found)

    var isFavourites: Bool {
      if case .favourites = self { return true }
      return false
    }
  }

  /// A chosen city: its catalogue position, or nil for a place that joins the catalogue.
  package struct Chosen: Equatable, Sendable {
    package var position: Int?
    /// The city as a refresh needs it: its id, name, country and coordinates (its weather,
    /// forecast and hours are what the refresh replaces, so a plan of 50,000 cities holds
    /// their names, not their weather).
    package var city: City
    /// Its first-level region, where the atlas knows it: what tells two places of one name in
    /// one country apart in the air-quality history (two favourite Springfields).
    package var region: String?

    package init(position: Int? = nil, city: City, region: String? = nil) {
      self.position = position
      self.region = region
      self.city = City(
        id: city.id, name: city.name, country: city.country, latitude: city.latitude, longitude: city.longitude,
        temperatureC: nil, description: "", humidity: nil, windKmh: nil, forecast: [])
    }
  }

  /// The chosen cities: catalogue cities in catalogue order, then places that join it.
  package let chosen: [Chosen]
  /// The header of the catalogue planned from: a sync refuses to publish over another one.
  package let basis: CatalogueMeta
  /// That catalogue's file.
  package let path: String
  /// Cities left out for having no coordinates (Open-Meteo is asked by coordinates).
  package let skipped: Int

  /// The chosen cities, in order.
  package var cities: [City] { chosen.map(\.city) }
  /// Their regions, where known, in the same order.
  package var regions: [String?] { chosen.map(\.region) }

  /// Chooses the cities of `scope` in `catalogue`, the first `limit` of them when given (else
  /// at most ``cap``). `finder` is asked only for favourites (it may open the atlas).
  package init(
    _ scope: Scope, limit: Int?, catalogue: Catalogue, finder: () throws -> PlaceFinder
  ) throws {
    var chosen: [Chosen]
    switch scope {
    case .all:
      // The cap is checked on the header: nothing is read for a refusal.
      let n = min(catalogue.meta.count, limit ?? Int.max)
      if limit == nil && n > Self.cap { throw RefreshPlanError.tooMany(count: n, cap: Self.cap) }
      chosen = try Self.first(n, of: catalogue)
    case .place(let found):
      chosen = [try Self.chosen(found, in: catalogue)]
    case .favourites(let list):
      guard !list.isEmpty else { throw RefreshPlanError.noFavourites }
      chosen = try Self.favourites(list, in: catalogue, finder: try finder())
      guard !chosen.isEmpty else { throw RefreshPlanError.noFavouriteInCatalogue }
    }
    if let limit {
      chosen = Array(chosen.prefix(limit))
    } else if chosen.count > Self.cap {
      throw RefreshPlanError.tooMany(count: chosen.count, cap: Self.cap, favourites: scope.isFavourites)
    }
    // A city without coordinates (AccuWeather may leave one so) is never fetched at 0°N 0°E:
    // it keeps its record, and the summary says how many were skipped.
    let located = chosen.filter(\.city.hasCoordinates)
    guard !located.isEmpty else { throw RefreshPlanError.noCoordinates(count: chosen.count) }
    self.chosen = located
    skipped = chosen.count - located.count
    basis = catalogue.meta
    path = catalogue.path
  }

  /// The first `n` cities of the catalogue, one record block at a time.
  private static func first(_ n: Int, of catalogue: Catalogue) throws(StoreError) -> [Chosen] {
    var out: [Chosen] = []
    out.reserveCapacity(n)
    for start in stride(from: 0, to: n, by: CatalogueKey.citiesPerBlock) {
      let page = try catalogue.page(order: .catalogue, offset: start, limit: min(CatalogueKey.citiesPerBlock, n - start))
      catalogue.forgetBlocks()
      for (k, city) in page.enumerated() { out.append(Chosen(position: start + k, city: city)) }
    }
    return out
  }

  /// The favourites' cities: catalogue cities in catalogue order (a city once), then atlas
  /// places (a place once). Without the atlas, a favourite added from it is fetched by its own
  /// coordinates; with it, a favourite that is neither a city nor a place is left out.
  private static func favourites(_ list: [Favourite], in catalogue: Catalogue, finder: PlaceFinder) throws -> [Chosen] {
    var positions: [Int: Chosen] = [:]
    var added: [Chosen] = []
    // Once each place, by the favourites' own rule (``Favourite/samePlace(as:)``): two
    // Springfields of the United States, or two San Pedros of Coahuila 42 km apart, are two.
    var places = FavouritesStore.Places()
    func add(_ chosen: Chosen, as place: Favourite) {
      if places.insert(place) { added.append(chosen) }
    }
    for f in list {
      if let found = try finder.found(f) {
        let c = try chosen(found, in: catalogue)
        if let p = c.position { positions[p] = c } else { add(c, as: Favourite(found, added: 0, sequence: 0)) }
      } else if let lat = f.latitude, let lon = f.longitude, finder.atlas == nil {
        let city = City(
          id: f.id, name: f.name, country: f.country, latitude: lat, longitude: lon, temperatureC: nil, description: "",
          humidity: nil, windKmh: nil, forecast: [])
        add(Chosen(city: city, region: f.region), as: f)
      }
    }
    return positions.keys.sorted().map { positions[$0]! } + added
  }

  /// `found` as a chosen city: its catalogue city at its position, or the place as a new city.
  private static func chosen(_ found: Found, in catalogue: Catalogue) throws(StoreError) -> Chosen {
    let region = found.place?.region
    guard let city = found.city else { return Chosen(city: found.asCity, region: region) }
    guard let position = try catalogue.position(of: city) else { return Chosen(city: city, region: region) }
    return Chosen(position: position, city: city, region: region)
  }
}

extension Catalogue {
  /// The first position of `city` (equal in every field), found through its name's entries
  /// in the index (a few record blocks, not a scan); nil when it is not in the catalogue.
  package func position(of city: City) throws(StoreError) -> Int? {
    for ref in try exactNameEntries(fold(city.name)).map(\.ref).sorted() where try self.city(ref) == city {
      return ref
    }
    return nil
  }
}

/// Why no Open-Meteo call could be planned. The executable words it (a usage error).
package enum RefreshPlanError: Error, Equatable, Sendable {
  /// Favourites asked for, and there are none.
  case noFavourites
  /// None of the favourites is a catalogue city or (with the atlas) an atlas place.
  case noFavouriteInCatalogue
  /// More than `cap` cities without a limit (`favourites`: the cities are the favourites').
  case tooMany(count: Int, cap: Int, favourites: Bool = false)
  /// None of the `count` chosen cities has coordinates.
  case noCoordinates(count: Int)
}
