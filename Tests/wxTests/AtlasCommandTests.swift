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

  /// Syncs `records` into `h` from a loopback API, the atlas on (`name`: the file they are
  /// served from, in the home's `api` folder).
  func sync(_ h: TempHome, _ records: [[String: Any]], name: String = "api.json") throws {
    let api = try FakeAPI(data: try writeRecords(records, in: h, name: name))
    try #require(try h.wx("sync", "--url", api.url, env: Self.on).status == 0)
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
    // Named as `fav add` named it, with its region, though no other Springfield is left.
    #expect(try h.wx("fav", "rm", "Springfield", env: Self.on).stdout == "removed Springfield, Illinois, United States\n")

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
    #expect(r.stdout.contains("Portland, Oregon, United States"))
    #expect(r.stderr.contains("the weather of 1 of 63 cities"))
    #expect(try api.stats().requests == 1)
    #expect(try h.wx("fav", env: Self.on).stdout.contains("No favourites"))
    // Nor the last city shown (wx(1) says so): `wx show` alone still has none.
    let last = try h.wx("show", env: Self.on)
    #expect(last.status == 64 && !last.stdout.contains("Portland"), "\(last)")
    #expect(try h.wx("sync", "--provider", "open-meteo", "--city", "Portland", "--favourites", env: Self.on).status == 64)
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

    // A store that is not an atlas at all: a warning, then the shared atlas beside the data
    // (it had answered from the catalogue alone); with no shared one to read (`own`), the
    // catalogue alone.
    try Data("not a gdbm file at all, just text".utf8).write(to: URL(fileURLWithPath: atlas))
    let search = try h.wx("search", "par", env: Self.on)
    #expect(search.status == 0, "\(search)")
    #expect(search.stderr.contains("warning") && search.stderr.contains("using the shared atlas"), "\(search)")
    #expect(search.stdout.contains("Paris") && search.stdout.contains("Parbhani"), "\(search)")
    let own = try h.wx("search", "par", env: ["WX_ATLAS": "own"])
    #expect(own.status == 0 && own.stderr.contains("without the atlas"), "\(own)")
    #expect(own.stdout.contains("Paris") && !own.stdout.contains("Parbhani"))
    #expect(try h.wx("show", "Paris, France", env: Self.on).status == 0)
    // Status says so, and what mends it (it had said the atlas is built on first use).
    let status = try h.wx("status", env: Self.on)
    #expect(
      status.status == 0 && status.stdout.contains("(the state folder's is damaged: `wx doctor --repair` rebuilds it)"),
      "\(status)")
    let json = try h.wx("status", "--json", env: Self.on).json()
    #expect((json["atlas"] as? [String: Any])?["damaged"] as? Bool == true, "\(json)")
    let ownStatus = try h.wx("status", env: ["WX_ATLAS": "own"])
    #expect(ownStatus.stdout.contains("the state folder's world atlas is damaged (`wx doctor --repair`"), "\(ownStatus)")
  }

  @Test(arguments: ["bash", "zsh", "fish"]) func completionOffersAtlasPlaces(_ shell: String) throws {
    let bench = try CompletionBench(atlas: true)
    try FileManager.default.copyItem(atPath: Self.built.path + "/atlas.gdbm", toPath: bench.home.path + "/atlas.gdbm")
    let ljubl = try bench.offers(shell, "wx show ljubl")
    #expect(ljubl.contains { $0.contains("Ljubljana") }, "\(shell): \(ljubl)")
    // A name several places share: each with its region, as `wx show` takes it.
    let springs = try bench.offers(shell, "wx show springfield")
    #expect(springs.contains { $0.contains("Illinois") } && springs.contains { $0.contains("Missouri") }, "\(shell): \(springs)")
    // A name that is also a larger place's other name: Northern Ireland's Newcastle is offered
    // with its region ("Newcastle, United Kingdom" is Newcastle upon Tyne, 40 times as large).
    let newcastles = try bench.offers(shell, "wx show newcastle").map { $0.filter { !"\\'\"".contains($0) } }
    #expect(newcastles.contains("Newcastle, Northern Ireland"), "\(shell): \(newcastles)")
    #expect(!newcastles.contains("Newcastle, United Kingdom"), "\(shell): \(newcastles)")
    // Its region after an unquoted comma, though the place's name is longer (Newcastle upon
    // Tyne): it offered nothing.
    #expect(try bench.offers(shell, "wx show newcastle, eng") == ["England"], "\(shell)")
    #expect(try bench.typed(shell, "wx show newcastle, eng\t") == "wx show newcastle, England ", "\(shell)")
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
}
