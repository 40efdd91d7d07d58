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
}
