import Foundation
import Testing
import WXCore

/// Qualifiers, alternate names, the UK's nations, suggestions that must work, GeoNames ids and
/// the JSON shape of a place without weather.
extension AtlasCommandTests {
  /// An alternate name leads to the catalogue city of the place's own name, with its
  /// weather, in show, forecast and search (`wien` is the sample's Vienna).
  @Test func anAlternateNameFindsTheCatalogueCityWithItsWeather() throws {
    let h = try home()
    let vienna = try h.wx("show", "Vienna", "--json", env: Self.on).json()
    let temperature = try #require(vienna["temperature"] as? Double, "the sample's Vienna has weather")
    for command in [["show", "wien"], ["forecast", "wien"]] {
      let r = try h.run(command + ["--json"], env: Self.on)
      #expect(r.status == 0, "\(r)")
      let json = try r.json()
      #expect(json["city"] as? String == "Vienna" && json["id"] as? Int == vienna["id"] as? Int, "\(command) \(r)")
    }
    #expect(try h.wx("show", "wien", "--json", env: Self.on).json()["temperature"] as? Double == temperature)
    let found = try items(try h.wx("search", "wien", "--json", env: Self.on))
    #expect(found.first?["city"] as? String == "Vienna")
    #expect(found.first?["temperature"] as? Double == temperature, "\(found.first ?? [:])")
  }

  /// Of places sharing a name, the largest wins when it dwarfs the others, even when a
  /// smaller one is spelled exactly as typed: `moskva` is Moscow, `cologne` Köln, `zurich` the
  /// sample's Zürich rather than its Zurich, Canada (a catalogue city too), as search
  /// ranks them; the others are counted on standard error.
  @Test func aDwarfingPlaceWinsOverAVillageSpelledAsTyped() throws {
    let h = try home()
    for (typed, city, others) in [
      ("moskva", "Moscow", "`wx show 'Moskva, Tajikistan'`"),
      ("cologne", "Köln", "`wx show 'Cologne, Italy'` and `wx show 'Cologne, United States'`"),
      ("madras", "Chennai", "`wx show 'Madras, United States'`"), ("zurich", "Zürich", "`wx show 'Zurich, Canada'`"),
    ] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      #expect(r.status == 0, "\(typed): \(r)")
      #expect(try r.json()["city"] as? String == city, "\(typed): \(r)")
      // The few others of the name typed, each by the command that shows it (`wx search
      // Köln` would not list the other Colognes; `wx search rio` lists the Rios on page 10).
      #expect(r.stderr.contains("the name: \(others)\n"), "\(typed): \(r)")
    }
  }

  /// After a comma, England, Scotland, Wales and Northern Ireland are the United Kingdom's
  /// regions, not the kingdom (issue 30: "Newcastle, England" gave Northern Ireland's).
  @Test func theUKsNationsAreRegions() throws {
    let h = try home()
    func region(_ q: String) throws -> String? {
      try h.wx("show", q, "--json", env: Self.on).json()["region"] as? String
    }
    #expect(try region("Bangor, Wales") == "Wales")
    #expect(try region("Bangor, Northern Ireland") == "Northern Ireland")
    #expect(try region("Newport, Wales") == "Wales")
    #expect(try region("Cardiff, Wales") == "Wales" && region("London, England") == "England")
    #expect(try region("Perth, Scotland") == "Scotland")
    // Newcastle upon Tyne is named Newcastle too (the name before its joiner): in England it
    // is the answer, never Northern Ireland's Newcastle taken for it.
    let newcastle = try h.wx("show", "Newcastle, England", "--json", env: Self.on)
    #expect(newcastle.status == 0 && (try? newcastle.json()["city"] as? String) == "Newcastle upon Tyne", "\(newcastle)")
    // One of them by more of its name; a part of a word begins no name.
    #expect(try region("Newcastle upon, England") == "England")
    #expect(try h.wx("show", "Newcast, England", env: Self.on).status == 66)
    // The kingdom by its own names: Northern Ireland's Newcastle (7,444 people) is no answer
    // beside Newcastle upon Tyne (300,125), and is said to share the name; its region names it.
    let uk = try h.wx("show", "Newcastle, UK", env: Self.on)
    #expect(uk.status == 0 && uk.stderr.contains("\"Newcastle, UK\" is Newcastle upon Tyne, England"), "\(uk)")
    #expect(uk.stderr.contains("1 other place shares the name"), "\(uk)")
    #expect(try region("Newcastle, Northern Ireland") == "Northern Ireland")
  }

  /// `wx search` reads "Name, Region", "Name, ST" and "Name, Country" as `wx show` does.
  @Test func searchTakesAQualifierAsShowDoes() throws {
    let h = try home()
    func rows(_ q: String) throws -> [[String: Any]] {
      let r = try h.wx("search", q, "--json", env: Self.on)
      return try #require(r.json()["items"] as? [[String: Any]], "\(q): \(r)")
    }
    let il = try rows("Springfield, IL")
    #expect(il.count == 1 && il[0]["region"] as? String == "Illinois", "\(il)")
    #expect(try rows("Bangor, Wales").map { $0["region"] as? String } == ["Wales"])
    let fr = try rows("par, FR")
    #expect(!fr.isEmpty && fr.allSatisfy { $0["country"] as? String == "France" } && fr[0]["city"] as? String == "Paris")
    let none = try h.wx("search", "Springfield, Zz", env: Self.on)
    #expect(none.status == 1, "\(none)")
  }

  /// Every `wx search` a message suggests lists what it says (issue 30: `Mt Vernon` suggested
  /// `wx search 'Mt Vernon'`, which found nothing); places of different names get none.
  @Test func everySuggestedSearchListsThePlaces() throws {
    let h = try home()
    for typed in ["Mt Vernon", "Salem", "paris", "Halle, Flanders", "Springfield"] {
      let r = try h.wx("show", typed, env: Self.on)
      let hint = try #require(r.stderr.components(separatedBy: "`wx search ").dropFirst().first, "\(typed): \(r)")
      let word = String(hint.prefix { $0 != "`" })
      let unquoted = word.hasPrefix("'") ? String(word.dropFirst().dropLast()) : word
      let search = try h.wx("search", unquoted, env: Self.on)
      #expect(search.status == 0, "\(typed): `wx search \(word)`: \(search)")
      // The place the message is about is among what the search lists.
      let named = typed.split(separator: ",")[0].replacingOccurrences(of: "Mt ", with: "Mount ")
      #expect(search.stdout.lowercased().contains(named.lowercased()), "\(typed): \(search)")
    }
    let id = try h.wx("show", "45", env: Self.on)
    #expect(!id.stderr.contains("wx search"), "\(id)")
    // "Name, Country" is offered only where it tells the places apart.
    let us = try h.wx("show", "Springfield, United States", env: Self.on)
    #expect(
      us.status == 64 && us.stderr.contains("\"Name, Region\" (Springfield, MO)") && !us.stderr.contains("Name, Country"), "\(us)"
    )
    #expect(try h.wx("show", "Springfield", env: Self.on).stderr.contains("or \"Name, Country\""))
  }

  /// A GeoNames id (which show prints) names its place: the way to pick one of two places
  /// that share a name and a region, which the ambiguity message offers with their ids; its
  /// `wx search` hint is a search that lists them (no "Name, Region" in it).
  @Test func aGeoNamesIdPicksAPlaceThatNameAndRegionCannot() throws {
    let h = try home()
    let halle = try h.wx("show", "Halle, Flanders", env: Self.on)
    #expect(halle.status == 64, "\(halle)")
    let ids = halle.stderr.components(separatedBy: "GeoNames ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
    #expect(ids.count == 2, "\(halle)")
    #expect(halle.stderr.contains("its GeoNames id") && halle.stderr.contains("`wx search Halle` lists them"), "\(halle)")
    for id in ids {
      let r = try h.wx("show", String(id), "--json", env: Self.on)
      #expect(r.status == 0, "\(r)")
      let json = try r.json()
      #expect(json["city"] as? String == "Halle" && json["region"] as? String == "Flanders", "\(r)")
      #expect(json["geonameid"] as? Int == id, "\(r)")
      // Its weather command names it by the id too: "Halle, Flanders" would be ambiguous.
      let text = try h.wx("show", String(id), env: Self.on.merging(["COLUMNS": "200"]) { $1 })
      #expect(text.stdout.contains("--city \(id)"), "\(text)")
    }
    #expect(try h.wx("show", "999999999", env: Self.on).status == 66)
    // The last place shown is that very place: a bare `wx show` after the second Halle is the
    // second Halle, not the first of its name and country.
    for id in ids.reversed() {
      #expect(try h.wx("show", String(id), env: Self.on).status == 0)
      let again = try h.wx("show", "--json", env: Self.on)
      #expect(try again.json()["geonameid"] as? Int == id, "\(again)")
    }
    // Two Halles of one region are two favourites (they were one: the second was refused),
    // and each added again is already one.
    let fav = try h.wx("fav", "add", String(ids[0]), String(ids[1]), env: Self.on)
    #expect(fav.stdout == "added Halle, Flanders, Belgium\nadded Halle, Flanders, Belgium\n", "\(fav)")
    let again = try h.wx("fav", "add", String(ids[1]), String(ids[0]), env: Self.on)
    #expect(again.stdout == String(repeating: "Halle, Flanders, Belgium is already a favourite\n", count: 2), "\(again)")
    // Search takes "Name, Country" now, as `wx show` reads it: the hint keeps the qualifier.
    let shared = try h.wx("show", "San José, Costa Rica", env: Self.on)
    #expect(shared.stderr.contains("`wx search 'San José, Costa Rica'` lists them"), "\(shared)")
  }

  /// A place without weather answers with its command's own JSON keys (show's, forecast's,
  /// --hourly's), the weather ones null or empty and its id null, never another command's
  /// shape; search items carry the same keys as catalogue items.
  @Test func aPlaceWithoutWeatherKeepsEachCommandsJSONShape() throws {
    let h = try home()
    let city = try h.wx("show", "Berlin", "--json", env: Self.on).json()
    let place = try h.wx("show", "Ljubljana", "--json", env: Self.on).json()
    #expect(Set(city.keys).isSubset(of: Set(place.keys)), "\(Set(city.keys).subtracting(place.keys))")
    #expect(place["id"] is NSNull && place["feels_like"] is NSNull && place["description"] is NSNull)
    #expect((place["hourly"] as? [Any])?.isEmpty == true && place["geonameid"] as? Int == 3_196_359)
    let days = try h.wx("forecast", "Ljubljana", "--json", env: Self.on).json()
    #expect((days["days"] as? [Any])?.isEmpty == true && days["today"] is String && days["past_days"] is [Any], "\(days)")
    #expect(days["forecast"] == nil && days["id"] is NSNull && days["region"] as? String == "Ljubljana")
    let hours = try h.wx("forecast", "Ljubljana", "--hourly", "--json", env: Self.on).json()
    #expect((hours["hourly"] as? [Any])?.isEmpty == true && hours["days"] == nil && hours["wind_unit"] as? String == "kmh")
    let placeItems = try items(try h.wx("search", "ljub", "--json", env: Self.on))
    let catalogueItem = try items(try h.wx("search", "berlin", "--json", env: Self.on)).first ?? [:]
    #expect(Set(catalogueItem.keys).isSubset(of: Set(placeItems.first?.keys ?? [:].keys)))
  }

  /// Two favourite Portlands synced read alike in `wx show` ("Portland, United States"): the
  /// heading names the region of a place whose name another place of its country has (the
  /// helpers' pass); Paris, France, the one of its name there, stays "Paris, France".
  @Test func theHeadingNamesTheRegionOfANameItsCountryShares() throws {
    let h = try home()
    try h.wx("fav", "add", "Portland, OR", env: Self.on)
    try h.wx("fav", "add", "Portland, ME", env: Self.on)
    let api = try OpenMeteoAPI()
    #expect(try h.run(["sync", "--provider", "open-meteo", "--url", api.forecast, "--favourites"], env: Self.on).status == 0)
    for (typed, heading) in [
      ("Portland, OR", "Portland, Oregon, United States"), ("Portland, ME", "Portland, Maine, United States"),
    ] {
      let r = try h.wx("show", typed, env: Self.on)
      #expect(r.status == 0 && r.stdout.contains(heading + "  id "), "\(typed): \(r)")
    }
    #expect(try h.wx("show", "Paris, France", env: Self.on).stdout.contains("Paris, France  id "))
  }

  /// Places that read alike to the region (`mulheim`: Mülheim an der Ruhr and Cologne's
  /// Mülheim, both "Mülheim, North Rhine-Westphalia, Germany") are picked by their ids alone:
  /// "Name, Region" was suggested, and named both again. The suggestion works.
  @Test func placesThatReadAlikeArePickedByTheirIds() throws {
    let h = try home()
    let r = try h.wx("show", "mulheim", env: Self.on)
    #expect(r.status == 64 && !r.stderr.contains("Name, Region"), "\(r)")
    let id = try #require(r.stderr.firstMatch(of: /pick one by its GeoNames id \(`wx show (\d+)`\)/)?.1, "\(r)")
    let picked = try h.wx("show", String(id), "--json", env: Self.on)
    #expect(picked.status == 0, "\(picked)")
    #expect(try picked.json()["city"] as? String == "Mülheim", "\(picked)")
  }
}

extension AtlasCommandTests {
  /// Each typed name shows that city of that country, exit 0.
  func expectShows(_ h: TempHome, _ cases: [(typed: String, city: String, country: String)]) throws {
    for (typed, city, country) in cases {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      let json = try? r.json()
      #expect(
        r.status == 0 && json?["city"] as? String == city && json?["country"] as? String == country, "\(typed): \(r)")
    }
  }

  /// A territory named by its ISO code, or as GeoNames and people name it: `Charlotte
  /// Amalie, VI` found nothing (the atlas calls the country "U.S. Virgin Islands", which is
  /// no name of ISO's line), nor did `Gaza, PS`, `Stanley, FK`, `Pristina, XK` (a code
  /// GeoNames uses outside ISO) or `Hong Kong, China`. A qualifier is now compared with the
  /// place's country code too; the country table has GeoNames' names and Kosovo.
  @Test func territoriesByTheirCodesAndCommonNames() throws {
    let h = try home()
    try expectShows(
      h,
      [
        ("Charlotte Amalie, VI", "Charlotte Amalie", "U.S. Virgin Islands"),
        ("Charlotte Amalie, USVI", "Charlotte Amalie", "U.S. Virgin Islands"),
        ("Gaza, PS", "Gaza", "Palestinian Territory"), ("Gaza, Palestine", "Gaza", "Palestinian Territory"),
        ("Stanley, FK", "Stanley", "Falkland Islands"), ("Philipsburg, SX", "Philipsburg", "Sint Maarten"),
        ("Pristina, XK", "Pristina", "Kosovo"), ("Hong Kong, China", "Hong Kong", "Hong Kong"),
        ("Macau, China", "Macau", "Macao"), ("San Juan, PR", "San Juan", "Puerto Rico"),
        // As people write them (a helper's pass): St for Saint, "The", short names.
        ("Castries, St Lucia", "Castries", "Saint Lucia"), ("Gustavia, St Barts", "Gustavia", "Saint Barthelemy"),
        ("Road Town, BVI", "Road Town", "British Virgin Islands"), ("Stanley, Falklands", "Stanley", "Falkland Islands"),
        ("Nassau, The Bahamas", "Nassau", "Bahamas"), ("Gaza, State of Palestine", "Gaza", "Palestinian Territory"),
      ])
    let search = try items(try h.wx("search", "Charlotte Amalie, VI", "--json", env: Self.on))
    #expect(search.first?["country"] as? String == "U.S. Virgin Islands", "\(search)")
    // Search reads a country's start as `wx show` does, when none fits whole (it exited 1).
    let germ = try items(try h.wx("search", "Berlin, Germ", "--json", env: Self.on))
    #expect(!germ.isEmpty && germ.allSatisfy { $0["country"] as? String == "Germany" }, "\(germ)")
    // The code names the country, not the other places of the name: England stays a region.
    let paris = try h.wx("show", "Paris, China", env: Self.on)
    #expect(paris.status == 66, "\(paris)")
    let newcastle = try h.wx("show", "Newcastle, England", "--json", env: Self.on)
    #expect((try? newcastle.json())?["region"] as? String == "England", "\(newcastle)")
  }

  /// A territory by the state it belongs to, as people write it: `Nuuk, Denmark` and
  /// `Papeete, France` found nothing (exit 66). A place of the state itself still comes
  /// first: `Saint-Denis, France` is the one near Paris, not Réunion's.
  @Test func aTerritoryByTheStateItBelongsTo() throws {
    let h = try home()
    try expectShows(
      h,
      [
        ("Nuuk, Denmark", "Nuuk", "Greenland"), ("Papeete, France", "Papeete", "French Polynesia"),
        ("Torshavn, DK", "Tórshavn", "Faroe Islands"), ("Hamilton, UK", "Hamilton", "United Kingdom"),
        ("Saint-Denis, France", "Saint-Denis", "France"), ("Oranjestad, Netherlands", "Oranjestad", "Aruba"),
        ("Hong Kong, CN", "Hong Kong", "Hong Kong"), ("Macau, CHN", "Macau", "Macao"),
        // The state's name begun, as a country's may be (`Berlin, Germ`); below the country
        // begun itself: `Saint-Denis, Fra` is still the one near Paris, not Réunion's.
        ("Nuuk, Den", "Nuuk", "Greenland"), ("Papeete, Fra", "Papeete", "French Polynesia"),
        ("Kowloon, Chi", "Kowloon", "Hong Kong"), ("Saint-Denis, Fra", "Saint-Denis", "France"),
      ])
    for typed in ["Nuuk, Denmark", "nuuk, den"] {
      let nuuk = try items(try h.wx("search", typed, "--json", env: Self.on))
      #expect(nuuk.map { $0["country"] as? String } == ["Greenland"], "\(typed): \(nuuk)")
    }
    // Not a state's own place taken for its territory's: Copenhagen is in no territory.
    #expect(try h.wx("show", "Copenhagen, Greenland", env: Self.on).status == 66)
  }
}

extension AtlasCommandTests {
  /// A name typed with its qualifier is searched with it: `San Jose, CR` shares its name
  /// with two places of Costa Rica, and the note offered `wx search 'San José'`, 266 places.
  @Test func aQualifiedNameSuggestsAQualifiedSearch() throws {
    let h = try home()
    let r = try h.wx("show", "San Jose, CR", env: Self.on)
    #expect(r.status == 0 && r.stderr.contains("`wx search 'San José, CR'` lists them"), "\(r)")
    let listed = try items(try h.wx("search", "San José, CR", "--json", env: Self.on))
    #expect(listed.count == 3 && listed.allSatisfy { $0["country"] as? String == "Costa Rica" }, "\(listed)")
  }
}

extension AtlasCommandTests {
  /// One town GeoNames lists under each spelling at one spot (St Johnsbury and Saint
  /// Johnsbury, Vermont, 0.7 km apart) is one place to `wx show` as to `wx search`: the note
  /// said another place shared the name and offered `wx show 5240656`, the same town, while
  /// search listed one row.
  @Test func aTownUnderBothSpellingsAtOneSpotIsNoNamesake() throws {
    let h = try home()
    for typed in ["st johnsbury", "Saint Johnsbury", "St. Johnsbury, VT"] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      #expect(r.status == 0 && !r.stderr.contains("share"), "\(typed): \(r)")
      #expect(try r.json()["region"] as? String == "Vermont", "\(typed): \(r)")
      let search = try h.wx("search", typed, "--json", env: Self.on).json()
      #expect(search["total"] as? Int == 1, "\(typed): \(search)")
    }
    // Mt Pleasant's count leaves out its twin Mount Pleasant, British Columbia (it said 21):
    // the places search lists under either name, but for the one shown.
    // One favourite, by either spelling (two GeoNames ids of one town).
    let fav = try h.wx("fav", "add", "St Johnsbury", "Saint Johnsbury", env: Self.on)
    #expect(fav.status == 0 && fav.stdout.hasSuffix("is already a favourite (as St Johnsbury)\n"), "\(fav)")
    #expect(try items(try h.wx("fav", "--json", env: Self.on)).count == 1)
    let mt = try h.wx("show", "mt pleasant", env: Self.on)
    let search = try h.wx("search", "mt pleasant", "--per-page", "100", "--json", env: Self.on).json()
    let rows = try #require(search["items"] as? [[String: Any]])
    let named = rows.filter { ["Mt Pleasant", "Mount Pleasant"].contains($0["city"] as? String) }.count
    #expect(named > 10 && mt.stderr.contains(" \(named - 1) other places share the name"), "\(mt) \(named)")
    // A catalogue's city of one spelling is the place of the other, with its weather, as
    // search lists it: `wx show 'saint johnsbury'` showed the place without weather.
    try sync(
      h,
      [weatherRecord(id: 1, city: "St Johnsbury", country: "United States", latitude: 44.419, longitude: -72.015)])
    for typed in ["saint johnsbury", "St. Johnsbury"] {
      let shown = try h.wx("show", typed, "--json", env: Self.on)
      #expect(shown.status == 0 && (try? shown.json())?["temperature"] as? Double == 20, "\(typed): \(shown)")
    }
  }
}
