import Foundation
import Testing
import WXCore

/// Names as people type them, through the commands: every command that takes a city asks the
/// one resolver (`Sources/WXCore/Resolve`), so each answers alike.
@Suite struct NameTests {
  static let cities = [
    city(1, "Kuala Lumpur", "Malaysia"), city(2, "Lumpur", "Indonesia"), city(3, "Dar es Salaam", "Tanzania"),
    city(4, "Salaam", "Somalia"), city(5, "New York", "United States"), city(6, "York", "United Kingdom"),
    city(7, "London", "United Kingdom"), city(8, "Paris", "France"), city(9, "Paris", "United States"),
    city(10, "Tokyo", "Japan"), city(45, "Canberra", "Australia"), city(45, "Wellington", "New Zealand"),
    city(11, "London", "United States"), city(12, "London", "United States"), city(13, "O'Fallon", "United States"),
    city(14, "Val-d'Isère", "France"), city(15, "St. John's", "Canada"),
  ]

  func home() throws -> TempHome {
    let h = TempHome()
    try publish(Self.cities, in: h)
    return h
  }

  func favourites(_ h: TempHome) throws -> [String] {
    let items = try h.wx("fav", "--json").json()["items"] as? [[String: Any]] ?? []
    return items.compactMap { $0["city"] as? String }
  }

  @Test func favAddAndRemoveActOnWhatWasNamedOnce() throws {
    let h = try home()
    let add = try h.wx("fav", "add", "London,", "GB", "Kuala", "Lumpur", "Dar", "es", "Salaam", "Salaam")
    #expect(add.status == 0, "\(add)")
    #expect(try favourites(h) == ["London", "Kuala Lumpur", "Dar es Salaam", "Salaam"])
    let rm = try h.wx("fav", "rm", "London,", "GB", "Dar", "es", "Salaam", "Dar", "es", "Salaam")
    #expect(rm.status == 0 && rm.stdout == "removed London, United Kingdom\nremoved Dar es Salaam, Tanzania\n", "\(rm)")
    #expect(try favourites(h) == ["Kuala Lumpur", "Salaam"], "Salaam, kept, is still there")
    try #require(try h.wx("fav", "add", "Paris,", "FR", "New", "York", "Tokyo").status == 0)
    let comma = try h.wx("fav", "rm", "Paris,", "FR", "New", "York", "Tokyo")
    #expect(comma.status == 0, "fav rm takes the comma form fav add takes: \(comma)")
    #expect(try favourites(h) == ["Kuala Lumpur", "Salaam"])
    let notOne = try h.wx("fav", "rm", "York")
    #expect(notOne.status == 66 && notOne.stderr.contains("not a favourite"), "\(notOne)")
  }

  /// Candidates carry what tells them apart; an id is offered only where it picks one.
  @Test func ambiguityMessagesCanBeActedOn() throws {
    let h = try home()
    let us = try h.wx("show", "London, US")
    #expect(us.status == 64, "\(us)")
    // The atlas's Londons by their state, the catalogue's two it cannot place by their ids.
    #expect(us.stderr.contains("London, Ohio, United States (10,060)"), "\(us)")
    #expect(us.stderr.contains("London, United States (id 11)") && us.stderr.contains("(id 12)"), "\(us)")
    let id = try h.wx("show", "45")
    #expect(id.status == 64 && !id.stderr.contains("id 45") && !id.stderr.contains("its id"), "\(id.stderr)")
    #expect(id.stderr.contains("Canberra, Australia (1.5°N 2.5°W)"), "\(id.stderr)")
  }

  @Test(arguments: ["o fallon", "val d isere", "st john s", "valdisere", "O’Fallon", "st. john's"])
  func apostrophesAndHyphensTypedAnyWay(_ typed: String) throws {
    let h = try home()
    let show = try h.run(["show", typed, "--json"])
    #expect(show.status == 0, "\(typed): \(show)")
    let search = try h.run(["search", String(typed.prefix(5)), "--json"])
    #expect((try? search.json())?["total"] as? Int ?? 0 > 0, "\(typed): \(search)")
  }

  @Test func aqiShowResolvesLikeShow() throws {
    let h = try home()
    try #require(try h.wx("fav", "add", "Paris,", "FR", "London,", "GB").status == 0)
    let api = try OpenMeteoAPI()
    try #require(try h.wx("aqi", "sync", "--favourites", env: ["WX_OPEN_METEO_AQ_URL": api.airQuality]).status == 0)
    for typed in ["Paris, FR", "Paris, France", "paris", "London, GB", "london"] {
      let r = try h.wx("aqi", "show", typed, "--json")
      #expect(r.status == 0, "\(typed): \(r)")
    }
    #expect(try h.wx("aqi", "show", "Tokyo").status == 66)
  }

  @Test func typosAreAnsweredWithTheNameMeant() throws {
    let h = try home()
    // An old spelling the atlas knows (its alternate names) is that place.
    let r = try h.wx("show", "tokio")
    #expect(r.status == 0 && r.stdout.hasPrefix("Tokyo, Japan"), "\(r)")
    let typo = try h.wx("show", "tokyp")
    #expect(typo.status == 66 && typo.stderr.contains("closest: Tokyo"), "\(typo)")
  }

  /// Twins a catalogue lists under two spellings of one country at one spot are each named by
  /// their own spelling, atlas on or off: the list of both had said "pick one with "Name,
  /// Country"", and the name typed so still listed both (found by a new-user pass).
  @Test func twinsUnderTwoSpellingsOfACountryAreEachNamedByTheirs() throws {
    let home = TempHome()
    var records = [
      weatherRecord(id: 1, city: "Ljubljana", country: "SI", temperature: 3),
      weatherRecord(id: 2, city: "Ljubljana", country: "Slovenia", temperature: 9),
      weatherRecord(id: 3, city: "Maribor", country: "Slovenia", temperature: 5),
    ]
    for k in records.indices { (records[k]["latitude"], records[k]["longitude"]) = (46.0511, 14.5051) }
    let api = try FakeAPI(data: try writeRecords(records, in: home))
    try #require(try home.wx("sync", "--url", api.url, "--quiet").status == 0)
    for env in [["WX_ATLAS": "off"], ["WX_ATLAS": "on"]] {
      for (typed, id) in [("Ljubljana, Slovenia", 2), ("Ljubljana, SI", 1)] {
        let r = try home.run(["show", typed, "--json"], env: env)
        #expect(r.status == 0, "\(env) \(typed): \(r)")
        #expect(try r.json()["id"] as? Int == id, "\(env) \(typed): \(r.stdout)")
      }
    }
    // Bare, they are still two: listed, each with its id.
    let bare = try home.run(["show", "Ljubljana"], env: ["WX_ATLAS": "off"])
    #expect(bare.status == 64, "\(bare)")
  }
}
