import Foundation
import Testing
import WXCore

@Suite struct NameMatchingTests {
  static let extra: [City] = [
    city(1, "N'Djamena", "Chad"), city(2, "Winston-Salem", "United States"), city(3, "Saint-Étienne", "France"),
    city(4, "St. Louis", "United States"), city(5, "L’Aquila", "Italy"), city(6, "Hawaiʻi Kai", "United States"),
    city(7, "Paris", "France"), city(8, "Paris", "United States"), city(9, "東京", "Japan"),
    city(10, "London", "United Kingdom"), city(11, "Sydney", "Australia"), city(12, "Sydney", "Canada"),
    city(13, "Vienna", "Austria"), city(14, "New York", "United States"), city(15, "York", "United Kingdom"),
    city(16, "Salem", "United States"), city(17, "Oslo", "Norway"), city(18, "Lima", "Peru"),
  ]

  func home() throws -> TempHome {
    let h = TempHome()
    try publish(Self.extra, in: h)
    return h
  }

  @Test(
    arguments: [
      ("ndj", "N'Djamena"), ("ndjamena", "N'Djamena"), ("n’dja", "N'Djamena"), ("djamena", "N'Djamena"),
      ("winston salem", "Winston-Salem"), ("winstonsalem", "Winston-Salem"), ("n djamena", "N'Djamena"), ("n dja", "N'Djamena"),
      ("saint etienne", "Saint-Étienne"),
      ("saint-etienne", "Saint-Étienne"), ("st louis", "St. Louis"), ("st. louis", "St. Louis"), ("aquila", "L’Aquila"),
      ("laquila", "L’Aquila"), ("l'aquila", "L’Aquila"), ("hawaii", "Hawaiʻi Kai"), ("salem", "Salem"),
    ] as [(String, String?)])
  func punctuationDoesNotMatter(_ query: String, _ expected: String?) throws {
    let h = try home()
    let r = try h.run(["search", query, "--json"])
    let names = ((try? r.json())?["items"] as? [[String: Any]])?.compactMap { $0["city"] as? String } ?? []
    if let expected {
      #expect(names.contains(expected), "search \(query): \(names) \(r)")
    } else {
      #expect(!names.contains("Winston-Salem"), "search \(query): \(names)")
    }
  }

  @Test func showFavAndForecastMatchTheSameWay() throws {
    let h = try home()
    for q in ["ndjamena", "winston salem", "saint etienne", "st louis", "laquila"] {
      let r = try h.run(["show", q, "--json"])
      #expect(r.status == 0, "show \(q): \(r)")
    }
    #expect(try h.wx("fav", "add", "ndjamena").status == 0)
    #expect(try h.wx("forecast", "winston salem").status == 0)
    let favs = try h.wx("fav", "--json").json()["items"] as? [[String: Any]]
    #expect(favs?.first?["city"] as? String == "N'Djamena")
    #expect(try h.wx("fav", "remove", "n djamena").status == 0, "an apostrophe typed as a space")
    #expect(try h.wx("fav", "remove", "ndjamena").status == 66, "removed once")
  }

  @Test(arguments: [
    ("Paris, US", 8), ("Paris, usa", 8), ("Paris, United States", 8), ("Paris, FR", 7), ("Paris, fra", 7),
    ("Paris, France", 7), ("Paris, Fr", 7), ("東京, JP", 9), ("東京, jpn", 9), ("London, UK", 10), ("London, GB", 10),
    ("London, gbr", 10), ("Sydney, AU", 11), ("Sydney, Aus", 11), ("Sydney, CA", 12), ("Sydney, Can", 12),
  ])
  func countryCodesAndShortNames(_ query: String, _ id: Int) throws {
    let r = try home().run(["show", query, "--json"])
    #expect(r.status == 0, "\(query): \(r)")
    #expect((try? r.json())?["id"] as? Int == id, "\(query): \(r.stdout)")
  }

  @Test func aCountryThatFitsNoneSaysSo() throws {
    let r = try home().run(["show", "Paris, DE"])
    #expect(r.status == 66, "\(r)")
    #expect(r.stderr.contains("Paris, Île-de-France, France") && r.stderr.contains("Paris, Texas, United States"), "\(r)")
  }

  @Test func unquotedWordsAreOneName() throws {
    let h = try home()
    let show = try h.run(["show", "New", "York", "--json"])
    #expect(show.status == 0 && (try? show.json())?["id"] as? Int == 14, "\(show)")
    #expect(try h.wx("forecast", "New", "York").status == 0)
    #expect(try h.wx("show", "Paris,", "US", "--json").status == 0)
    let add = try h.wx("fav", "add", "New", "York")
    #expect(add.status == 0 && add.stdout == "added New York, United States\n", "\(add)")
    var favs = try h.wx("fav", "--json").json()["items"] as? [[String: Any]] ?? []
    #expect(favs.map { $0["city"] as? String } == ["New York"], "\(favs)")
    let two = try h.wx("fav", "add", "Oslo", "Lima")
    #expect(two.status == 0 && two.stdout.contains("added Oslo") && two.stdout.contains("added Lima"), "\(two)")
    #expect(try h.wx("fav", "remove", "New", "York").status == 0)
    favs = try h.wx("fav", "--json").json()["items"] as? [[String: Any]] ?? []
    #expect(favs.count == 2, "\(favs)")
  }
}
