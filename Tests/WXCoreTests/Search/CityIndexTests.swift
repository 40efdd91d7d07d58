import Foundation
import Testing

@testable import WXCore

/// Builds catalogues in real GDBM files and checks the trie against a brute-force scan.
@Suite struct CityIndexTests {
  static let syllables = [
    "pa", "ris", "sa", "o", "lo", "dz", "zü", "rich", "ber", "lin", "Łó", "new", "york", "sal", "em",
    "ho", "chi", "minh", "bad", "ba", "den", "san", "ta", "sé", "ñu", "東", "京", "ka", "ro",
  ]

  static func generated(_ n: Int, seed: UInt64) -> [City] {
    var rng = SplitMix64(state: seed)
    var out: [City] = []
    for i in 0..<n {
      var words: [String] = []
      for _ in 0..<(1 + Int(rng.next() % 3)) {
        var w = ""
        for _ in 0..<(1 + Int(rng.next() % 3)) { w += rng.pick(syllables) }
        words.append(rng.next() % 2 == 0 ? w.capitalized : w)
      }
      let sep = rng.next() % 4 == 0 ? "-" : " "
      let name = i % 50 == 0 && i > 0 ? out[i - 1].name : words.joined(separator: sep)  // some duplicates
      var city = City(
        id: i + 1, name: name, country: rng.pick(["France", "Åland", "Chile", "Japan"]), latitude: 0, longitude: 0,
        temperatureC: Double(Int(rng.next() % 600)) / 10 - 20, description: rng.pick(["Sunny", "Rain", "Cloudy"]),
        humidity: 50, windKmh: 10, forecast: [])
      // As a sync stores it: with its provenance (a record read back has one).
      city.provenance = Provenance(source: .freetestapi, observedAt: 1_795_431_600)
      out.append(city)
    }
    return out
  }

  /// Writes `cities` into `name` in `s`. `spillAbove` and `batch` set how the index builder
  /// works: the defaults sort everything at once in memory; `spillAbove: 0, batch: 1` moves
  /// every chunk to a file and sorts one first byte at a time.
  static func build(
    _ cities: [City], in s: Scratch, name: String = "catalogue.gdbm", spillAbove: Int = .max, batch: Int = .max,
    countries: Bool = true
  ) throws -> Catalogue {
    let b = try StoreBuilder(finalPath: s.file(name))
    let writer = CatalogueWriter(
      into: b.database, spillAbove: spillAbove, indexBatchEntries: batch, namesCarryCountries: countries)
    for city in cities { try writer.add(city) }
    try writer.finish(
      meta: CatalogueMeta(generation: 1, source: "test", provider: "test", syncedAt: 0, count: 0, isSample: false))
    try b.publish()
    return try Catalogue(path: s.file(name))
  }

  /// The documented order, computed the slow way.
  static func bruteForce(_ cities: [City], _ query: String) -> [Int] {
    let q = Fold.key(query)
    let folded = cities.map { Fold.key($0.name) }
    let rank = cities.indices.sorted { a, b in
      let c = CityIndex.compare(folded[a], folded[b])
      if c != 0 { return c < 0 }
      let d = CityIndex.compare(Fold.key(cities[a].country), Fold.key(cities[b].country))
      return d != 0 ? d < 0 : a < b
    }
    var position = [Int](repeating: 0, count: cities.count)
    for (r, i) in rank.enumerated() { position[i] = r }
    let names = rank.filter { folded[$0].starts(with: q) }
    var words: [(key: [UInt8], city: Int)] = []
    for i in cities.indices where !folded[i].starts(with: q) {
      if let start = Fold.wordStarts(of: cities[i].name).first(where: { folded[i][$0...].starts(with: q) }) {
        words.append((Array(folded[i][start...]), i))
      }
    }
    words.sort { a, b in
      let c = CityIndex.compare(a.key, b.key)
      return c != 0 ? c < 0 : position[a.city] < position[b.city]
    }
    return names + words.map(\.city)
  }

  /// Every key and value of a store, sorted by key.
  static func contents(_ path: String) throws -> [[UInt8]: [UInt8]] {
    let db = try GDBMDatabase(path: path, mode: .reader)
    var out: [[UInt8]: [UInt8]] = [:]
    for k in try db.keys() { out[k] = try db.fetch(k) }
    return out
  }

  /// The index built a batch at a time through a spill file is the index built at once in
  /// memory, value for value: a batch's positions, block boundaries across batches and the
  /// root's children all come out the same.
  @Test(arguments: [(0, 1), (1 << 10, 300), (0, 5000)])
  func spilledBatchesBuildTheSameIndex(spillAbove: Int, batch: Int) throws {
    let s = Scratch()
    var cities = Self.generated(3000, seed: 9)
    // Names whose keys fold to nothing or start with a control-free odd byte sort first.
    cities[5].name = "'"
    cities[6].name = "..."
    let inMemory = try Self.contents(Self.build(cities, in: s, name: "a.gdbm").path)
    let spilled = try Self.build(cities, in: s, name: "b.gdbm", spillAbove: spillAbove, batch: batch)
    #expect(try Self.contents(spilled.path) == inMemory)
    #expect(inMemory.count > 200)
    // The spill file has no name: nothing is left beside the stores.
    #expect(try FileManager.default.contentsOfDirectory(atPath: s.path).sorted() == ["a.gdbm", "b.gdbm"])
  }

  @Test func builderSpillsPastItsMemoryBound() throws {
    let s = Scratch()
    let builder = CityIndexBuilder(directory: s.path, spillAbove: 64 << 10, batchEntries: 100)
    for i in 0..<20_000 { try builder.add(Array("city \(i)".utf8), wordStarts: [5], country: "X") }
    #expect(builder.spilled)
    var stored = 0
    #expect(try builder.build(store: { _, _ in stored += 1 }) == 20_000)
    #expect(stored > 2 * 20_000 / CityIndex.blockSize)
  }

  @Test(arguments: [false, true])
  func trieAgreesWithABruteForceScanForRandomPrefixes(spilled: Bool) throws {
    let s = Scratch()
    let cities = Self.generated(4000, seed: 42)
    let catalogue = try spilled ? Self.build(cities, in: s, spillAbove: 0, batch: 64) : Self.build(cities, in: s)
    var rng = SplitMix64(state: 7)
    var queries = ["p", "pa", "par", "s", "sa", "ber", "zu", "zü", "lo", "Ło", "東", "new y", "a", "ta-", "x", "chi"]
    for _ in 0..<150 {
      let c = rng.pick(cities)
      let f = Array(c.name.unicodeScalars)
      let start = rng.next() % 3 == 0 ? (f.firstIndex(of: " ").map { $0 + 1 } ?? 0) : 0
      let len = 1 + Int(rng.next() % UInt64(max(1, f.count - start)))
      var q = ""
      q.unicodeScalars.append(contentsOf: f[start..<min(f.count, start + len)])
      if !Fold.key(q).isEmpty { queries.append(q) }
    }
    for q in queries {
      let expected = Self.bruteForce(cities, q)
      let all = try catalogue.search(q, offset: 0, limit: 100_000)
      #expect(all.total == expected.count, "total for \(q)")
      #expect(all.cities.map(\.id) == expected.map { cities[$0].id }, "order for \(q)")
      // Pages tile the result with no gaps or repeats: pages of 1 to 25, at most 60 of them
      // (each page reads the matches before it: "a" in pages of 1 was 2,000 searches).
      let per = max(1 + Int(rng.next() % 25), (expected.count + 59) / 60)
      var paged: [Int] = []
      var offset = 0
      while offset < expected.count {
        paged += try catalogue.search(q, offset: offset, limit: per).cities.map(\.id)
        offset += per
      }
      #expect(paged == expected.map { cities[$0].id }, "pages of \(per) for \(q)")
    }
  }

  @Test func rankingPutsNameStartsFirstAndListsEachCityOnce() throws {
    let s = Scratch()
    let names = [
      "York", "New York", "Yorktown", "Winston-Salem", "Salem", "Ho Chi Minh City", "Chicago", "Baden-Baden",
      "Bad Bad", "N'Djamena", "São Paulo", "São Tomé", "Zürich", "Zurich", "Łódź", "東京",
    ]
    let cities = names.enumerated().map { i, n in
      City(
        id: i, name: n, country: "X", latitude: 0, longitude: 0, temperatureC: 10, description: "", humidity: 1,
        windKmh: 1, forecast: [])
    }
    let c = try Self.build(cities, in: s)
    func search(_ q: String) throws -> [String] { try c.search(q, offset: 0, limit: 50).cities.map(\.name) }
    #expect(try search("york") == ["York", "Yorktown", "New York"])
    #expect(try search("salem") == ["Salem", "Winston-Salem"])
    #expect(try search("chi") == ["Chicago", "Ho Chi Minh City"])
    #expect(try search("baden") == ["Baden-Baden"])
    #expect(try search("bad") == ["Bad Bad", "Baden-Baden"])
    #expect(try search("djam") == ["N'Djamena"])
    #expect(try search("n'dj") == ["N'Djamena"])
    #expect(try search("sao") == ["São Paulo", "São Tomé"])
    #expect(try search("zur") == ["Zurich", "Zürich"] || search("zur") == ["Zürich", "Zurich"])
    #expect(try search("LOD") == ["Łódź"])
    #expect(try search("東") == ["東京"])
    #expect(try search("q").isEmpty)
  }

  @Test func resolvesNamesCountriesAndIds() throws {
    let s = Scratch()
    let cities = ["Paris|France", "Paris|United States", "Paris|Canada", "London|United Kingdom", "Zürich|Switzerland"]
      .enumerated().map { i, nc in
        let p = nc.split(separator: "|").map(String.init)
        return City(
          id: i == 4 ? 2 : i + 1, name: p[0], country: p[1], latitude: 0, longitude: 0, temperatureC: 1,
          description: "", humidity: 1, windKmh: 1, forecast: [])
      }
    let c = try Self.build(cities, in: s)
    guard case .ambiguous(let three) = try c.resolve("PARIS") else { Issue.record("not ambiguous"); return }
    #expect(three.count == 3)
    guard case .found(_, let fr) = try c.resolve("paris, fr") else { Issue.record("not found"); return }
    #expect(fr.country == "France")
    guard case .found(_, let z) = try c.resolve("zurich") else { Issue.record("zurich"); return }
    #expect(z.name == "Zürich")
    guard case .ambiguous(let two) = try c.resolve("2") else { Issue.record("id 2 should be ambiguous"); return }
    #expect(Set(two.map(\.name)) == ["Paris", "Zürich"])
    guard case .notFound(let suggestions) = try c.resolve("Londres") else { Issue.record("londres"); return }
    #expect(suggestions.map(\.name) == ["London"])
  }

  /// Name entries carry their city's country, so "Name, Country" reads the answer's record
  /// block only; a catalogue written before (no countries in its entries) answers the same.
  @Test func nameAndCountryReadOnlyTheAnswersRecordBlock() throws {
    let s = Scratch()
    var cities = Self.generated(3000, seed: 5)
    // One name in every country, far apart in the catalogue (each in a block of its own).
    for (k, country) in ["France", "Åland", "Chile", "Japan"].enumerated() {
      cities[100 + 700 * k].name = "Xanadu"
      cities[100 + 700 * k].country = country
    }
    let new = try Self.build(cities, in: s, name: "new.gdbm")
    let old = try Self.build(cities, in: s, name: "old.gdbm", countries: false)
    // The countries are blocks of their own beside the name blocks: an older reader, which
    // never asks for them, finds every value it knows unchanged.
    let newValues = try Self.contents(new.path)
    let oldValues = try Self.contents(old.path)
    #expect(newValues.filter { $0.key.first != UInt8(ascii: "k") } == oldValues)
    #expect(newValues.count > oldValues.count)
    for query in ["Xanadu, Chile", "xanadu, japan", "Xanadu, aland", "Xanadu, Fr", "Xanadu, Peru", "Xanadu"] {
      let a = Result { try new.lookup(query).index }.map { $0 }
      let b = Result { try old.lookup(query).index }.map { $0 }
      #expect("\(a)" == "\(b)", "\(query)")
    }
    for (query, country) in [("Xanadu, Chile", "Chile"), ("Xanadu, japan", "Japan")] {
      let fresh = try Catalogue(path: s.file("new.gdbm"))
      #expect(try fresh.lookup(query).city.country == country)
      #expect(fresh.blocksRead == 1, "\(query): \(fresh.blocksRead) record blocks")
      let before = try Catalogue(path: s.file("old.gdbm"))
      #expect(try before.lookup(query).city.country == country)
      #expect(before.blocksRead == 4, "an index without countries reads every candidate's block")
    }
    // A favourite is found by its identity the same way.
    let fresh = try Catalogue(path: s.file("new.gdbm"))
    #expect(try fresh.find(CityIdentity(name: "Xanadu", country: "Japan"))?.index == 2200)
    #expect(fresh.blocksRead == 1)
  }

  @Test func searchCostsPrefixFetchesNotAScan() throws {
    // A larger catalogue: the node for a prefix is one fetch; the page a handful of blocks.
    let s = Scratch()
    let cities = Self.generated(20_000, seed: 9)
    let c = try Self.build(cities, in: s)
    let page = try c.search("pa", offset: 0, limit: 20)
    #expect(page.cities.count == 20)
    #expect(page.total == Self.bruteForce(cities, "pa").count)
  }
}
