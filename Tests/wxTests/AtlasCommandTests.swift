import Foundation
import Testing
import WXCore

/// The world atlas through the commands: search, show, fav and sync over the catalogue and
/// the atlas, doctor's check and repair, and a damaged or missing atlas never stopping a
/// catalogue command.
@Suite(.serialized) struct AtlasCommandTests {
  static let on = ["WX_ATLAS": "on"]

  /// A state folder whose own atlas was built once (by `wx search`, the first use, with
  /// `WX_ATLAS=own`: the harness's shared one would answer) and is copied into each test's
  /// folder, which then answers from it (its own first), so a test may damage it: building
  /// it takes seconds in a debug build.
  static let built: TempHome = {
    let home = TempHome()
    _ = try? home.wx("search", "ljub", env: ["WX_ATLAS": "own"], timeout: 120)
    return home
  }()

  func home() throws -> TempHome {
    let home = TempHome()
    try FileManager.default.copyItem(atPath: Self.built.path + "/atlas.gdbm", toPath: home.path + "/atlas.gdbm")
    return home
  }

  func items(_ run: Run) throws -> [[String: Any]] {
    try #require(try run.json()["items"] as? [[String: Any]])
  }

  /// Issue 30: a qualifier is honoured by `fav rm`: Missouri's Springfield is no favourite
  /// when Illinois' is (they share a name and a country, the favourite's key), so nothing is
  /// removed; Illinois' is removed by its own name.
  @Test func favRemoveHonoursTheRegion() throws {
    let h = try home()
    #expect(try h.wx("fav", "add", "Springfield, IL", env: Self.on).status == 0)
    let wrong = try h.wx("fav", "rm", "Springfield, MO", env: Self.on)
    #expect(wrong.status == 66 && wrong.stderr.contains("not a favourite"), "\(wrong)")
    #expect(try items(try h.wx("fav", "--json", env: Self.on)).count == 1)
    #expect(try h.wx("fav", "rm", "Springfield, Illinois", env: Self.on).status == 0)
    #expect(try items(try h.wx("fav", "--json", env: Self.on)).isEmpty)
  }

  @Test func firstUseBuildsTheAtlasAndSearchFindsAnyPlaceLargestFirst() throws {
    #expect(FileManager.default.fileExists(atPath: Self.built.path + "/atlas.gdbm"))
    let h = try home()
    let ljub = try h.wx("search", "ljub", env: Self.on)
    #expect(ljub.status == 0, "\(ljub)")
    let first = try #require(ljub.stdout.split(separator: "\n").dropFirst().first)
    #expect(first.contains("Ljubljana") && first.contains("Slovenia"))
    #expect(ljub.stdout.contains("places: GeoNames"))

    let par = try items(try h.wx("search", "par", "--json", env: Self.on))
    #expect(par.first?["city"] as? String == "Paris")
    #expect(par.first?["country"] as? String == "France")
    // The sample's Paris: its weather, with the atlas's region and population.
    #expect(par.first?["temperature"] as? Double != nil)
    #expect(par.first?["region"] as? String == "Île-de-France")
    #expect(par.first?["country_code"] as? String == "FR")

    let springs = try items(try h.wx("search", "springfield", "--per-page", "100", "--json", env: Self.on))
      .filter { $0["city"] as? String == "Springfield" }
    #expect(springs.count == 21)
    let people = springs.compactMap { $0["population"] as? Int }
    #expect(people.count == 21 && people == people.sorted(by: >))
    #expect(springs.allSatisfy { $0["region"] is String })
    // A place without weather: a null id and null weather, never 0.
    #expect(springs.first?["id"] is NSNull && springs.first?["temperature"] is NSNull)
  }

  @Test func alternateNamesFindThePlaceUnderItsOwnName() throws {
    let h = try home()
    let cologne = try items(try h.wx("search", "cologne", "--json", env: Self.on))
    #expect(cologne.first?["city"] as? String == "Köln")
    #expect(cologne.dropFirst().allSatisfy { ($0["city"] as? String)?.hasPrefix("Cologne") == true })
    let kiev = try items(try h.wx("search", "kiev", "--json", env: Self.on)).compactMap { $0["city"] as? String }
    #expect(kiev.first == "Kyiv")
    #expect(kiev.contains("Kievskiy"))
  }

  @Test func showNamesAPlaceByRegionStateOrCountryAndDominantName() throws {
    let h = try home()
    for (arg, region) in [("Springfield, Illinois", "Illinois"), ("Portland, OR", "Oregon"), ("London, Ontario", "Ontario")] {
      let r = try h.wx("show", arg, "--json", env: Self.on)
      #expect(r.status == 0, "\(arg): \(r)")
      #expect(try r.json()["region"] as? String == region, "\(arg)")
    }
    let paris = try h.wx("show", "Paris", env: Self.on)
    #expect(paris.status == 0, "\(paris)")
    #expect(paris.stdout.contains("Paris, France"))
    #expect(paris.stderr.contains("other places share the name") && paris.stderr.contains("`wx search Paris`"))
    let springfield = try h.wx("show", "Springfield", env: Self.on)
    #expect(springfield.status == 64)
    #expect(springfield.stderr.contains("Springfield, Missouri, United States"))
    #expect(springfield.stderr.contains("\"Name, Region\""))
    #expect(try h.wx("show", "Qqqqzzz", env: Self.on).status == 66)
  }

  @Test func aPlaceWithoutWeatherShowsWhatWxKnowsAndTheCommand() throws {
    let h = try home()
    let r = try h.wx("show", "Ljubljana", env: Self.on)
    #expect(r.status == 0, "\(r)")
    for fact in [
      "Ljubljana, Slovenia", "272,220", "Europe/Ljubljana", "local time", "46.1°N 14.5°E",
      "wx sync --provider open-meteo --city 'Ljubljana, Slovenia'",
    ] {
      #expect(r.stdout.contains(fact), "\(fact)")
    }
    let json = try h.wx("show", "Ljubljana", "--json", env: Self.on).json()
    for key in ["temperature", "description", "humidity", "wind_speed", "id", "observed_at"] {
      #expect(json[key] is NSNull, "\(key)")
    }
    #expect(json["population"] as? Int == 272_220)
    #expect(json["time_zone"] as? String == "Europe/Ljubljana")
    // `wx show` alone shows it again (the last city shown).
    #expect(try h.wx("show", env: Self.on).stdout.contains("Ljubljana, Slovenia"))
  }

  @Test func favouritesOfAtlasPlacesGetWeatherFromAnOpenMeteoSync() throws {
    let h = try home()
    let api = try OpenMeteoAPI()
    let add = try h.wx("fav", "add", "Paris", "Ljubljana", env: Self.on)
    #expect(add.status == 0, "\(add)")
    #expect(add.stdout.contains("added Paris, Île-de-France, France") && add.stdout.contains("added Ljubljana, Slovenia"))
    #expect(try h.wx("fav", env: Self.on).stdout.contains("not in the current catalogue"))

    // Two places of one name and country are two favourites (issue 30: Missouri's was refused
    // while Illinois' was kept), and a qualifier removes only its own.
    try h.wx("fav", "add", "Springfield, Illinois", env: Self.on)
    let second = try h.wx("fav", "add", "Springfield, Missouri", env: Self.on)
    #expect(second.stdout == "added Springfield, Missouri, United States\n", "\(second)")
    func springfields() throws -> [String] {
      try #require(try h.wx("fav", "--json", env: Self.on).json()["items"] as? [[String: Any]])
        .filter { $0["city"] as? String == "Springfield" }.compactMap { $0["region"] as? String }
    }
    #expect(try springfields() == ["Illinois", "Missouri"])
    #expect(try h.wx("fav", "add", "Springfield, MO", env: Self.on).stdout.contains("already a favourite"))
    let bare = try h.wx("fav", "rm", "Springfield", env: Self.on)
    #expect(
      bare.status == 64 && bare.stderr.contains("(Missouri, id ")
        && bare.stderr.contains("\"Name, Region\" (Springfield, Illinois)"), "\(bare)")
    let rm = try h.wx("fav", "rm", "Springfield, MO", env: Self.on)
    #expect(rm.status == 0 && rm.stdout == "removed Springfield, Missouri, United States\n", "\(rm)")
    #expect(try h.wx("fav", "rm", "Springfield, MO", env: Self.on).status == 66)
    #expect(try springfields() == ["Illinois"])
    #expect(try h.wx("fav", "rm", "Springfield", env: Self.on).stdout == "removed Springfield, United States\n")

    let sync = try h.wx(
      "sync", "--provider", "open-meteo", "--favourites", env: Self.on.merging(["WX_OPEN_METEO_URL": api.forecast]) { $1 })
    #expect(sync.status == 0, "\(sync)")
    #expect(sync.stderr.contains("the weather of 2 of 63 cities"))
    let show = try h.wx("show", "Ljubljana", "--json", env: Self.on).json()
    #expect(show["temperature"] is Double)
    #expect(show["region"] as? String == "Ljubljana")
    let favs = try items(try h.wx("fav", "--json", env: Self.on))
    #expect(favs.allSatisfy { $0["in_catalogue"] as? Bool == true && $0["temperature"] is Double })
    // Offline from now on, and in the catalogue's list.
    #expect(
      try h.wx("list", "--per-page", "100", env: Self.on.merging(["WX_OPEN_METEO_URL": "http://127.0.0.1:9/"]) { $1 }).stdout
        .contains("Ljubljana"))
  }

  /// Two favourites of one name and country are fetched each at its own place, and each
  /// shows its own weather (the sync's plan kept one city of a name and country).
  @Test func twoSpringfieldsAreTwoFavouritesWithTheirOwnWeather() throws {
    let h = try home()
    let api = try OpenMeteoAPI()
    #expect(try h.wx("fav", "add", "Springfield, IL", "Springfield, MO", env: Self.on).status == 0)
    let sync = try h.wx(
      "sync", "--provider", "open-meteo", "--favourites", env: Self.on.merging(["WX_OPEN_METEO_URL": api.forecast]) { $1 })
    #expect(sync.status == 0 && sync.stderr.contains("the weather of 2 of 64 cities"), "\(sync)")
    let favs = try items(try h.wx("fav", "--json", env: Self.on))
    #expect(favs.map { $0["region"] as? String } == ["Illinois", "Missouri"])
    #expect(favs.allSatisfy { $0["in_catalogue"] as? Bool == true && $0["temperature"] is Double }, "\(favs)")
    let il = try h.wx("show", "Springfield, IL", "--json", env: Self.on).json()
    let mo = try h.wx("show", "Springfield, MO", "--json", env: Self.on).json()
    #expect(il["latitude"] as? Double != mo["latitude"] as? Double)
    #expect(il["temperature"] is Double && mo["temperature"] is Double)
    let text = try h.wx("fav", env: Self.on).stdout
    #expect(text.contains("Springfield, Illinois") && text.contains("Springfield, Missouri"), "\(text)")
  }

  @Test func syncCityFetchesOnePlaceWithoutMakingItAFavourite() throws {
    let h = try home()
    let api = try OpenMeteoAPI()
    let r = try h.wx(
      "sync", "--provider", "open-meteo", "--city", "Portland, OR",
      env: Self.on.merging(["WX_OPEN_METEO_URL": api.forecast]) { $1 })
    #expect(r.status == 0, "\(r)")
    #expect(r.stdout.contains("Portland, United States"))
    #expect(r.stderr.contains("the weather of 1 of 63 cities"))
    #expect(try api.stats().requests == 1)
    #expect(try h.wx("fav", env: Self.on).stdout.contains("No favourites"))
    // Nor the last city shown (wx(1) says so): `wx show` alone still has none.
    let last = try h.wx("show", env: Self.on)
    #expect(last.status == 64 && !last.stdout.contains("Portland"), "\(last)")
    #expect(try h.wx("sync", "--provider", "open-meteo", "--city", "Portland", "--favourites", env: Self.on).status == 64)
  }

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
  /// tokyo` lists the sample's 東京 with its weather.
  @Test func aPlaceTheCatalogueNamesOtherwiseIsThatCity() throws {
    let h = try home()
    for typed in ["New York City", "5128581"] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      let json = try r.json()
      #expect(r.status == 0 && json["id"] as? Int == 1 && json["temperature"] is Double, "\(typed): \(r)")
    }
    let tokyo = try items(try h.wx("search", "tokyo", "--json", env: Self.on))
    #expect(tokyo.first?["city"] as? String == "東京" && tokyo.first?["temperature"] is Double, "\(tokyo)")
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
      ("Van", "Van", "Turkey"), ("man", "Man", "Ivory Coast"), ("Ho", "Ho Chi Minh City", "Vietnam"),
    ] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      let json = try r.json()
      #expect(r.status == 0 && json["city"] as? String == city && json["country"] as? String == country, "\(typed): \(r)")
    }
    #expect(try h.wx("show", "vanc", "--json", env: Self.on).json()["city"] as? String == "Vancouver")
    // Not a village the catalogue city is ten times larger than (`ho`: Ho Chi Minh City, 68
    // times Ho, Ghana), nor one a place the word begins dwarfs: `lo` (Lo, Belgium: 1,179
    // people; London), `du` (Đu, Vietnam; Dubai) list the candidates, London first.
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
    #expect(salem.stdout.contains("Salem, United States"), "\(salem)")
    #expect(salem.stderr.contains("other places share the name: `wx search Salem` lists them"), "\(salem)")
    #expect(try h.wx("show", "Berlin", env: Self.on).stderr.isEmpty)
    #expect(try h.wx("show", "lond", "--json", env: Self.on).json()["city"] as? String == "London")
  }

  @Test func aDamagedAtlasWarnsAndTheCatalogueAnswersAndDoctorRebuildsIt() throws {
    let h = try home()
    let atlas = h.path + "/atlas.gdbm"
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: atlas)))
    // Flip a byte in a place record (its block's checksum refuses it).
    let needle = Array("Ljubljana".utf8)
    let at = try #require((0..<(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
    bytes[at] ^= 0x20
    try Data(bytes).write(to: URL(fileURLWithPath: atlas))
    let doctor = try h.wx("doctor", env: Self.on)
    #expect(doctor.status == 74)
    #expect(doctor.stdout.contains("atlas") && doctor.stdout.contains("damaged"))
    let repair = try h.wx("doctor", "--repair", env: Self.on, timeout: 120)
    #expect(repair.status == 0, "\(repair)")
    #expect(repair.stdout.contains("rebuilt from the shipped data (170391 places)"))
    #expect(try h.wx("doctor", env: Self.on).status == 0)

    // A store that is not an atlas at all: a warning, then the catalogue alone.
    try Data("not a gdbm file at all, just text".utf8).write(to: URL(fileURLWithPath: atlas))
    let search = try h.wx("search", "par", env: Self.on)
    #expect(search.status == 0, "\(search)")
    #expect(search.stderr.contains("warning") && search.stderr.contains("without the atlas"))
    #expect(search.stdout.contains("Paris") && !search.stdout.contains("Parbhani"))
    #expect(try h.wx("show", "Paris, France", env: Self.on).status == 0)
  }

  @Test func withoutAtlasDataTheCatalogueAnswersSilently() throws {
    let h = TempHome()
    let data = TempHome()
    try FileManager.default.copyItem(atPath: sampleFile, toPath: data.path + "/sample-weathers.json")
    let r = try h.wx("search", "par", env: Self.on.merging(["WX_DATA_DIR": data.path]) { $1 })
    #expect(r.status == 0)
    #expect(!r.stderr.contains("warning"))
    #expect(!FileManager.default.fileExists(atPath: h.path + "/atlas.gdbm"))
    #expect(try h.wx("search", "par", env: ["WX_ATLAS": "maybe"]).status == 78)
  }

  @Test(arguments: ["bash", "zsh", "fish"]) func completionOffersAtlasPlaces(_ shell: String) throws {
    let bench = try CompletionBench(atlas: true)
    try FileManager.default.copyItem(atPath: Self.built.path + "/atlas.gdbm", toPath: bench.home.path + "/atlas.gdbm")
    let ljubl = try bench.offers(shell, "wx show ljubl")
    #expect(ljubl.contains { $0.contains("Ljubljana") }, "\(shell): \(ljubl)")
    // A name several places share: each with its region, as `wx show` takes it.
    let springs = try bench.offers(shell, "wx show springfield")
    #expect(springs.contains { $0.contains("Illinois") } && springs.contains { $0.contains("Missouri") }, "\(shell): \(springs)")
    // A name typed whole that is another name of a larger place offers that place too, never
    // the village that begins so alone. fish keeps only its own best kind of match, so it is
    // offered the word itself, described by the place (`kiev`, Kyiv), which wx resolves to it.
    let kiev = try bench.offers(shell, "wx show kiev")
    let kyiv = shell == "fish" ? "kiev" : "Kyiv"
    #expect(kiev.first == kyiv && kiev.contains { $0.contains("Kievskiy") }, "\(shell): \(kiev)")
    if shell == "fish" {
      // A name matched only when folded, beside names that start with the word as typed, in
      // its ASCII spelling (fish dropped São Paulo and Köln behind the Sao… and Kol… villages).
      #expect(try bench.offers(shell, "wx show sao").first == "Sao Paulo")
      #expect(try bench.offers(shell, "wx show koln").first == "Koln")
      // A name with an apostrophe, typed without it: N'Djamena, the catalogue city with its
      // weather, first, as Ndjamena (which names it), not hidden behind the Ndj… villages.
      #expect(try bench.offers(shell, "wx show ndj").first == "Ndjamena")
      let ndj = try bench.home.wx("show", "Ndjamena", "--json", env: Self.on)
      #expect(try ndj.json()["city"] as? String == "N'Djamena", "\(ndj)")
      #expect(try bench.typed(shell, "wx show kiev\t") == "wx show kiev ")
      let r = try bench.home.wx("show", "kiev", "--json", env: Self.on)
      #expect(try r.json()["city"] as? String == "Kyiv", "\(r)")
      let sao = try bench.home.wx("show", "Sao Paulo", "--json", env: Self.on)
      #expect(try sao.json()["city"] as? String == "São Paulo", "\(sao)")
    }
  }

  @Test func browseSearchesTheAtlasAsYouType() throws {
    let r = try BrowseTests().browse(
      try home(),
      [
        BrowseTests.ready, BrowseTests.keys("ljub"), BrowseTests.wait("10 matches"), BrowseTests.snap("ljub"),
        BrowseTests.keys(BrowseTests.esc), BrowseTests.wait("Type to search"), BrowseTests.keys(BrowseTests.esc), ["exit": true],
      ], env: ["NO_COLOR": "1", "WX_ATLAS": "on"])
    let rows = r.screen("ljub")
    #expect(rows.first { $0.contains("Ljub") }?.contains("Ljubljana") == true, "\(r)")
    #expect(r.status == ["code": 0], "\(r)")
  }

  /// An atlas file of one place (`scripts/make-atlas.py`'s layout).
  static func tinyAtlas(_ name: String) -> [UInt8] {
    var w = ByteWriter()
    w.raw(Array("WXATLAS1".utf8))
    for (count, strings) in [(1, ["SI", "Slovenia"]), (0, []), (1, ["Europe/Ljubljana"])] {
      w.varint(UInt64(count))
      for t in strings { w.string(t) }
    }
    w.varint(1)
    w.varint(1)
    w.string(name)
    for v: UInt64 in [0, 0, 0, 9_210_216, 2_901_026, 5000] { w.varint(v) }
    w.string("")
    w.varint(0)
    w.u32(CRC32.checksum(w.bytes))
    return w.bytes
  }

  /// An upgrade that ships other atlas data: the store records which data it was built from,
  /// and is built again from the new.
  @Test func otherDataIsBuiltAgainOnFirstUse() throws {
    let h = TempHome()
    let data = TempHome()
    try FileManager.default.copyItem(atPath: sampleFile, toPath: data.path + "/sample-weathers.json")
    try Data(Self.tinyAtlas("Testplace")).write(to: URL(fileURLWithPath: data.path + "/atlas.bin"))
    let env = Self.on.merging(["WX_DATA_DIR": data.path]) { $1 }
    #expect(try h.wx("search", "testp", env: env).stdout.contains("Testplace"))
    try Data(Self.tinyAtlas("Otherplace")).write(to: URL(fileURLWithPath: data.path + "/atlas.bin"))
    let r = try h.wx("search", "otherp", env: env)
    #expect(r.status == 0 && r.stdout.contains("Otherplace"), "\(r)")
    #expect(try h.wx("search", "testp", env: env).status == 1)
  }

  @Test func statusCreditsGeoNames() throws {
    let h = try home()
    let r = try h.wx("status", env: Self.on)
    #expect(r.stdout.contains("GeoNames (geonames.org, CC BY 4.0)"))
    #expect(r.stdout.contains("atlas"))
  }

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
    for (typed, city) in [("moskva", "Moscow"), ("cologne", "Köln"), ("madras", "Chennai"), ("zurich", "Zürich")] {
      let r = try h.wx("show", typed, "--json", env: Self.on)
      #expect(r.status == 0, "\(typed): \(r)")
      #expect(try r.json()["city"] as? String == city, "\(typed): \(r)")
      #expect(r.stderr.contains("share the name") || r.stderr.contains("shares the name"), "\(typed): \(r)")
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
    // No place named Newcastle in England: the places there whose name begins with the word
    // are listed, the largest first, never Northern Ireland's taken for it.
    let newcastle = try h.wx("show", "Newcastle, England", "--json", env: Self.on)
    #expect(newcastle.status == 64 && !newcastle.stderr.contains("Northern Ireland"), "\(newcastle)")
    #expect(
      newcastle.stderr.contains("matches 2 places: Newcastle upon Tyne, England, United Kingdom")
        && newcastle.stderr.contains("Newcastle under Lyme"), "\(newcastle)")
    // One of them by more of its name; a part of a word begins no name.
    #expect(try region("Newcastle upon, England") == "England")
    #expect(try h.wx("show", "Newcast, England", env: Self.on).status == 66)
    // The kingdom by its own names still finds any of its places.
    #expect(try region("Newcastle, UK") == "Northern Ireland")
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
    let shared = try h.wx("show", "San José, Costa Rica", env: Self.on)
    #expect(!shared.stderr.contains("search 'San José, Costa Rica'"), "\(shared)")
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
}
