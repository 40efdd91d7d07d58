import Foundation
import Testing

@testable import WXCore

/// The one resolver (`Sources/WXCore/Resolve`), over real catalogue files and in-memory lists.
@Suite struct ResolverTests {
  static func city(_ id: Int, _ name: String, _ country: String, lat: Double = 0, lon: Double = 0) -> City {
    City(
      id: id, name: name, country: country, latitude: lat, longitude: lon, temperatureC: 1, description: "",
      humidity: nil, windKmh: nil, forecast: [])
  }

  /// Names that contain other names, in both directions: Kuala Lumpur and Lumpur and Kuala,
  /// Dar es Salaam and Salaam, New York and York and New, two Parises.
  static let nested: [City] = [
    ("Kuala Lumpur", "Malaysia"), ("Lumpur", "Indonesia"), ("Kuala", "Indonesia"), ("Dar es Salaam", "Tanzania"),
    ("Salaam", "Somalia"), ("New York", "United States"), ("York", "United Kingdom"), ("New", "Nigeria"),
    ("London", "United Kingdom"), ("Paris", "France"), ("Paris", "United States"), ("Tokyo", "Japan"),
  ].enumerated().map { city($0.offset + 1, $0.element.0, $0.element.1) }

  /// How people type each city: bare (when its name is its own), and with a comma.
  static func typings(_ c: City) -> [[String]] {
    let bare = c.name.split(separator: " ").map(String.init)
    let codes = [
      "Malaysia": "MY", "Indonesia": "ID", "Tanzania": "TZ", "Somalia": "SO", "United States": "US",
      "United Kingdom": "GB", "Nigeria": "NG", "France": "FR", "Japan": "JP",
    ]
    let code = codes[c.country] ?? c.country
    var out = [bare.dropLast() + [bare.last! + ","] + [code]]
    if nested.filter({ $0.name == c.name }).count == 1 { out.append(bare) }
    return out
  }

  /// The rule, written out the slow way: from each word, the longest run of words that is a
  /// name ("Name" or "Name, Country" that fits), a run never ending on a word that ends in a
  /// comma unless the words end there; without one, the word (with the next after a comma).
  static func reference(_ words: [String], names: [City]) -> [String] {
    func fits(_ run: [String]) -> Bool {
      let text = run.joined(separator: " ")
      let parts = text.split(separator: ",", omittingEmptySubsequences: false)
      if parts.count == 1 { return names.contains { Fold.key($0.name) == Fold.key(text) } }
      guard parts.count == 2 else { return false }
      let typed = Fold.key(String(parts[1]).trimmingSpaces)
      return names.contains {
        Fold.key($0.name) == Fold.key(String(parts[0])) && Countries.fit(typed, Fold.key($0.country), version: 2) != .none
      }
    }
    var out: [String] = []
    var i = 0
    while i < words.count {
      var end = min(words.count, i + (words[i].hasSuffix(",") ? 2 : 1))
      for j in stride(from: words.count, through: i + 1, by: -1) {
        if words[j - 1].hasSuffix(","), j < words.count { continue }
        if fits(Array(words[i..<j])) { end = j; break }
      }
      out.append(words[i..<end].joined(separator: " "))
      i = end
    }
    return out
  }

  /// Every sequence of up to three typed cities (with repeats): the words split as the rule
  /// says, each name resolves to one city, and no city comes back twice; favourites (an
  /// in-memory list) split and resolve the same way as the catalogue.
  @Test func everySplitOfNestedNamesFollowsTheRule() throws {
    let s = Scratch()
    let catalogue = try CityIndexTests.build(Self.nested, in: s)
    let resolver = catalogue.resolver
    let favourites = Self.nested.enumerated().map {
      Favourite(name: $0.element.name, country: $0.element.country, id: $0.element.id, added: 0, sequence: UInt64($0.offset))
    }
    let units = Self.nested.flatMap(Self.typings)
    var sequences: [[[String]]] = units.map { [$0] }
    for a in units { for b in units { sequences.append([a, b]) } }
    var rng = SplitMix64(state: 21)
    for _ in 0..<600 { sequences.append([rng.pick(units), rng.pick(units), rng.pick(units)]) }
    var joined = 0
    for seq in sequences {
      let words = seq.flatMap { $0 }
      let expected = Self.reference(words, names: Self.nested)
      #expect(try resolver.split(words) == expected, "\(words)")
      if expected.count < seq.count { joined += 1 }
      guard let cities = try? catalogue.lookup(words: words) else { continue }  // "Paris" alone: ambiguous
      #expect(Set(cities.map(\.identity)).count == cities.count, "\(words): a city twice")
      #expect(cities.count <= expected.count, "\(words)")
      let removed = try FavouritesStore.favourites(named: words, among: favourites, catalogue: nil).map(\.identity)
      #expect(removed == cities.map(\.identity), "\(words)")
      // Nothing the words did not name: each city is one of the names typed, in order.
      if expected.count == seq.count {
        let typed = seq.map { $0.joined(separator: " ") }
        #expect(zip(typed, expected).allSatisfy { $0 == $1 }, "\(words)")
      }
    }
    #expect(joined > 0, "some sequences (New + York) read as one longer name")
  }

  /// The examples of the issue, as a user types them.
  @Test func namesAfterOtherNamesAreNotSplitOrDoubled() throws {
    let s = Scratch()
    let c = try CityIndexTests.build(Self.nested, in: s)
    func names(_ line: String) throws -> [String] {
      try c.lookup(words: line.split(separator: " ").map(String.init)).map(\.name)
    }
    #expect(try names("London Kuala Lumpur") == ["London", "Kuala Lumpur"])
    #expect(try names("London Dar es Salaam") == ["London", "Dar es Salaam"])
    #expect(try names("Tokyo New York") == ["Tokyo", "New York"])
    #expect(try names("New York Tokyo New York") == ["New York", "Tokyo"])
    #expect(try names("Paris, FR London, GB") == ["Paris", "London"])
    #expect(try names("Paris, United States London") == ["Paris", "London"])
    #expect(try names("London,") == ["London"], "nothing after the comma")
    #expect(try c.resolver.split(["Kuala", "Lumpur,", "MY", "Salaam"]) == ["Kuala Lumpur, MY", "Salaam"])
    // Where no city is called New York itself (as at 170k), the answer is about "New York".
    let s2 = Scratch()
    let big = try CityIndexTests.build(
      [
        Self.city(1, "New York City", "United States"), Self.city(2, "New York Mills", "United States"),
        Self.city(3, "Newark", "United States"), Self.city(4, "Tokyo", "Japan"), Self.city(5, "23 August", "Romania"),
      ],
      in: s2)
    #expect(try big.resolver.split(["2", "3"]) == ["2", "3"], "ids, not the start of 23 August")
    #expect(try big.resolver.split(["Tokyo", "New", "York"]) == ["Tokyo", "New York"])
    #expect(throws: LookupError.self) { try big.lookup(words: ["Tokyo", "New", "York"]) }
    #expect(try big.lookup(words: ["Tokyo", "New", "York", "City"]).map(\.id) == [4, 1])
  }

  /// Thousands of cities named at once: each resolved once, and the catalogue holds a few
  /// record blocks, not every block it read.
  @Test func manyNamesAtOnceKeepFewBlocks() throws {
    let s = Scratch()
    let cities = CityIndexTests.generated(4000, seed: 8)
    let c = try CityIndexTests.build(cities, in: s)
    let ids = stride(from: 1, through: 4000, by: 3).map(String.init)
    let found = try c.lookup(words: ids)
    #expect(found.map(\.id) == ids.compactMap { Int($0) })
    #expect(c.blocksHeld <= Catalogue.blocksKept, "\(c.blocksHeld) blocks held")
  }

  /// Apostrophes and hyphens typed as nothing, as a space or as themselves, at every prefix.
  @Test(arguments: [
    ("O'Fallon", ["o fallon", "ofallon", "o'fallon", "O’Fallon"]),
    ("Val-d'Isère", ["val d isere", "val-d'isere", "val disere", "vald isere", "valdisere", "Val d'Isère"]),
    ("St. John's", ["st john s", "st johns", "st. john's", "stjohns"]),
    ("Winston-Salem", ["winston salem", "winston-salem", "winstonsalem"]),
  ])
  func apostrophesAndHyphensTypedAnyWay(_ name: String, _ typings: [String]) throws {
    let s = Scratch()
    let cities = [Self.city(1, name, "United States")] + Self.nested + CityIndexTests.generated(500, seed: 3)
    let c = try CityIndexTests.build(cities, in: s)
    for typed in typings {
      #expect(try c.lookup(typed).city.name == name, "\(typed)")
      let scalars = Array(typed.unicodeScalars)
      for n in 1...scalars.count {
        var prefix = ""
        prefix.unicodeScalars.append(contentsOf: scalars[..<n])
        guard Fold.hasKey(prefix) else { continue }
        let page = try c.search(prefix, offset: 0, limit: 1000)
        #expect(page.cities.contains { $0.name == name }, "search \(prefix.debugDescription)")
        #expect(try c.completions(prefix, limit: 1000).contains(name), "complete \(prefix.debugDescription)")
      }
    }
    let list = PlaceList([.init(name: name, country: "United States"), .init(name: "Oslo", country: "Norway")])
    for typed in typings { #expect(list.matching(typed) == [0], "\(typed)") }
  }

  /// The rest of a name after the words typed before the cursor, whatever the separators.
  @Test func theRestOfANameAfterTypedWords() {
    func rest(_ name: String, _ run: [String]) -> String? { Resolver<PlaceList>.rest(of: name, after: run) }
    #expect(rest("New York", ["new"]) == "York")
    #expect(rest("O'Fallon", ["o"]) == "Fallon")
    #expect(rest("Val-d'Isère", ["val", "d"]) == "Isère")
    #expect(rest("Paris, United States", ["Paris,"]) == "United States")
    #expect(rest("St. John's", ["st"]) == "John's")
    #expect(rest("Newark", ["new"]) == nil)
    #expect(rest("Ho Chi Minh City", ["ho", "chi"]) == "Minh City")
    #expect(rest("London", []) == "London")
  }

  /// A typo is answered by edit distance over names of similar length, among many.
  @Test func typosSuggestTheNamesTheyMeant() throws {
    let s = Scratch()
    let cities =
      CityIndexTests.generated(20_000, seed: 17) + [
        Self.city(900_001, "London", "United Kingdom"), Self.city(900_002, "London", "Canada"),
        Self.city(900_003, "Londa", "Indonesia"), Self.city(900_004, "Tokyo", "Japan"),
        Self.city(900_005, "Toki", "Japan"),
      ]
    let c = try CityIndexTests.build(cities, in: s)
    for (typed, meant) in [("londn", "London"), ("tokio", "Tokyo"), ("lndon", "London"), ("tkoyo", "Tokyo")] {
      guard case .notFound(let suggestions) = try c.resolve(typed) else { Issue.record("\(typed) resolved"); continue }
      #expect(suggestions.first?.name == meant, "\(typed): \(suggestions.map(\.name))")
    }
  }

  @Test func editDistanceIsBoundedAndCountsSwaps() {
    func d(_ a: String, _ b: String, _ limit: Int = 3) -> Int? {
      Resolver<PlaceList>.distance(Array(a.utf8), Array(b.utf8), limit: limit)
    }
    #expect(d("londn", "london") == 1)
    #expect(d("tokio", "tokyo") == 1)
    #expect(d("tkoyo", "tokyo") == 1)
    #expect(d("abc", "abc") == 0)
    #expect(d("kitten", "sitting") == 3)
    #expect(d("kitten", "sitting", 2) == nil)
    #expect(d("", "abc") == 3)
  }

  /// Ids that repeat are never offered as a way to pick; unique ones are.
  @Test func ambiguousCandidatesCarryIdsOnlyWhereTheyPick() throws {
    let s = Scratch()
    let c = try CityIndexTests.build(
      [
        Self.city(45, "Canberra", "Australia", lat: -35.28, lon: 149.13), Self.city(45, "Wellington", "New Zealand"),
        Self.city(7, "London", "United States", lat: 37.13, lon: -84.08), Self.city(8, "London", "United States"),
      ], in: s)
    #expect(
      throws: LookupError.ambiguous(
        query: "45",
        candidates: [
          Candidate(name: "Canberra", country: "Australia", latitude: -35.28, longitude: 149.13),
          Candidate(name: "Wellington", country: "New Zealand", latitude: 0, longitude: 0),
        ])
    ) { try c.lookup("45") }
    #expect(
      throws: LookupError.ambiguous(
        query: "London, US",
        candidates: [
          Candidate(name: "London", country: "United States", id: 7, latitude: 37.13, longitude: -84.08),
          Candidate(name: "London", country: "United States", id: 8, latitude: 0, longitude: 0),
        ])
    ) { try c.lookup("London, US") }
  }

  /// `wx aqi show` resolves as `wx show` does: the place book's place, then its readings
  /// ("Name, Country" from Open-Meteo, bare from the feed); without a catalogue, among the
  /// recorded names.
  @Test func airQualityNamesResolveLikeCities() throws {
    let s = Scratch()
    let store = AQIStore(path: s.file("aqi.gdbm"), writers: WriterLock.Policy(directory: s.path, deadline: 2))
    try store.record(
      [
        AQIReading(city: "Paris", aqi: 40), AQIReading(city: "Lyon, France", aqi: 30),
        AQIReading(city: "London, United Kingdom", aqi: 20),
        AQIReading(city: "London, Canada", aqi: 10),
      ], at: 1_000)
    let c = try CityIndexTests.build(Self.nested + [Self.city(50, "Lyon", "France")], in: s)
    let finder = PlaceFinder(catalogue: c, atlas: nil)
    func city(_ text: String) throws -> String? { try store.find(text, finder: finder)?.city }
    #expect(try city("Paris, France") == "Paris", "the feed's bare name, through the catalogue")
    // Two Parises in the catalogue: several places, as `wx show paris` says.
    #expect(throws: LookupError.self) { try store.find("paris", finder: finder) }
    #expect(try city("Lyon, FR") == "Lyon, France")
    #expect(try city("lyon") == "Lyon, France")
    #expect(try city("London, GB") == "London, United Kingdom")
    #expect(try city("lond, ca") == nil, "a prefix of the name is no name")
    #expect(try city("Tokyo") == nil)
    #expect(try city("London") == "London, United Kingdom", "the catalogue's London, as `wx show London`")
    // Without a catalogue, among the recorded names.
    #expect(throws: LookupError.self) { try store.find("London", finder: nil) }
    #expect(try store.find("paris", finder: nil)?.city == "Paris")
  }

  /// Two places of one name in one country are recorded as "Name, Region, Country"
  /// (``OpenMeteoAirQuality/names(_:regions:)``), and found by the words `wx show` takes,
  /// the place book's alternate names included.
  @Test func airQualityOfTwoPlacesOfOneNameInOneCountry() throws {
    func city(_ id: Int, _ name: String, _ country: String) -> City {
      City(
        id: id, name: name, country: country, latitude: 1, longitude: 1, temperatureC: nil, description: "", humidity: nil,
        windKmh: nil, forecast: [])
    }
    let cities = [
      city(1, "Springfield", "United States"), city(2, "Springfield", "United States"), city(3, "Springfield", "Canada"),
      city(4, "Paris", "France"), city(5, "Halle", "Belgium"), city(6, "Halle", "Belgium"),
    ]
    #expect(
      OpenMeteoAirQuality.names(cities, regions: ["Illinois", "Missouri", nil, nil, "Flanders", "Flanders"]) == [
        "Springfield, Illinois, United States", "Springfield, Missouri, United States", "Springfield, Canada", "Paris, France",
        "Halle, Belgium, id 5", "Halle, Belgium, id 6",
      ])
    let s = Scratch()
    let store = AQIStore(path: s.file("aqi.gdbm"), writers: WriterLock.Policy(directory: s.path, deadline: 2))
    try store.record(
      [
        AQIReading(city: "Springfield, Illinois, United States", aqi: 40),
        AQIReading(city: "Springfield, Missouri, United States", aqi: 30), AQIReading(city: "東京", aqi: 20),
      ], at: 1_000)
    let finder = PlaceFinder(
      catalogue: try CityIndexTests.build([WorldNamesTests.sample[3]], in: s), atlas: try Atlas(path: AtlasTests.built.path))
    func found(_ text: String) throws -> String? { try store.find(text, finder: finder)?.city }
    #expect(try found("Springfield, IL") == "Springfield, Illinois, United States")
    #expect(try found("springfield, missouri") == "Springfield, Missouri, United States")
    #expect(try found("tokio") == "東京", "a name of the place recorded, in the atlas")
    #expect(try found("Springfield, Ohio") == nil)
  }

  /// Completing 100k favourites is linear: the steps counted grow with n, not n².
  @Test func completingManyFavouritesIsLinear() throws {
    let n = 100_000
    let favourites = (0..<n).map {
      Favourite(name: "Town \($0 % 50_000)", country: $0 < 50_000 ? "France" : "Chile", id: $0, added: 0, sequence: UInt64($0))
    }
    let list = PlaceList(favourites: favourites)
    let resolver = Resolver(list)
    list.meter.steps = 0
    let offers = try resolver.completions("town 1", after: [], whole: false, limit: .max)
    #expect(offers.count == 2 * 11_111)  // "Town 1…" shared by both countries: each with its country
    #expect(list.meter.steps <= 4 * n, "\(list.meter.steps) steps for \(n) favourites")
  }
}
