import Testing

@testable import WXCore

/// One place listed twice at the same spot is one entry of the atlas's index (issue 30:
/// `wx search paris` listed "Paris 13 Gobelins" and "Paris 13e Arrondissement"), and places
/// that only share words are not.
@Suite struct SameSpotTests {
  static func place(_ position: Int, _ name: String, _ lat: Double, _ lon: Double, region: String = "Île-de-France") -> Place {
    Place(
      position: position, geonameID: position + 1, name: name, countryCode: "FR", country: "France", region: region,
      stateCode: nil, latitude: lat, longitude: lon, population: 1000 - position, timeZone: "Europe/Paris")
  }

  static func twins(_ places: [Place]) -> [Int?] {
    var spots = AtlasWriter.SameSpot()
    return places.map { spots.twin(of: $0, key: Fold.key($0.name)) }
  }

  @Test func anArrondissementByItsNumberIsThePlaceOfThatNumber() {
    #expect(
      Self.twins([
        Self.place(0, "Paris 13 Gobelins", 48.8322, 2.3561), Self.place(1, "Paris 13e Arrondissement", 48.8262, 2.35986),
        // 3.5 km apart (the 12th's centroid is in the Bois de Vincennes).
        Self.place(2, "Paris 12e Arrondissement", 48.83523, 2.43505), Self.place(3, "Paris 12 Reuilly", 48.8412, 2.3876),
        Self.place(4, "Lyon 03", 45.76, 4.85), Self.place(5, "Lyon 3e Arrondissement", 45.755, 4.855),
        // Another number, and the same number without a division word: not the same place.
        Self.place(6, "Paris 14 Observatoire", 48.829, 2.32), Self.place(7, "Paris 13 Bis", 48.83, 2.356),
      ]) == [nil, 0, nil, 2, nil, 4, nil, nil])
  }

  @Test func aNameTwiceAtOneSpotIsOnePlaceAndOnlyThere() {
    #expect(
      Self.twins([
        Self.place(0, "Minatitlán", 17.98, -94.55), Self.place(1, "Minatitlan", 17.99, -94.56),  // 1.5 km
        Self.place(2, "Saint-Denis", 48.93, 2.35), Self.place(3, "Saint-Denis", 48.98, 2.35),  // 5.6 km: two
        Self.place(4, "Vaux", 47.0, 1.0), Self.place(5, "Vaux", 47.0, 1.0, region: "Centre"),  // two regions
        // Quarters of one district share its words and number: each its own place.
        Self.place(6, "Zürich (Kreis 3) / Sihlfeld", 47.374, 8.51),
        Self.place(7, "Zürich (Kreis 3) / Alt-Wiedikon", 47.368, 8.518),
      ]) == [nil, 0, nil, nil, nil, nil, nil, nil])
  }
}
