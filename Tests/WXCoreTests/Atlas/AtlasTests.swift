import Foundation
import Testing

@testable import WXCore

/// The world atlas built from the shipped Data/atlas.bin into a real GDBM file, once for the
/// suite, and checked against the data itself.
@Suite(.serialized) struct AtlasTests {
  /// One built atlas for every test: the one `make test` built with the release binary
  /// (``prebuiltShare``), else built here (which takes a while in a debug build).
  static let built: (scratch: Scratch, path: String) = {
    let s = Scratch()
    if let share = prebuiltShare { return (s, share + "/atlas.gdbm") }
    let path = s.file("atlas.gdbm")
    let b = try! StoreBuilder(finalPath: path)
    _ = try! AtlasWriter.write(try! AtlasData(path: atlasFile), into: b.database, now: 0)
    try! b.publish()
    return (s, path)
  }()

  func atlas() throws -> Atlas { try Atlas(path: Self.built.path) }

  func names(_ page: AtlasPage) -> [String] { page.places.map { "\($0.place.name), \($0.place.country)" } }

  @Test func findsPlacesByPrefixLargestFirst() throws {
    let a = try atlas()
    defer { a.close() }
    #expect(names(try a.search("ljub", offset: 0, limit: 1)) == ["Ljubljana, Slovenia"])
    #expect(names(try a.search("par", offset: 0, limit: 1)) == ["Paris, France"])
    let springs = try a.search("springfield", offset: 0, limit: 100)
    let exact = springs.places.filter { $0.place.name == "Springfield" }
    #expect(exact.count == 21)
    #expect(exact.map(\.place.population) == exact.map(\.place.population).sorted(by: >))
    #expect(exact.allSatisfy { $0.place.region != nil })
    #expect(exact.first?.place.region == "Missouri")
  }

  /// One lookup error, whichever names were asked: atlas places come back in it as candidates
  /// with their GeoNames ids, people and state codes (what tells them apart); a catalogue
  /// city's id only where it picks it alone.
  @Test func aNameOfSeveralPlacesThrowsTheOneLookupError() throws {
    let a = try atlas()
    defer { a.close() }
    let s = Scratch()
    let c = try CityIndexTests.build([], in: s)
    let finder = PlaceFinder(catalogue: c, atlas: a)
    do {
      _ = try finder.lookup("springfield")
      Issue.record("springfield named one place")
    } catch LookupError.ambiguous(let query, let candidates) {
      #expect(query == "springfield")
      #expect(candidates.count > 5 && candidates.allSatisfy(\.isPlace))
      #expect(candidates.first?.stateCode == "MO" && candidates.first?.region == "Missouri")
      #expect(candidates.allSatisfy { $0.id == nil && $0.population != nil })
    }
    do {
      _ = try finder.lookup("qquae")
      Issue.record("qquae named a place")
    } catch LookupError.notFound(_, let suggestions, let atlas) {
      #expect(atlas)
      #expect(suggestions.first.map { "\($0.name), \($0.country), \($0.geonameID ?? 0)" } == "Qquea, Peru, 3953762")
    }
  }

  @Test func alternateNamesRankAsThePlaceAndShowItsOwnName() throws {
    let a = try atlas()
    defer { a.close() }
    let cologne = names(try a.search("cologne", offset: 0, limit: 3))
    #expect(cologne.first == "Köln, Germany")
    #expect(cologne.dropFirst().allSatisfy { $0.hasPrefix("Cologne") })
    let kiev = names(try a.search("kiev", offset: 0, limit: 5))
    #expect(kiev.first == "Kyiv, Ukraine")
    #expect(kiev.contains { $0.hasPrefix("Kievskiy") })
    #expect(names(try a.search("wien", offset: 0, limit: 1)) == ["Vienna, Austria"])
    #expect(names(try a.search("munchen", offset: 0, limit: 1)) == ["Munich, Germany"])
  }

  /// Every rank of many prefixes, short and long, against a scan of the data.
  @Test func rankingMatchesABruteForceScan() throws {
    let a = try atlas()
    defer { a.close() }
    var names: [[UInt8]: [Int]] = [:]  // folded own name -> positions
    var alternates: [[UInt8]: [Int]] = [:]  // folded alternate name -> positions
    var words: [([UInt8], Int)] = []
    var spots = AtlasWriter.SameSpot()  // a place listed twice at one spot: its name finds the one kept
    try AtlasData(path: atlasFile).forEach { e in
      let (key, starts) = Fold.keyAndWordStarts(e.place.name)
      if let kept = spots.twin(of: e.place, key: key) {
        alternates[key, default: []].append(kept)
        return
      }
      names[key, default: []].append(e.place.position)
      for s in starts where s > 0 && s < key.count { words.append((Array(key[s...]), e.place.position)) }
      for a in e.alternateNames where Fold.key(a) != key { alternates[Fold.key(a), default: []].append(e.place.position) }
    }
    let queries = [
      "s", "sa", "san", "san j", "par", "new y", "lon", "x", "zz", "bad", "ka", "st p", "mo", "ü", "東",
      "kiev", "wien", "cologne", "pekin", "munchen", "praha", "firenze",
    ]
    for q in queries {
      let key = Fold.key(q)
      let byName = Set(
        names.filter { $0.key.starts(with: key) }.flatMap(\.value)
          + (key.count >= Atlas.shortestAlternate ? alternates[key] ?? [] : []))
      let byWord = Set(words.filter { $0.0.starts(with: key) }.map(\.1)).subtracting(byName)
      let expected = byName.sorted() + byWord.sorted()
      for (offset, limit) in [(0, 20), (80, 40), (200, 20)] {
        let page = try a.search(q, offset: offset, limit: limit)
        #expect(page.total == expected.count, "\(q)")
        #expect(page.nameMatches == byName.count, "\(q)")
        let want = offset < expected.count ? Array(expected[offset..<min(expected.count, offset + limit)]) : []
        #expect(page.places.map(\.place.position) == want, "\(q) \(offset)")
      }
    }
  }

  /// A name's places (`p` records) are the data's: every place whose own or alternate name
  /// folds to it, largest first, each once and the same as its place block holds; for one
  /// A name's qualifier in parentheses is left out only at its end, after a space, and only
  /// when something is left.
  @Test func aQualifierInParenthesesIsLeftOutOnlyAtTheEnd() {
    #expect(AtlasWriter.unqualified("Halle (Saale)") == Fold.key("Halle"))
    #expect(AtlasWriter.unqualified("Zürich (Kreis 11)") == Fold.key("Zurich"))
    #expect(AtlasWriter.unqualified("A (b (c))") != nil)
    for name in ["Halle", ")", "()", "(x)", " (x)", "Foo(Bar)", "' (x)", "Paris (", "(Saale) Halle"] {
      #expect(AtlasWriter.unqualified(name) == nil, "\(name)")
    }
    // A joiner: the name before the first one, when something is before it.
    #expect(AtlasWriter.beforeJoiner("Newcastle upon Tyne") == Fold.key("Newcastle"))
    #expect(AtlasWriter.beforeJoiner("Stoke-on-Trent") == Fold.key("Stoke"))
    #expect(AtlasWriter.beforeJoiner("Saint-Germain-en-Laye") == Fold.key("Saint-Germain"))
    #expect(AtlasWriter.beforeJoiner("Frankfurt am Main") == Fold.key("Frankfurt"))
    #expect(AtlasWriter.beforeJoiner("Alphen aan den Rijn") == Fold.key("Alphen"))
    #expect(AtlasWriter.beforeJoiner("Kingston upon Thames") == Fold.key("Kingston"))
    #expect(AtlasWriter.beforeJoiner("Kingston upon Hull") == nil, "Hull, not Kingston")
    for name in ["Hòa On", "upon Tyne", " upon x", "Boston", "Newcastle upon ", "am"] {
      #expect(AtlasWriter.beforeJoiner(name) == nil, "\(name)")
    }
  }

  /// name in 40 of the data's, and the names people share most.
  @Test func namedPlacesMatchTheData() throws {
    let a = try atlas()
    defer { a.close() }
    var named: [[UInt8]: [Int]] = [:]  // folded own or alternate name -> positions
    var all: [Place] = []
    var spots = AtlasWriter.SameSpot()  // a place listed twice at one spot: its name is the one kept
    try AtlasData(path: atlasFile).forEach { e in
      let key = Fold.key(e.place.name)
      all.append(e.place)
      if let kept = spots.twin(of: e.place, key: key) {
        named[key, default: []].append(kept)
        return
      }
      named[key, default: []].append(e.place.position)
      for alt in e.alternateNames where Fold.key(alt) != key && !Fold.key(alt).isEmpty {
        if named[Fold.key(alt)]?.last != e.place.position { named[Fold.key(alt), default: []].append(e.place.position) }
      }
    }
    for (key, position) in unqualifiedNames(all, within: PlaceFinder.sameTown) + aliasNames(all) {
      named[key, default: []].append(position)
    }
    let keys = named.keys.sorted { $0.lexicographicallyPrecedes($1) }
    var checked = 0
    for (k, key) in keys.enumerated() where k % 40 == 0 || (named[key]?.count ?? 0) >= 20 {
      let places = try a.namedPlaces(key)
      #expect(places.map(\.position) == Array(Set(named[key]!)).sorted(), "\(String(decoding: key, as: UTF8.self))")
      for p in places.prefix(3) { #expect(try a.place(p.position) == p) }
      checked += 1
    }
    #expect(checked > 3_000)
    #expect(try a.namedPlaces(Fold.key("no such place anywhere")).isEmpty)
    let springs = try a.named("Springfield")
    #expect(springs.count == 21, "\(springs.map(\.name))")
    #expect(springs.filter { $0.region == "Illinois" }.count == 1)
    #expect(try a.named("kiev").first?.name == "Kyiv")
  }

  @Test func checkFindsAFlippedByte() throws {
    let s = Scratch()
    let copy = s.file("atlas.gdbm")
    try FileManager.default.copyItem(atPath: Self.built.path, toPath: copy)
    try Atlas(path: copy).check()
    // Flip a byte inside a stored value: the envelope's CRC refuses it.
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: copy)))
    let needle = Array("Ljubljana".utf8)
    let at = try #require((0..<(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
    bytes[at] ^= 0x20
    try Data(bytes).write(to: URL(fileURLWithPath: copy))
    #expect(throws: StoreError.self) { try Atlas(path: copy).check() }
  }

  /// The data file's text is cleaned as sync cleans catalogue text: no control or bidi
  /// character is ever stored.
  @Test func textIsCleanedAsCatalogueTextIs() throws {
    func zigzag(_ v: Int) -> UInt64 { UInt64(bitPattern: Int64((v << 1) ^ (v >> 63))) }
    var w = ByteWriter()
    w.raw(Array("WXATLAS1".utf8))
    w.varint(1)
    w.string("XX")
    w.string("Evil\u{1B}]0;pwned\u{07}land")
    w.varint(1)
    w.string("Re\u{202E}gion")
    w.varint(1)
    w.string("Europe/Ljubljana")
    w.varint(1)
    w.varint(42)
    w.string("Bad\u{1B}[2JTown\u{200B}")
    for v in [0, 1, 0] { w.varint(UInt64(v)) }
    w.varint(zigzag(4_605_108))
    w.varint(zigzag(-1_450_513))
    w.varint(5000)
    w.string("")
    w.varint(1)
    w.string("Al\u{0}t")
    w.u32(CRC32.checksum(w.bytes))
    let s = Scratch()
    s.write("atlas.bin", w.bytes)
    var got: [AtlasData.Entry] = []
    try AtlasData(path: s.file("atlas.bin")).forEach { got.append($0) }
    let place = try #require(got.first?.place)
    #expect(place.name == "Bad [2JTown")
    #expect(place.country == "Evil ]0;pwned land")
    #expect(place.region == "Region")
    #expect(place.latitude == 46.05108 && place.longitude == -14.50513)
    #expect(got.first?.alternateNames == ["Al t"])
    // A time zone is handed to the C library only as a plain IANA name.
    #expect(Place.isZoneName("Europe/Ljubljana") && Place.isZoneName("America/Argentina/Buenos_Aires"))
    #expect(!Place.isZoneName("../../etc/passwd") && !Place.isZoneName("/etc/localtime") && !Place.isZoneName(""))
  }

  @Test func aDamagedDataFileIsRefused() throws {
    let s = Scratch()
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: atlasFile)))
    bytes[1000] ^= 1
    s.write("atlas.bin", bytes)
    #expect(throws: StoreError.self) { try AtlasData(path: s.file("atlas.bin")) }
    s.write("short.bin", Array("WXATLAS1".utf8))
    #expect(throws: StoreError.self) { try AtlasData(path: s.file("short.bin")) }
  }
}
