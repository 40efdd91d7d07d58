import Testing

@testable import WXCore

/// One place is one favourite whatever the catalogue spells its country (issue 30: "Cairo, EG"
/// then "Cairo, Egypt" after a provider switch were two favourites, and `wx fav rm Cairo` 64).
@Suite struct FavouritesIdentityTests {
  static func city(_ name: String, _ country: String) -> City {
    City(
      id: 1, name: name, country: country, latitude: 30.04, longitude: 31.24, temperatureC: 20, description: "Sunny",
      humidity: nil, windKmh: nil, forecast: [])
  }

  @Test func aCountryCodeAndItsNameAreOneFavourite() throws {
    let s = Scratch()
    let store = FavouritesStore(path: s.file("favourites.gdbm"), writers: WriterLock.Policy(directory: s.path, deadline: 5))
    #expect(try store.add([Self.city("Cairo", "EG")], now: 1) == [true])
    #expect(try store.add([Self.city("Cairo", "Egypt")], now: 2) == [false])
    #expect(try store.add([Self.city("cairo", "EGY")], now: 3) == [false])
    // In one call too, and a name shared with another country stays its own favourite.
    #expect(
      try store.add([Self.city("Paris", "FR"), Self.city("Paris", "France"), Self.city("Paris", "US")], now: 4) == [
        true, false, true,
      ])
    // A prefix of a country's name is not the country ("Egyp" is not a name or a code of it).
    #expect(try store.add([Self.city("Cairo", "Egyp")], now: 5) == [true])
    #expect(try store.list().map { "\($0.name), \($0.country)" } == ["Cairo, EG", "Paris, FR", "Paris, US", "Cairo, Egyp"])
  }

  static func place(_ name: String, _ region: String?, _ lat: Double, _ lon: Double) -> Found {
    var city = city(name, "United States")
    (city.latitude, city.longitude) = (lat, lon)
    let place = region.map {
      Place(
        position: 0, geonameID: 1, name: name, countryCode: "US", country: "United States", region: $0, stateCode: nil,
        latitude: lat, longitude: lon, population: 1, timeZone: "America/Chicago")
    }
    return Found(city: place == nil ? city : nil, place: place)
  }

  /// Two places of one name and country are two favourites (issue 30: Springfield, Missouri
  /// was refused while Illinois' was kept), told apart by region or, in one region, by
  /// position; the same place is one, whichever way it is named; removing one keeps the other.
  @Test func twoPlacesOfOneNameAndCountryAreTwoFavourites() throws {
    let s = Scratch()
    let store = FavouritesStore(path: s.file("favourites.gdbm"), writers: WriterLock.Policy(directory: s.path, deadline: 5))
    let illinois = Self.place("Springfield", "Illinois", 39.80, -89.64)
    let missouri = Self.place("Springfield", "Missouri", 37.21, -93.29)
    let ohioWest = Self.place("Springfield", "Ohio", 39.92, -83.81)
    let ohioFar = Self.place("Springfield", "Ohio", 41.50, -80.80)  // same region, 260 km away
    #expect(try store.add([illinois, missouri, ohioWest, ohioFar], now: 1) == [true, true, true, true])
    // The same places again, and the catalogue's city 3 km from Illinois' (no region known).
    let catalogue = Self.place("Springfield", nil, 39.78, -89.65)
    #expect(try store.add([missouri, catalogue, ohioFar], now: 2) == [false, false, false])
    #expect(try store.list().compactMap(\.region) == ["Illinois", "Missouri", "Ohio", "Ohio"])
    // Removing a place looked up removes that one only.
    try store.remove([Favourite(missouri, added: 0, sequence: 0)])
    #expect(try store.list().compactMap(\.region) == ["Illinois", "Ohio", "Ohio"])
    #expect(throws: FavouritesError.self) { try store.remove([Favourite(missouri, added: 0, sequence: 0)]) }
    try store.remove([try store.list()[2]])
    #expect(try store.list().map(\.latitude) == [39.80, 39.92])
    // Salvage keys each record as the store does, so a repair keeps both of one name.
    let records = try store.store.read()
    #expect(Set(records.values.compactMap(FavouritesStore.key(salvaging:))) == Set(records.keys))
  }

  /// What a review found: a favourite borrowed the weather of another town of its name (the
  /// catalogue's nearest, however far), the sync plan merged places the favourites keep apart,
  /// and a removal by a place without a region took every favourite near it.
  @Test func eachFavouriteIsItsOwnPlaceEverywhere() throws {
    let s = Scratch()
    let home = Home(directory: s.file("home"), sampleCandidates: [])
    var illinois = Self.city("Springfield", "United States")
    (illinois.latitude, illinois.longitude) = (39.80, -89.64)
    let catalogue = try RefreshPlanTests.catalogue([illinois], in: home)
    defer { catalogue.close() }
    let finder = PlaceFinder(catalogue: catalogue, atlas: nil)
    let missouri = Favourite(Self.place("Springfield", "Missouri", 37.21, -93.29), added: 1, sequence: 1)
    #expect(try finder.found(missouri) == nil, "Missouri's favourite is not Illinois' city")
    let nearIllinois = Favourite(Self.place("Springfield", "Illinois", 39.81, -89.65), added: 1, sequence: 2)
    #expect(try finder.found(nearIllinois)?.city?.latitude == 39.80)

    // Two San Pedros of Coahuila 42 km apart: two favourites, two cities to fetch.
    let east = Self.place("San Pedro", "Coahuila", 25.76, -102.98)
    let west = Self.place("San Pedro", "Coahuila", 25.76, -103.40)
    let store = home.favourites
    #expect(try store.add([east, west], now: 1) == [true, true])
    let plan = try RefreshPlan(.favourites(try store.list()), limit: nil, catalogue: catalogue) { finder }
    #expect(plan.cities.count == 2, "\(plan.cities)")
    // A place between them with no region (a catalogue city) removes the nearer one only.
    var between = Self.city("San Pedro", "United States")
    (between.latitude, between.longitude) = (25.76, -103.30)
    try store.remove([Favourite(Found(city: between, place: nil), added: 0, sequence: 0)])
    #expect(try store.list().map(\.longitude) == [-102.98])
  }
}
