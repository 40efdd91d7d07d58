import Foundation
import Testing

@testable import WXCore

/// The one resolver over the catalogue and the world atlas together (``WorldNames``): the
/// atlas built from the shipped data (``AtlasTests/built``), beside real catalogue files.
@Suite(.serialized) struct WorldNamesTests {
  static func city(_ id: Int, _ name: String, _ country: String, _ lat: Double, _ lon: Double) -> City {
    City(
      id: id, name: name, country: country, latitude: lat, longitude: lon, temperatureC: 1, description: "",
      humidity: nil, windKmh: nil, forecast: [])
  }

  /// Cities as the bundled sample writes them: London and Paris that are atlas places, a
  /// Paris of the United States, Tokyo written 東京, and a made-up city the atlas lacks.
  static let sample: [City] = [
    city(1, "London", "United Kingdom", 51.5074, -0.1278), city(2, "Paris", "France", 48.8566, 2.3522),
    city(3, "Paris", "United States", 33.6609, -95.5555), city(4, "東京", "Japan", 35.6762, 139.6503),
    city(5, "Toronto", "Canada", 43.6532, -79.3832), city(6, "Qwxville", "Nowhere", 10, 10),
  ]

  func finder(_ cities: [City], _ s: Scratch) throws -> PlaceFinder {
    PlaceFinder(catalogue: try CityIndexTests.build(cities, in: s), atlas: try Atlas(path: AtlasTests.built.path))
  }

  func found(_ r: PlaceResolution) -> Found? {
    if case .found(let f, _, _) = r { return f }
    return nil
  }

  @Test func catalogueCitiesAndAtlasPlacesResolveAsOne() throws {
    let s = Scratch()
    let f = try finder(Self.sample, s)
    defer { f.atlas?.close() }
    // A catalogue city that is an atlas place: its weather, with the place's region.
    let london = try f.lookup("London")
    #expect(london.found.city?.id == 1 && london.found.place?.region == "England")
    let gb = try f.lookup("London, GB").found
    #expect(gb.city?.id == 1)
    let ontario = try f.lookup("London, Ontario").found
    #expect(ontario.city == nil && ontario.place?.region == "Ontario" && ontario.place?.countryCode == "CA")
    // The 10× rule: Paris, France, with its weather, and how many share the name.
    let paris = try f.lookup("Paris")
    #expect(paris.found.city?.id == 2 && paris.found.place?.countryCode == "FR")
    #expect(paris.sharing == (try f.names.named("Paris").count) - 1 && paris.sharing >= 10)
    // The catalogue's own answer first: "Paris, US" is the sample's city with weather.
    #expect(try f.lookup("Paris, US").found.city?.id == 3)
    #expect(try f.lookup("3").found.city?.id == 3)
    // Regions, US state codes.
    for (typed, region) in [
      ("Springfield, Illinois", "Illinois"), ("Springfield, IL", "Illinois"), ("Portland, OR", "Oregon"),
      ("Portland, Maine", "Maine"), ("London, Ohio", "Ohio"),
    ] {
      #expect(try f.lookup(typed).found.place?.region == region, "\(typed)")
    }
    // 21 Springfields, none ten times the next: the candidates, largest first.
    guard case .ambiguous(let springs) = try f.resolve("Springfield") else {
      Issue.record("Springfield resolved")
      return
    }
    let people = springs.filter { $0.name == "Springfield" }.compactMap(\.population)
    #expect(people.count >= 21 && people == people.sorted(by: >))
    // A catalogue city in another script is the atlas place where it is: tokyo finds 東京.
    let tokyo = try f.lookup("tokyo").found
    #expect(tokyo.city?.id == 4 && tokyo.place?.name == "Tokyo")
    #expect(try f.lookup("Tokyo, Japan").found.city?.id == 4)
    // A made-up catalogue city the atlas lacks is still found, without a place.
    let made = try f.lookup("Qwxville").found
    #expect(made.city?.id == 6 && made.place == nil)
  }

  /// A typo whose first letter is wrong, missing or extra finds what was meant, larger
  /// places first; a typo of a city beats a prefix of villages.
  @Test func typosOfTheFirstLetterFindLargePlaces() throws {
    let s = Scratch()
    let f = try finder(Self.sample, s)
    defer { f.atlas?.close() }
    for (typed, meant, country) in [
      ("ondon", "London", "GB"), ("urich", "Zürich", "CH"), ("xondon", "London", "GB"), ("pondon", "London", "GB"),
      ("pris", "Paris", "FR"), ("berln", "Berlin", "DE"), ("bberlin", "Berlin", "DE"),
    ] {
      let first = try f.names.closest(typed).places.first
      #expect(first?.name == meant && first?.place?.countryCode == country, "\(typed): \(String(describing: first?.name))")
    }
    for typed in ["ondon", "urich"] {
      guard case .notFound(let suggestions) = try f.resolve(typed) else {
        Issue.record("\(typed) resolved")
        continue
      }
      #expect(["London", "Zürich"].contains(suggestions.first?.name ?? ""), "\(typed)")
    }
    // A prefix the catalogue alone fits once loses to a typo of a far larger place.
    let ondong = try finder([Self.city(1, "Ondong Siau", "Indonesia", 2.74, 125.41)], Scratch())
    defer { ondong.atlas?.close() }
    guard case .notFound(let london) = try ondong.resolve("ondon") else {
      Issue.record("ondon resolved")
      return
    }
    #expect(london.first?.name == "London")
    #expect(try ondong.lookup("ondong").found.city?.id == 1)
    // The scan is bounded: the first letter's names and the other prefixes', per source.
    for typed in ["ondon", "s", "sa", "san", "aaaaaaaaaaaaaa", "x"] {
      var scanned = 0
      try f.names.source.typoNames(for: Fold.key(typed)) { _ in scanned += 1 }
      #expect(scanned <= 2 * (Resolver<WorldNames>.typoScan + Resolver<WorldNames>.otherTypoScan), "\(typed)")
      #expect(Resolver<WorldNames>.typoPrefixes(Fold.key(typed)).count <= 54)
    }
  }

  /// Runs of unquoted words over both: each name once, in order, whatever surrounds it.
  @Test func runsOfWordsNameCatalogueCitiesAndAtlasPlaces() throws {
    let s = Scratch()
    let f = try finder(Self.sample, s)
    defer { f.atlas?.close() }
    let names: [(typed: String, id: Int?, place: String?)] = [
      ("Ljubljana", nil, "Ljubljana"), ("New York City", nil, "New York City"), ("Buenos Aires", nil, "Buenos Aires"),
      ("Dar es Salaam", nil, "Dar es Salaam"), ("London, Ontario", nil, "London"), ("Portland, OR", nil, "Portland"),
      ("Paris, FR", 2, "Paris"), ("tokyo", 4, "Tokyo"), ("Qwxville", 6, nil), ("Rio de Janeiro", nil, "Rio de Janeiro"),
    ]
    var sequences: [[Int]] = names.indices.map { [$0] }
    for a in names.indices { for b in names.indices where a != b { sequences.append([a, b]) } }
    var rng = SplitMix64(state: 24)
    for _ in 0..<60 {
      let three = (0..<3).map { _ in Int(rng.next() % UInt64(names.count)) }
      if Set(three).count == 3 { sequences.append(three) }
    }
    for seq in sequences {
      let words = seq.flatMap { names[$0].typed.split(separator: " ").map(String.init) }
      let got = try f.lookup(words: words)
      #expect(got.map(\.name) == seq.map { names[$0].typed }, "\(words)")
      for (g, k) in zip(got, seq) {
        #expect(g.found.city?.id == names[k].id && g.found.place?.name == names[k].place, "\(words): \(names[k].typed)")
      }
    }
    // A name twice is one place; two places of one name and country are two.
    #expect(try f.lookup(words: ["Paris", "Paris"]).count == 1)
    let springs = try f.lookup(words: ["Springfield,", "IL", "Springfield,", "MO"])
    #expect(springs.map { $0.found.place?.stateCode } == ["IL", "MO"])
    // Removing a favourite by a name only the atlas knows it by: tokyo is the sample's 東京.
    let favourites = [Favourite(name: "東京", country: "Japan", id: 4, added: 0, sequence: 1)]
    #expect(try FavouritesStore.favourites(named: ["tokyo"], among: favourites, places: f) == [favourites[0]])
  }

  /// Every sampled atlas place, typed "Name", "Name, Region", "Name, ST", against the rules
  /// worked out from the data itself: the one place of a name; the largest when it has ten
  /// times the next; else the candidates; a region or state code that only it has there.
  @Test func sampledPlacesResolveAsTheDataSays() throws {
    let s = Scratch()
    let f = try finder([Self.city(1, "Qwxville", "Nowhere", 10, 10)], s)
    defer { f.atlas?.close() }
    var byName: [[UInt8]: [Place]] = [:]
    var sample: [Place] = []
    var rng = SplitMix64(state: 2024)
    var all: [Place] = []
    var spots = AtlasWriter.SameSpot()  // a place listed twice at one spot is the one kept
    try AtlasData(path: atlasFile).forEach { e in
      all.append(e.place)
      if let kept = spots.twin(of: e.place, key: Fold.key(e.place.name)) {
        let key = Fold.key(e.place.name)
        if !(byName[key] ?? []).contains(where: { $0.position == kept }) { byName[key, default: []].append(all[kept]) }
        return
      }
      for key in Set([Fold.key(e.place.name)] + e.alternateNames.map { Fold.key($0) }) {
        byName[key, default: []].append(e.place)
      }
      if rng.next() % 400 == 0 || e.place.name == "Springfield" || e.place.name == "Paris" { sample.append(e.place) }
    }
    for (key, position) in unqualifiedNames(all, within: PlaceFinder.sameTown) + aliasNames(all)
    where !(byName[key] ?? []).contains(where: { $0.position == position }) {
      byName[key, default: []].append(all[position])
    }
    #expect(sample.count > 300)
    for p in sample where !p.name.allSatisfy(\.isASCIIDigit) && !p.name.contains(",") {
      // The rule, the slow way: the one place of the name; else the largest when it has ten
      // times the next; else the one spelled as typed; else the largest of those spelled so
      // when it has ten times the next of them; else the candidates.
      // With the places of its name's St/Saint/Sankt (Mt/Mount, Ft/Fort) spellings: the n-th
      // of each group's words at once.
      let key = Fold.key(p.name)
      var named = byName[key]!
      let groups = [["st", "saint", "sankt"], ["ste", "sainte"], ["mt", "mount"], ["ft", "fort"]]
      let words = String(decoding: key, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false).map(String.init)
      for n in 0..<3 {
        let other = Array(
          words.map { w in groups.first { $0.contains(w) }.map { n < $0.count ? $0[n] : w } ?? w }.joined(separator: " ").utf8)
        if other != key { named += (byName[other] ?? []).filter { o in !named.contains { $0.position == o.position } } }
      }
      let all = named.sorted { $0.population > $1.population }
      let literal = all.filter { $0.name.lowercased() == p.name.lowercased() }
      func dominates(_ list: [Place]) -> Bool { list.count > 1 && list[0].population >= 10 * max(list[1].population, 1) }
      // Small places only, and a place the name begins (as search ranks them) ten times
      // larger than each: listed, not taken.
      // Unless the largest place begun so dwarfs every other too: taken (`tok` is Tokyo).
      var dwarfed = false
      var leader: Place? = nil
      if all[0].population < 100_000 {
        let begun = try f.search(String(decoding: key, as: UTF8.self), offset: 0, limit: 6, variants: false).items
        dwarfed = (begun.compactMap { $0.place?.population }.max() ?? 0) >= 10 * max(all[0].population, 1)
        if dwarfed, let first = begun.first?.place,
          (begun.dropFirst().map { $0.population ?? 0 } + all.map(\.population)).allSatisfy({
            10 * max($0, 1) <= first.population
          })
        {
          leader = first
        }
      }
      let literalDwarfed = literal.count == 1 && all[0].population >= 10 * max(literal[0].population, 1)
      let expected: (place: Place, sharing: Int)? =
        dwarfed
        ? leader.map { ($0, 0) }
        : all.count == 1
          ? (all[0], 0)
          : dominates(all)
            ? (all[0], all.count - 1)
            : literal.count == 1
              ? (literalDwarfed ? nil : (literal[0], all.count - 1))
              : dominates(literal) ? (literal[0], all.count - 1) : nil
      var sharing = 0
      switch try f.names.resolve(p.name, sharing: &sharing) {
      case .one(let got):
        #expect(expected != nil, "\(p.name): one place, though none dominates")
        #expect(got.place?.geonameID == expected?.place.geonameID, "\(p.name)")
        #expect(sharing == expected?.sharing, "\(p.name)")
      case .several(let got):
        #expect(expected == nil, "\(p.name)")
        let ids = Set(got.compactMap { $0.place?.geonameID })
        #expect(dwarfed ? ids.isSuperset(of: all.map(\.geonameID)) : ids == Set(all.map(\.geonameID)), "\(p.name)")
      case .none: Issue.record("\(p.name): not found")
      }
      // A region only it has among the places of its name, and not a country's name.
      if let region = p.region, all.filter({ Fold.key($0.region ?? "") == Fold.key(region) }).count == 1,
        Countries.lines(naming: Fold.key(region), version: Fold.version).isEmpty,
        !all.contains(where: { Fold.key($0.country).starts(with: Fold.key(region)) })
      {
        let got = found(try f.resolve("\(p.name), \(region)"))
        #expect(got?.place?.geonameID == p.geonameID, "\(p.name), \(region)")
      }
      // A US state code only it has there, and no country's code (`CA` is Canada's too).
      if let code = p.stateCode, all.filter({ $0.stateCode == code }).count == 1,
        Countries.lines(naming: Fold.key(code), version: Fold.version).isEmpty
      {
        let got = found(try f.resolve("\(p.name), \(code)"))
        #expect(got?.place?.geonameID == p.geonameID, "\(p.name), \(code)")
      }
    }
  }

  /// The rule of a bare name within a qualifier: a small place of the name is no answer
  /// beside a city of the qualifier the name begins (`Newcastle, UK` was Northern Ireland's
  /// Newcastle, 7,444 people); a town is (`Springfield, NY` is not Springfield Gardens).
  /// Newcastle upon Tyne is named Newcastle too (the name before its joiner), with forty
  /// times the people: it is the answer.
  @Test func aSmallPlaceOfTheNameIsNoAnswerBesideACityTheNameBegins() throws {
    let s = Scratch()
    let f = try finder(Self.sample, s)
    defer { f.atlas?.close() }
    for typed in ["Newcastle, UK", "newcastle, gb", "newcastle, england"] {
      #expect(found(try f.resolve(typed))?.name == "Newcastle upon Tyne", "\(typed)")
    }
    // Bare, it is among the Newcastles, by size.
    guard case .ambiguous(let listed) = try f.resolve("newcastle") else {
      Issue.record("newcastle: one place or none")
      return
    }
    #expect(listed.map(\.name).prefix(3) == ["Newcastle", "Newcastle", "Newcastle upon Tyne"], "\(listed)")
    #expect(listed.contains { $0.place?.region == "Northern Ireland" }, "\(listed)")
    #expect(found(try f.resolve("Springfield, NY"))?.place?.geonameID == 5_139_283)
    #expect(found(try f.resolve("Newcastle, Northern Ireland"))?.place?.region == "Northern Ireland")
    // No place there named so, nor beginning so: one whose later words are the name.
    #expect(found(try f.resolve("Hull, UK"))?.name == "Kingston upon Hull")
    #expect(found(try f.resolve("hull, england"))?.name == "Kingston upon Hull")
    #expect(found(try f.resolve("Hull, Canada"))?.place?.region == "Quebec")
  }

  /// Completion offers what every command takes: "Name, Region" for a name one country
  /// shares, "Name, Country" across countries, and after a comma the places it fits.
  @Test func completionQualifiesSharedNames() throws {
    let s = Scratch()
    let f = try finder(Self.sample, s)
    defer { f.atlas?.close() }
    let springs = try f.names.completions("springfi", limit: 200)
    #expect(springs.contains("Springfield, Illinois") && springs.contains("Springfield, Missouri"))
    #expect(!springs.contains("Springfield"))
    #expect(try f.names.completions("Springfield, Il", limit: 200) == ["Springfield, Illinois"])
    #expect(try f.names.completions("Portland, OR", limit: 200) == ["Portland, Oregon"])
    #expect(try f.names.completions("Springfield, MO", limit: 200) == ["Springfield, MO"])
    // A region's name from its first letter (the helpers' pass: `Springfield, Mi` offered
    // nothing until its third letter).
    let m = try f.names.completions("Springfield, M", limit: 200)
    #expect(
      m.contains("Springfield, Missouri") && m.contains("Springfield, Massachusetts") && !m.contains("Springfield, Illinois"))
    #expect(try f.names.completions("Springfield, Mi", limit: 200).contains("Springfield, Michigan"))
    #expect(try f.names.completions("Portland, O", limit: 200).contains("Portland, Oregon"))
    #expect(try f.names.completions("ljub", limit: 200).first == "Ljubljana")
    #expect(try f.names.completions("Paris, Fr", limit: 200).contains("Paris, France"))
  }
}
