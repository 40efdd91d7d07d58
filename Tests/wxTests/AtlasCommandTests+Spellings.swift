import Foundation
import Testing
import WXTestSupport

/// St is Saint, and Sankt where German is spoken: GeoNames names St. Gallen (75,833 people)
/// and St. Pölten, a state capital, Sankt Gallen and Sankt Pölten, and `wx show "St. Gallen"`
/// exited 66 ("no city or place"), offering St. Georg, Hamburg.
extension AtlasCommandTests {
  @Test func stIsSanktWhereGermanIsSpoken() throws {
    let h = try home()
    for (typed, city, region) in [
      ("St. Gallen", "Sankt Gallen", "Saint Gallen"), ("st gallen", "Sankt Gallen", "Saint Gallen"),
      ("St. Pölten", "Sankt Pölten", "Lower Austria"), ("st polten", "Sankt Pölten", "Lower Austria"),
      ("St. Gallen, Austria", "Sankt Gallen", "Styria"), ("Sankt Petersburg", "Saint Petersburg", "St.-Petersburg"),
    ] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      let json = try r.json()
      #expect(r.status == 0 && json["city"] as? String == city && json["region"] as? String == region, "\(typed): \(r)")
    }
    // Search lists it for each spelling, first.
    for typed in ["st gallen", "St. Gallen", "sankt gallen"] {
      let found = try items(try h.wx("search", typed, "--json", env: Self.on))
      #expect(
        found.first?["city"] as? String == "Sankt Gallen" && found.first?["country"] as? String == "Switzerland",
        "\(typed): \(found)")
    }
  }

  /// A catalogue that spells it St. Gallen: the place is that city, with its weather, under
  /// each spelling; one favourite; no note counting the city as another place of the name.
  @Test func aCatalogueCitySpelledStIsTheSanktPlace() throws {
    let h = try home()
    try sync(
      h,
      [
        weatherRecord(id: 1, city: "St. Gallen", country: "Switzerland", temperature: 4, latitude: 47.42, longitude: 9.37),
        weatherRecord(id: 2, city: "Zurich", country: "Switzerland", latitude: 47.37, longitude: 8.54),
      ])
    for typed in ["St. Gallen", "Sankt Gallen", "saint gallen"] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      let json = try r.json()
      #expect(r.status == 0 && json["id"] as? Int == 1 && json["temperature"] as? Double == 4, "\(typed): \(r)")
      // Austria's Sankt Gallen is the one other place of the name.
      #expect(!r.stderr.contains("'St. Gallen, Switzerland'"), "\(typed): \(r)")
    }
    // Listed once, with its weather, for each spelling and a start of it.
    for typed in ["sankt gallen", "sankt gall", "st gall", "saint gallen"] {
      let listed = try items(try h.wx("search", typed, "--json", env: Self.on))
      #expect(listed.first?["id"] as? Int == 1 && listed.first?["temperature"] as? Double == 4, "\(typed): \(listed)")
      #expect(listed.filter { $0["id"] as? Int == 1 }.count == 1, "\(typed): \(listed)")
    }
    // Named twice in one command, it is added once; named again, it is a favourite already.
    let added = try h.wx("fav", "add", "Sankt Gallen", "St. Gallen", env: Self.on)
    #expect(added.status == 0 && added.stdout == "added St. Gallen, Saint Gallen, Switzerland\n", "\(added)")
    let again = try h.wx("fav", "add", "saint gallen", env: Self.on)
    #expect(again.status == 0 && again.stdout.contains("is already a favourite"), "\(again)")
    #expect(try items(try h.wx("fav", "--json", env: Self.on)).count == 1)
  }
}

extension AtlasCommandTests {
  /// `fav rm` reads a name as `fav add` did: with the Swiss town a favourite as the
  /// catalogue's St. Gallen and the Austrian village as Sankt Gallen, `fav rm "Sankt Gallen"`
  /// removed the village (792 people) though `fav add` of the same words had added the town.
  /// It now lists both, and each is removed by its country.
  @Test func favRemoveReadsANameAsFavAddDid() throws {
    let h = try home()
    try sync(h, [weatherRecord(id: 1, city: "St. Gallen", country: "Switzerland", latitude: 47.42, longitude: 9.37)])
    #expect(try h.wx("fav", "add", "Sankt Gallen", "Sankt Gallen, Austria", env: Self.on).status == 0)
    let both = try h.wx("fav", "rm", "Sankt Gallen", env: Self.on)
    #expect(both.status == 64 && both.stderr.contains("Switzerland") && both.stderr.contains("Austria"), "\(both)")
    #expect(try items(try h.wx("fav", "--json", env: Self.on)).count == 2)
    let village = try h.wx("fav", "rm", "Sankt Gallen, Austria", env: Self.on)
    #expect(village.status == 0 && village.stdout == "removed Sankt Gallen, Styria, Austria\n", "\(village)")
    let town = try h.wx("fav", "rm", "Sankt Gallen", env: Self.on)
    #expect(town.status == 0 && town.stdout.hasPrefix("removed St. Gallen"), "\(town)")
    #expect(try items(try h.wx("fav", "--json", env: Self.on)).isEmpty)
  }
}

extension AtlasCommandTests {
  /// Unquoted words whose first is an abbreviation no name starts with: `wx fav add ft
  /// lauderdale` looked up `ft` alone (exit 66, "closest: Fót"), though `wx show ft
  /// lauderdale` found Fort Lauderdale; so did `fav rm` and `show` of several places.
  @Test func unquotedAbbreviatedWordsGoTogether() throws {
    let h = try home()
    let added = try h.wx("fav", "add", "ft", "lauderdale", "ft.", "collins", "oslo", env: Self.on)
    #expect(added.status == 0, "\(added)")
    #expect(
      try items(try h.wx("fav", "--json", env: Self.on)).map { $0["city"] as? String } == [
        "Fort Lauderdale", "Fort Collins", "Oslo",
      ])
    let shown = try h.wx("show", "oslo", "ft", "worth", "--format", "%l", env: Self.on)
    #expect(shown.status == 0 && shown.stdout == "Oslo, Norway\nFort Worth, United States\n", "\(shown)")
    let removed = try h.wx("fav", "rm", "ft", "lauderdale", env: Self.on)
    #expect(removed.status == 0 && removed.stdout.hasPrefix("removed Fort Lauderdale"), "\(removed)")
  }
}

extension AtlasCommandTests {
  /// A catalogue's St Paul is GeoNames' Saint Paul, Minnesota, and the spelling tie-break
  /// reads both names: `wx show "Saint Paul"` listed fifteen places (exit 64) once the
  /// catalogue held its St Paul, though it is Minnesota's without the catalogue.
  @Test func aCatalogueSpellingDoesNotHideThePlacesOwn() throws {
    let h = try home()
    try sync(
      h, [weatherRecord(id: 1, city: "St Paul", country: "United States", temperature: 1, latitude: 44.95, longitude: -93.09)])
    for typed in ["Saint Paul", "saint paul", "St Paul"] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      let json = try r.json()
      #expect(r.status == 0 && json["id"] as? Int == 1 && json["temperature"] as? Double == 1, "\(typed): \(r)")
    }
  }
}
