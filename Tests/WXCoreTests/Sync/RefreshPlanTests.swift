import Foundation
import Testing

@testable import WXCore

/// Which cities an Open-Meteo call covers, chosen from a real catalogue file read a record
/// block at a time; and how the weather sync hands the catalogue on with the fetched cities.
@Suite struct RefreshPlanTests {
  /// `n` cities with coordinates, named `City 0`…, in France; `unlocated` of them without.
  static func cities(_ n: Int, unlocated: Set<Int> = []) -> [City] {
    (0..<n).map { i in
      var city = City(
        id: i + 1, name: "City \(i)", country: "France", latitude: unlocated.contains(i) ? .nan : Double(i % 80),
        longitude: unlocated.contains(i) ? .nan : 2, temperatureC: 10, description: "Sunny", humidity: 50, windKmh: 10,
        forecast: [])
      // As a sync stores it: with its provenance (a record read back has one).
      city.provenance = Provenance(source: .freetestapi, observedAt: 1_795_431_600)
      return city
    }
  }

  /// A city as a plan holds it: identity and coordinates, no weather (a refresh replaces it).
  static func lean(_ c: City) -> City {
    City(
      id: c.id, name: c.name, country: c.country, latitude: c.latitude, longitude: c.longitude, temperatureC: nil,
      description: "", humidity: nil, windKmh: nil, forecast: [])
  }

  /// A published catalogue of `cities` in `home` (generation `generation`), opened.
  static func catalogue(_ cities: [City], in home: Home, generation: UInt64 = 1) throws -> Catalogue {
    try home.prepare()
    let builder = try StoreBuilder(finalPath: home.cataloguePath)
    let writer = CatalogueWriter(into: builder.database)
    for city in cities { try writer.add(city) }
    try writer.finish(
      meta: CatalogueMeta(
        generation: generation, source: "test", provider: "freetestapi", syncedAt: 0, count: 0, isSample: false))
    try builder.publish()
    return try Catalogue(path: home.cataloguePath)
  }

  static func home(_ s: Scratch) -> Home { Home(directory: s.file("home"), sampleCandidates: []) }

  static func plan(_ scope: RefreshPlan.Scope, limit: Int? = nil, _ catalogue: Catalogue) throws -> RefreshPlan {
    try RefreshPlan(scope, limit: limit, catalogue: catalogue) { PlaceFinder(catalogue: catalogue, atlas: nil) }
  }

  static func favourite(_ name: String, lat: Double? = nil, lon: Double? = nil) -> Favourite {
    var f = Favourite(name: name, country: "France", id: 0, added: 0, sequence: 0)
    (f.latitude, f.longitude) = (lat, lon)
    return f
  }

  @Test func everyCityUpToTheCapAndTheFirstNWhenAsked() throws {
    let s = Scratch()
    let all = Self.cities(RefreshPlan.cap + 1)
    let c = try Self.catalogue(all, in: Self.home(s))
    defer { c.close() }
    #expect(throws: RefreshPlanError.tooMany(count: RefreshPlan.cap + 1, cap: RefreshPlan.cap)) { try Self.plan(.all, c) }
    let first = try Self.plan(.all, limit: 40, c)
    #expect(first.chosen.map(\.position) == Array(0..<40))
    #expect(first.cities == Array(all.prefix(40)).map(Self.lean))
    #expect(first.skipped == 0 && first.basis == c.meta && first.path == c.path)
    // A limit past the end is every city.
    #expect(try Self.plan(.all, limit: 100_000, c).cities == all.map(Self.lean))
    // More favourites than the cap: said of the favourites (it said "the catalogue has", and
    // to pass the --favourites just passed), and fetched all with a limit.
    let favourites = all.map { Self.favourite($0.name, lat: $0.latitude, lon: $0.longitude) }
    #expect(throws: RefreshPlanError.tooMany(count: RefreshPlan.cap + 1, cap: RefreshPlan.cap, favourites: true)) {
      try Self.plan(.favourites(favourites), c)
    }
    #expect(try Self.plan(.favourites(favourites), limit: RefreshPlan.cap + 1, c).cities.count == RefreshPlan.cap + 1)
  }

  @Test func citiesWithoutCoordinatesAreSkippedAndCounted() throws {
    let s = Scratch()
    let c = try Self.catalogue(Self.cities(30, unlocated: [0, 7, 29]), in: Self.home(s))
    defer { c.close() }
    let plan = try Self.plan(.all, c)
    #expect(plan.skipped == 3 && plan.chosen.count == 27)
    #expect(plan.chosen.allSatisfy { $0.city.hasCoordinates } && !plan.chosen.map(\.position).contains(7))
    // The limit takes the first N, then the located among them.
    #expect(try Self.plan(.all, limit: 8, c).chosen.map(\.position) == [1, 2, 3, 4, 5, 6])
    let none = try Self.catalogue(Self.cities(4, unlocated: [0, 1, 2, 3]), in: Self.home(Scratch()))
    defer { none.close() }
    #expect(throws: RefreshPlanError.noCoordinates(count: 4)) { try Self.plan(.all, none) }
  }

  @Test func favouritesAreTheirCatalogueCitiesInCatalogueOrderThenNewPlaces() throws {
    let s = Scratch()
    let all = Self.cities(2_000)
    let c = try Self.catalogue(all, in: Self.home(s))
    defer { c.close() }
    let list = [
      Self.favourite("City 1500"), Self.favourite("City 3"), Self.favourite("Nowhere"),
      Self.favourite("Elsewhere", lat: 45, lon: 3), Self.favourite("City 3"), Self.favourite("Elsewhere", lat: 45, lon: 3),
    ]
    let plan = try Self.plan(.favourites(list), c)
    #expect(plan.chosen.map(\.position) == [3, 1500, nil])
    #expect(plan.cities.map(\.name) == ["City 3", "City 1500", "Elsewhere"])
    #expect(plan.cities[0] == Self.lean(all[3]) && plan.cities[2].latitude == 45 && plan.cities[2].temperatureC == nil)
    #expect(try Self.plan(.favourites(list), limit: 1, c).cities == [Self.lean(all[3])])
    #expect(throws: RefreshPlanError.noFavourites) { try Self.plan(.favourites([]), c) }
    #expect(throws: RefreshPlanError.noFavouriteInCatalogue) { try Self.plan(.favourites([Self.favourite("Nowhere")]), c) }
  }

  @Test func onePlaceIsItsCatalogueCityOrANewOne() throws {
    let s = Scratch()
    let all = Self.cities(100)
    let c = try Self.catalogue(all, in: Self.home(s))
    defer { c.close() }
    #expect(try Self.plan(.place(Found(city: all[42], place: nil)), c).chosen == [.init(position: 42, city: all[42])])
    #expect(try c.position(of: all[99]) == 99)
    var moved = all[42]
    moved.temperatureC = 99
    #expect(try c.position(of: moved) == nil)
  }

  /// The weather sync hands on every city of the catalogue it planned from, with the fetched
  /// ones in their places and new places after them, reading it a block at a time.
  @Test func theCatalogueIsHandedOnWithTheFetchedCitiesInPlace() throws {
    let s = Scratch()
    let home = Self.home(s)
    let all = Self.cities(1_000)
    let c = try Self.catalogue(all, in: home)
    let plan = try Self.plan(
      .favourites([Self.favourite("City 999"), Self.favourite("New", lat: 1, lon: 1), Self.favourite("City 16")]), c)
    c.close()
    let fetched = plan.cities.map { city -> City in
      var city = city
      city.temperatureC = -5
      return city
    }
    var out: [City] = []
    let n = try Refresher.merge(fetched, plan: plan) { out.append($0) }
    var expected = all
    (expected[16], expected[999]) = (fetched[0], fetched[1])
    #expect(n == 1_001 && out == expected + [fetched[2]])
    // Another catalogue in its place meanwhile: nothing is handed on over it.
    try Self.catalogue(all, in: home, generation: 2).close()
    #expect(throws: SyncError.catalogueChanged) { try Refresher.merge(fetched, plan: plan) { _ in } }
  }
}
