import Foundation
import Testing
import WXCore

/// How places are named with the atlas on: apostrophes, province codes, abbreviations, a
/// catalogue city under another name, exact names over prefixes.
extension AtlasCommandTests {
  /// The atlas is searched as the catalogue is: an apostrophe or hyphen typed as a space or
  /// as nothing still finds the place (`wx show` already resolved these; `wx search` exited 1).
  @Test func searchFindsPlacesWithAnApostropheOrHyphenTypedOtherwise() throws {
    let h = try home()
    for (typed, first) in [
      ("o fallon", "O'Fallon"), ("o fal", "O'Fallon"), ("l aquila", "L'Aquila"), ("l aq", "L'Aquila"),
      ("val d isere", "Val-d'Isère"), ("valdisere", "Val-d'Isère"), ("st john s", "St. John's"),
      ("saintetienne", "Saint-Étienne"),
    ] {
      let r = try h.wx("search", typed, "--json", env: Self.on)
      #expect(r.status == 0, "\(typed): \(r)")
      let names = try items(r).compactMap { $0["city"] as? String }
      #expect(names.first == first, "\(typed): \(names)")
    }
  }

  /// Canada's and Australia's region codes name a place as a US state's code does (their
  /// first-level codes in GeoNames are numbers); a missing comma is offered, not guessed.
  @Test func provinceCodesNameAPlaceAndAMissingCommaIsSuggested() throws {
    let h = try home()
    for (typed, region) in [
      ("Victoria, BC", "British Columbia"), ("Sydney, NS", "Nova Scotia"), ("Perth, WA", "Western Australia"),
      ("sydney, nsw", "New South Wales"), ("Quebec, QC", "Quebec"), ("Portland, OR", "Oregon"),
    ] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      let got = try r.json()["region"] as? String
      #expect(r.status == 0 && got == region, "\(typed): \(r)")
    }
    // "Name, Region, Country", as wx writes a place, names it (it exited 66, its closest name
    // being exactly what was typed).
    for (typed, region) in [
      ("Halle (Saale), Saxony-Anhalt, Germany", "Saxony-Anhalt"), ("Springfield, Illinois, US", "Illinois"),
    ] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      let got = try r.json()["region"] as? String
      #expect(r.status == 0 && got == region, "\(typed): \(r)")
    }
    #expect(try h.wx("show", "Portland, Oregon, Canada", env: Self.on).status == 66)
    // Two letters are a code, never the start of a region's name: `Victoria, SA` was
    // Victoria in Saint Mark Parish, Grenada.
    #expect(try h.wx("show", "Victoria, SA", env: Self.on).status == 66)
    #expect(try h.wx("show", "Adelaide, SA", "--json", env: Self.on).json()["region"] as? String == "South Australia")
    let r = try h.wx("show", "Springfield Illinois", env: Self.on)
    #expect(r.status == 66)
    #expect(r.stderr.contains("closest: Springfield, Illinois, United States (114,394);"), "\(r)")
    // A typo with a qualifier: the closest names there, not the closest anywhere (the
    // helpers' pass: `nyc, us` offered Nyala, Sudan; `sprngfield, IL` Springs, South Africa).
    for (typed, closest) in [
      ("sprngfield, IL", "closest: Springfield, Illinois, United States (114,394)\n"),
      ("sprngfield, OH", "closest: Springfield, Ohio, United States"),
      ("pariss, france", "closest: Paris, Île-de-France, France (2,138,551)\n"),
      ("Lundon, Ontario", "closest: London, Ontario, Canada"),
    ] {
      let t = try h.wx("show", typed, env: Self.on)
      #expect(t.status == 66 && t.stderr.contains(closest), "\(typed): \(t)")
    }
    let nowhere = try h.wx("show", "zzqqx, fr", env: Self.on)
    #expect(nowhere.status == 66 && nowhere.stderr == "wx: no city or place named \"zzqqx, fr\"\n", "\(nowhere)")
  }

  /// `St` and `Saint` (`Mt` and `Mount`, `Ft` and `Fort`) name the same places: `St Paul` was
  /// St. Paul, Alberta (5,728 people) with exit 0, though Saint Paul, Minnesota has 303,176.
  @Test func abbreviatedAndFullWordsNameTheSamePlaces() throws {
    let h = try home()
    let stPaul = try h.wx("show", "St Paul", env: Self.on)
    #expect(stPaul.status == 64 && stPaul.stderr.contains("Saint Paul, Minnesota, United States (303,176)"), "\(stPaul)")
    for (typed, city, region) in [
      ("St. Paul, MN", "Saint Paul", "Minnesota"), ("Ft Worth", "Fort Worth", "Texas"),
      ("Mt Vernon, Washington", "Mount Vernon", "Washington"), ("Saint Catharines", "St. Catharines", "Ontario"),
    ] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      let json = try r.json()
      #expect(r.status == 0 && json["city"] as? String == city && json["region"] as? String == region, "\(typed): \(r)")
    }
  }

  /// A place the catalogue has under another name is that city, with its weather, however it
  /// is named: New York City (its GeoNames id too) is the sample's New York, and `wx search
  /// tokyo` (and `wx search tok`) lists the sample's 東京 with its weather.
  @Test func aPlaceTheCatalogueNamesOtherwiseIsThatCity() throws {
    let h = try home()
    for typed in ["New York City", "5128581"] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      let json = try r.json()
      #expect(r.status == 0 && json["id"] as? Int == 1 && json["temperature"] is Double, "\(typed): \(r)")
    }
    // Begun too, as `wx show tok` takes it: the row was Tokyo without its weather. A TAB still
    // offers the place's own name, which `wx show` takes (with 東京 on the row it offered none).
    for typed in ["tokyo", "tok", "tok, JP"] {
      let tokyo = try items(try h.wx("search", typed, "--json", env: Self.on))
      #expect(tokyo.first?["city"] as? String == "東京" && tokyo.first?["temperature"] is Double, "\(typed): \(tokyo)")
    }
    let tab = try h.wx("__complete", "zsh", "--", "show", "tok", env: Self.on)
    #expect(tab.stdout.split(separator: "\n").first == "Tokyo, Tokyo", "\(tab)")
    #expect(try h.wx("fav", "add", "New York", env: Self.on).status == 0)
    let again = try h.wx("fav", "add", "New York City", env: Self.on)
    #expect(again.stdout.contains("already a favourite"), "\(again)")
    #expect(try items(try h.wx("fav", "--json", env: Self.on)).count == 1)
  }

  /// A name's qualifier in parentheses may be left out: `Halle, Germany` is Halle (Saale),
  /// ten times the Halle of Westphalia; the districts `Zürich (Kreis 11)` stay parts of Zürich.
  @Test func aQualifierInParenthesesMayBeLeftOut() throws {
    let h = try home()
    for typed in ["Halle, Germany", "halle, de", "Halle, Saxony-Anhalt"] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      let city = try r.json()["city"] as? String
      #expect(r.status == 0 && city == "Halle (Saale)", "\(typed): \(r)")
    }
    let halle = try h.wx("show", "Halle", env: Self.on)
    #expect(halle.status == 64 && halle.stderr.contains("matches 5 places: Halle (Saale), Saxony-Anhalt, Germany"), "\(halle)")
    let zurich = try h.wx("show", "zurich", "--json", env: Self.on)
    let city = try zurich.json()["city"] as? String
    #expect(city == "Zürich" && zurich.stderr.contains("1 other place shares"), "\(zurich)")
  }

  /// A town is named by its name before a joiner (`Stoke-on-Trent` is Stoke) and by the few
  /// names it is known by (`nyc`, `hull`): typed bare, each is the place or among the
  /// candidates, by size; searched, it is listed with the places so named.
  @Test func aNameBeforeAJoinerOrAnAliasNamesThePlace() throws {
    let h = try home()
    for (typed, city) in [
      ("stoke", "Stoke-on-Trent"), ("frankfurt", "Frankfurt am Main"), ("newcastle, england", "Newcastle upon Tyne"),
      ("philly", "Philadelphia"), ("Hull, UK", "Kingston upon Hull"),
    ] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      #expect(r.status == 0 && (try? r.json()["city"] as? String) == city, "\(typed): \(r)")
    }
    // New York City is the sample's New York, with its weather.
    let nyc = try h.wx("show", "nyc", "--json", env: Self.on)
    #expect(nyc.status == 0 && (try? nyc.json()["city"] as? String) == "New York", "\(nyc)")
    let hull = try h.wx("show", "hull", env: Self.on)
    #expect(hull.status == 64 && hull.stderr.contains("matches 4 places: Kingston upon Hull, England"), "\(hull)")
    let newcastle = try h.wx("show", "newcastle", env: Self.on)
    #expect(newcastle.status == 64 && newcastle.stderr.contains("Newcastle upon Tyne, England"), "\(newcastle)")
    // A place's own name in its region is that place, not a larger-named one's short name
    // (a helper's pass: `Stratford, England` listed itself as the way to pick itself).
    // Kingston upon Hull is Hull, not Kingston: `Kingston, UK` is not taken for it, the two
    // Kingstons begun so are listed (it was Kingston upon Hull alone).
    let kingston = try h.wx("show", "kingston, uk", env: Self.on)
    #expect(kingston.status == 64 && kingston.stderr.contains("Kingston upon Thames, England"), "\(kingston)")
    let stratford = try h.wx("show", "Stratford, England", "--json", env: Self.on)
    #expect(stratford.status == 0 && (try? stratford.json()["city"] as? String) == "Stratford", "\(stratford)")
    #expect(stratford.stderr.contains("1 other place shares the name"), "\(stratford)")
    let search = try items(try h.wx("search", "nyc", "--json", env: Self.on)).compactMap { $0["city"] as? String }
    #expect(search.first == "New York", "\(search)")
  }

  /// A failed sync of one place changes no store: not even the last city shown.
  @Test func aFailedSyncOfOnePlaceLeavesEveryStoreAsItWas() throws {
    let h = try home()
    #expect(try h.wx("show", "Paris, France", env: Self.on).status == 0)
    let names = ["catalogue.gdbm", "prefs.gdbm", "favourites.gdbm", "atlas.gdbm"]
    func bytes() -> [Data?] { names.map { FileManager.default.contents(atPath: h.path + "/" + $0) } }
    let before = bytes()
    let r = try h.wx(
      "sync", "--provider", "open-meteo", "--city", "Van, Turkey",
      env: Self.on.merging(["WX_OPEN_METEO_URL": "http://127.0.0.1:9/"]) { $1 })
    #expect(r.status == 69, "\(r)")
    #expect(bytes() == before)
    #expect(try h.wx("show", "--json", env: Self.on).json()["city"] as? String == "Paris")
  }

  /// An atlas place of exactly the typed name beats a catalogue city the word only begins:
  /// `van` is Van, Turkey, not the sample's Vancouver (which `vanc` still finds).
  @Test func anExactPlaceNameBeatsACatalogueCityTheWordBegins() throws {
    let h = try home()
    for (typed, city, country) in [
      ("Van", "Van", "Turkey"), ("man", "Man", "Ivory Coast"), ("ho", "Ho", "Ghana"),
    ] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      let json = try r.json()
      #expect(r.status == 0 && json["city"] as? String == city && json["country"] as? String == country, "\(typed): \(r)")
    }
    // `vanc` begins two Vancouvers, neither ten times the other: listed (it was the sample's).
    let vanc = try h.wx("show", "vanc", env: Self.on)
    #expect(
      vanc.status == 64 && vanc.stderr.contains("Vancouver, British Columbia") && vanc.stderr.contains("Vancouver, Washington"),
      "\(vanc)")
    // (`ho` was the sample's Ho Chi Minh City, the catalogue's only city begun so: a prefix
    // is no answer by itself, and Ho, Ghana, 130,701 people, is named exactly so.)
    // Nor a village a place the word begins dwarfs: `lo` (Lo, Belgium: 1,179 people;
    // London), `du` (Đu, Vietnam; Dubai) list the candidates, London first.
    // Nor an alternate name of two letters (`pa` was Chongqing, an old name of it).
    let pa = try items(try h.wx("search", "pa", "--json", env: Self.on)).compactMap { $0["city"] as? String }
    #expect(pa.first == "Paris" && !pa.contains("Chongqing"), "\(pa)")
    for typed in ["lo", "du", "par", "pa"] {
      let r = try h.wx("show", typed, env: Self.on)
      #expect(r.status == 64 && r.stderr.contains("matches several places"), "\(typed): \(r)")
    }
    // Spelled as typed does not pick a place another candidate has ten times the people of.
    let stPaul = try h.wx("show", "St. Paul", env: Self.on)
    #expect(stPaul.status == 64 && stPaul.stderr.contains("Saint Paul, Minnesota"), "\(stPaul)")
    // The catalogue's one city of a name is taken, and when a larger place shares the name wx
    // says so, as when the atlas picks one of several (Salem, Tamil Nadu; no note for Berlin).
    let salem = try h.wx("show", "Salem", env: Self.on)
    #expect(salem.stdout.contains("Salem, Oregon, United States"), "\(salem)")
    #expect(salem.stderr.contains("other places share the name: `wx search Salem` lists them"), "\(salem)")
    #expect(try h.wx("show", "Berlin", env: Self.on).stderr.isEmpty)
    // A prefix takes a place only when it is the only one begun so or dwarfs every other,
    // catalogue and atlas together, and says so (issue 30): `la` was the sample's Lagos, with
    // Lahore as large; `tok` listed Tokyo beside Tok, Alaska.
    let lond = try h.wx("show", "lond", "--json", env: Self.on)
    #expect(try lond.json()["city"] as? String == "London", "\(lond)")
    #expect(
      lond.stderr.contains("wx: \"lond\" is London, England, United Kingdom (")
        && lond.stderr.contains("people), the largest by far of ") && lond.stderr.contains("`wx search lond` lists them"),
      "\(lond)")
    let la = try h.wx("show", "la", env: Self.on)
    #expect(la.status == 64 && la.stderr.contains("Lagos") && la.stderr.contains("Lahore"), "\(la)")
    let tok = try h.wx("show", "tok", "--json", env: Self.on)
    #expect(try tok.json()["country"] as? String == "Japan" && tok.stderr.contains("the largest by far of"), "\(tok)")
    let one = try h.wx("show", "rio de jan", env: Self.on)
    #expect(one.status == 0 && one.stderr.contains("the only place whose name starts so"), "\(one)")
    // --format writes no notes.
    #expect(try h.wx("show", "lond", "--format", "%l", env: Self.on).stderr.isEmpty)
  }
}

extension AtlasCommandTests {
  /// One place listed twice at the same spot is one entry (issue 30: `wx search paris` had
  /// "Paris 13 Gobelins" and "Paris 13e Arrondissement"); the other still answers by its id
  /// and its name finds the one kept.
  @Test func aPlaceListedTwiceAtOneSpotIsListedOnce() throws {
    let h = try home()
    let found = try h.wx("search", "paris", "--json", "--per-page", "100", env: Self.on).json()
    let names = try #require(found["items"] as? [[String: Any]]).compactMap { $0["city"] as? String }
    let numbers = names.compactMap { name -> Int? in
      guard name.hasPrefix("Paris "), let word = name.split(separator: " ").dropFirst().first else { return nil }
      return Int(word.prefix { $0.isNumber })
    }
    #expect(numbers.count == 20 && Set(numbers) == Set(1...20), "\(names)")
    let byID = try h.wx("show", "12808673", "--json", env: Self.on).json()
    #expect(byID["city"] as? String == "Paris 13e Arrondissement")
    let byName = try h.wx("show", "Paris 13e Arrondissement", "--json", env: Self.on)
    #expect(byName.status == 0, "\(byName)")
    #expect(try byName.json()["city"] as? String == "Paris 13 Gobelins")
  }
}

extension AtlasCommandTests {
  /// A big catalogue: more than 200 of its names begin with what was typed, and Paris's is not
  /// among the first 200 in name order (`Para 1` … `Para 250` come before it). The places
  /// listed still carry their catalogue city's weather (Paris showed `–` at a million cities),
  /// and the catalogue's own cities are still found by paging.
  @Test func aPlaceListedFindsItsCityPastTheCatalogueMatchesRead() throws {
    let h = try home()
    var cities = (1...250).map { k in
      City(
        id: k, name: "Para \(k)", country: "BR", latitude: -10 - Double(k) / 100, longitude: -50, temperatureC: 25,
        description: "Sunny", humidity: 50, windKmh: 10, forecast: [])
    }
    cities.append(
      City(
        id: 251, name: "Paris", country: "FR", latitude: 48.8566, longitude: 2.3522, temperatureC: 7.5,
        description: "Fog", humidity: 90, windKmh: 4, forecast: []))
    // A place far down the name order: read only by a window that reaches it.
    cities.append(
      City(
        id: 252, name: "Parma", country: "IT", latitude: 44.8015, longitude: 10.3279, temperatureC: 9,
        description: "Clear sky", humidity: 70, windKmh: 5, forecast: []))
    try publish(cities, in: h)
    let par = try items(try h.wx("search", "par", "--json", env: Self.on))
    let paris = try #require(par.first { $0["city"] as? String == "Paris" }, "\(par)")
    #expect(paris["temperature"] as? Double == 7.5 && paris["id"] as? Int == 251, "\(paris)")
    #expect(paris["region"] as? String == "Île-de-France")
    // Paris once, though it is both a place and a catalogue city.
    let all = try items(try h.wx("search", "paris", "--per-page", "100", "--json", env: Self.on))
    #expect(all.filter { $0["id"] as? Int == 251 }.count == 1, "\(all)")
    // One total whatever the page size (it was read from a window as wide as the page: a
    // total per page size, and pages whose rows moved to the next page), and no row twice.
    var totals: Set<Int> = []
    for size in ["1", "20", "100", "300"] {
      totals.insert(try h.wx("search", "par", "--per-page", size, "--json", env: Self.on).json()["total"] as? Int ?? -1)
    }
    #expect(totals.count == 1, "\(totals)")
    var rows: [String] = []
    for page in 1...5 {
      for item in try items(try h.wx("search", "par", "--page", "\(page)", "--json", env: Self.on)) {
        rows.append("\(item["id"] ?? "-")/\(item["geonameid"] ?? "-")")
      }
    }
    #expect(Set(rows).count == rows.count, "\(rows)")
    // The catalogue's Para 250 is reachable: `wx search "para 250"` lists it with its weather.
    let p250 = try items(try h.wx("search", "para 250", "--json", env: Self.on))
    #expect(p250.first?["id"] as? Int == 250, "\(p250)")
  }
}

extension AtlasCommandTests {
  /// The helpers' new-user pass: Yokohama, Kawasaki, Saitama and Chiba (18–35 km from the
  /// sample's 東京, linked by where it is, having no Latin name) showed as 東京 with Tokyo's
  /// weather and became "東京" favourites. Each is its own place; `tokyo` is still 東京.
  @Test func aCityNamedInAnotherScriptIsOnlyThePlaceWhereItIs() throws {
    let h = try home()
    for name in ["yokohama", "kawasaki", "saitama", "chiba"] {
      let r = try h.wx("show", name, "--json", env: Self.on)
      let json = try r.json()
      #expect(r.status == 0 && json["city"] as? String != "東京" && json["temperature"] is NSNull, "\(name): \(r)")
    }
    let tokyo = try h.wx("show", "tokyo", "--json", env: Self.on).json()
    #expect(tokyo["city"] as? String == "東京" && tokyo["temperature"] as? Double != nil, "\(tokyo)")
  }
}

extension AtlasCommandTests {
  /// The helpers' new-user pass: two catalogue cities, both with weather, that share a name and
  /// a region (the Poianas of Botoșani County) were to be picked with "Name, Region", the very
  /// words typed. Their catalogue ids pick them, and the message offers them.
  @Test func catalogueTwinsAreOfferedByTheirIds() throws {
    let h = try home()
    try publish(
      [
        City(
          id: 14636, name: "Poiana", country: "RO", latitude: 47.56436, longitude: 26.86387, temperatureC: 3,
          description: "Fog", humidity: 90, windKmh: 4, forecast: []),
        City(
          id: 670_124, name: "Poiana", country: "RO", latitude: 47.60149, longitude: 26.60826, temperatureC: 4,
          description: "Fog", humidity: 90, windKmh: 4, forecast: []),
      ], in: h)
    let r = try h.wx("show", "poiana, botosani county", env: Self.on)
    #expect(r.status == 64 && r.stderr.contains("pick one by its id (`wx show 14636`)"), "\(r)")
    #expect(r.stderr.contains("id 14636") && r.stderr.contains("id 670124"), "\(r)")
    let picked = try h.wx("show", "14636", "--json", env: Self.on).json()
    #expect(picked["id"] as? Int == 14636 && picked["temperature"] as? Double == 3, "\(picked)")
  }
}
