import Foundation
import Testing

@testable import WXCore

/// The catalogue city each atlas place is, stored at sync (``AtlasLinks``): the same answer
/// as looking the place's name up in the catalogue, for every place; used only with the atlas
/// the links were worked out from; checked by doctor.
@Suite(.serialized) struct AtlasLinksTests {
  /// The shipped data's first `n` places (the largest).
  static func firstPlaces(_ n: Int) throws -> [Place] {
    var out: [Place] = []
    try AtlasData(path: atlasFile).forEach { e in if out.count < n { out.append(e.place) } }
    return out
  }

  static func city(_ id: Int, _ name: String, _ country: String, _ lat: Double, _ lon: Double) -> City {
    WorldNamesTests.city(id, name, country, lat, lon)
  }

  /// Cities made from the largest places, each kind of case the rule decides: near (its
  /// country's name or code), two near at different distances, one at the same spot under
  /// another spelling of the country (its code, or its name in capitals: the index's order
  /// breaks the tie), too far (60 km), of another country, of the name in other case, and
  /// names no place has.
  static func catalogue(from places: [Place]) -> [City] {
    var out: [City] = []
    func add(_ name: String, _ country: String, _ lat: Double, _ lon: Double) {
      out.append(city(out.count + 1, name, country, lat, lon))
    }
    // Each country's capitals spelling first: the index ranks it before the spelling of the
    // name, though both fold alike (first met), so of two cities of a name at one spot it
    // lists the capitals one first, wherever it is in the catalogue.
    var capitals: [String] = []
    for p in places where !capitals.contains(p.country.uppercased()) { capitals.append(p.country.uppercased()) }
    for c in capitals { add("Qwx Lead", c, 0, 0) }
    for (k, p) in places.enumerated() {
      let country = k % 2 == 0 ? p.country : p.countryCode
      switch k % 6 {
      case 0: add(p.name, country, p.latitude + 0.05, p.longitude)
      case 1:
        add(p.name, country, p.latitude + 0.2, p.longitude)
        add(p.name, country, p.latitude - 0.1, p.longitude)
      case 2:
        add(p.name, p.country, p.latitude, p.longitude + 0.1)
        add(p.name, k % 12 == 2 ? p.countryCode : p.country.uppercased(), p.latitude, p.longitude + 0.1)
      case 3: add(p.name, country, p.latitude + 0.54, p.longitude)
      case 4:
        add(p.name, p.countryCode == "FR" ? "Germany" : "France", p.latitude, p.longitude)
        add(p.name.uppercased(), country, p.latitude, p.longitude - 0.02)
      default: add(p.name + " Qwx", country, p.latitude, p.longitude)
      }
    }
    return out
  }

  static func write(_ cities: [City], in s: Scratch, atlasData: String?) throws -> Catalogue {
    let b = try StoreBuilder(finalPath: s.file("catalogue.gdbm"))
    let writer = CatalogueWriter(into: b.database, atlasData: atlasData)
    for c in cities { try writer.add(c) }
    try writer.finish(
      meta: CatalogueMeta(generation: 1, source: "test", provider: "test", syncedAt: 0, count: 0, isSample: false))
    try b.publish()
    return try Catalogue(path: s.file("catalogue.gdbm"))
  }

  /// The data's first 1,800 places and a catalogue made from them with its links, once for
  /// the suite (reading the data takes seconds in a debug build).
  static let places: [Place] = try! firstPlaces(1_800)
  static let cities: [City] = catalogue(from: places)
  static let linked: Scratch = {
    let s = Scratch()
    try! write(cities, in: s, atlasData: atlasFile).close()
    return s
  }()

  /// A copy of the linked catalogue, opened.
  static func linkedCopy() throws -> (Scratch, Catalogue) {
    let s = Scratch()
    try FileManager.default.copyItem(atPath: linked.file("catalogue.gdbm"), toPath: s.file("catalogue.gdbm"))
    return (s, try Catalogue(path: s.file("catalogue.gdbm")))
  }

  @Test func everyPlaceIsLinkedToTheCityTheLookupFinds() throws {
    let places = Self.places
    #expect(Self.cities.count > AtlasLinks.threshold)
    let (s, catalogue) = try Self.linkedCopy()
    defer { catalogue.close() }
    _ = s
    let atlas = try Atlas(path: AtlasTests.built.path)
    defer { atlas.close() }
    let finder = PlaceFinder(catalogue: catalogue, atlas: atlas)
    var linked = 0
    var kinds: Set<Int> = []
    // Every place of the data's first 2,500: those the catalogue was made from and those not.
    for position in 0..<2_500 {
      let place = try atlas.place(position)
      let expected = try finder.nearestCity(
        named: place.name, country: place, latitude: place.latitude, longitude: place.longitude)
      let link = try catalogue.link(ofPlace: position, atlas: atlas.meta)
      switch link {
      case .unknown: Issue.record("no links for \(place.name)")
      case .none: #expect(expected == nil, "\(place.name): the lookup finds \(expected?.id ?? 0)")
      case .city(let k):
        #expect(try catalogue.city(k) == expected, "\(place.name): linked to \(k)")
        linked += 1
        if position < places.count { kinds.insert(position % 6) }
      }
      #expect(try finder.ownNamedCity(place) == expected)
    }
    // Near, two near, the tie, another country beside one in other case: linked; too far,
    // no such name: not.
    #expect(kinds == [0, 1, 2, 4])
    #expect(linked > 1_000)
  }

  @Test func linksAreUsedOnlyWithTheAtlasTheyWereMadeFor() throws {
    let (s, catalogue) = try Self.linkedCopy()
    defer { catalogue.close() }
    _ = s
    let atlas = try Atlas(path: AtlasTests.built.path)
    defer { atlas.close() }
    #expect(try catalogue.link(ofPlace: 0, atlas: atlas.meta) != .unknown)
    var other = atlas.meta
    other.dataChecksum ^= 1
    #expect(try catalogue.link(ofPlace: 0, atlas: other) == .unknown)
    other = atlas.meta
    other.count += 1
    #expect(try catalogue.link(ofPlace: 0, atlas: other) == .unknown)
    // A small catalogue, or data that cannot be read: no links, and the lookup answers.
    let small = Scratch()
    let few = try Self.write(
      Array(Self.cities.prefix(AtlasLinks.threshold - 1)), in: small, atlasData: atlasFile)
    #expect(try few.link(ofPlace: 0, atlas: atlas.meta) == .unknown)
    few.close()
    let missing = Scratch()
    let unread = try Self.write(Self.cities, in: missing, atlasData: missing.file("atlas.bin"))
    #expect(try unread.link(ofPlace: 0, atlas: atlas.meta) == .unknown)
    let finder = PlaceFinder(catalogue: unread, atlas: atlas)
    let first = try atlas.place(0)
    #expect(try finder.ownNamedCity(first)?.name == first.name)
    unread.close()
  }

  @Test func doctorReadsEveryLinkAndADamagedBlockIsDamage() throws {
    let (s, catalogue) = try Self.linkedCopy()
    try catalogue.checkBlocks()
    catalogue.close()
    // A block whose links do not ascend from the head's first, sealed so its checksum holds.
    let db = try GDBMDatabase(path: s.file("catalogue.gdbm"), mode: .writer)
    var w = ByteWriter()
    w.varint(2)
    w.varint(3)
    w.varint(0)
    w.varint(0)
    w.varint(0)
    try db.store(CatalogueKey.block("L", 0), Envelope.seal(.atlasLinks, w.bytes))
    try db.close()
    let damaged = try Catalogue(path: s.file("catalogue.gdbm"))
    defer { damaged.close() }
    #expect(throws: StoreError.self) { try damaged.checkBlocks() }
    let atlas = try Atlas(path: AtlasTests.built.path)
    defer { atlas.close() }
    #expect(throws: StoreError.self) { try damaged.link(ofPlace: 0, atlas: atlas.meta) }
  }

  /// A link to a city of another name (two names whose hashes agree) is refused, and the
  /// place's city looked up.
  @Test func aLinkToACityOfAnotherNameIsRefused() throws {
    let (s, catalogue) = try Self.linkedCopy()
    let atlas = try Atlas(path: AtlasTests.built.path)
    defer { atlas.close() }
    let first = try #require(
      (0..<100).first { (try? catalogue.link(ofPlace: $0, atlas: atlas.meta)).map { $0 != .none } == true })
    let place = try atlas.place(first)
    let other = try #require((0..<Self.cities.count).first { Self.cities[$0].name != place.name })
    catalogue.close()
    let db = try GDBMDatabase(path: s.file("catalogue.gdbm"), mode: .writer)
    var w = ByteWriter()
    w.varint(1)
    w.varint(UInt64(first))
    w.varint(UInt64(other))
    try db.store(CatalogueKey.block("L", 0), Envelope.seal(.atlasLinks, w.bytes))
    try db.close()
    let relinked = try Catalogue(path: s.file("catalogue.gdbm"))
    defer { relinked.close() }
    #expect(try relinked.link(ofPlace: first, atlas: atlas.meta) == .city(other))
    let finder = PlaceFinder(catalogue: relinked, atlas: atlas)
    let looked = try finder.nearestCity(named: place.name, country: place, latitude: place.latitude, longitude: place.longitude)
    #expect(looked != nil && looked?.name == place.name)
    #expect(try finder.ownNamedCity(place) == looked)
  }

  /// Links of an older wx's format are not read, and doctor says so: the catalogue is
  /// healthy, and the next sync stores them again (places are looked up by name till then).
  @Test func doctorNamesLinksOfAnOlderFormat() throws {
    let (s, catalogue) = try Self.linkedCopy()
    #expect(try catalogue.linksOfAnotherFormat() == false)
    catalogue.close()
    let path = s.file("catalogue.gdbm")
    let db = try GDBMDatabase(path: path, mode: .writer)
    var r = try Envelope.open(.atlasLinks, try #require(try db.fetch(AtlasLinks.head)))
    _ = try r.count()
    var w = ByteWriter()
    w.varint(UInt64(AtlasLinks.format - 1))
    w.raw(r.buffer[r.offset...])
    try db.store(AtlasLinks.head, Envelope.seal(.atlasLinks, w.bytes))
    try db.close()
    let doctor = Doctor(home: Home(directory: s.path, sampleCandidates: [sampleFile]))
    guard case .healthy(_, let detail) = doctor.checkCatalogue() else {
      Issue.record("\(doctor.checkCatalogue())")
      return
    }
    #expect(detail.contains("its atlas links are another wx's") && detail.contains("until the next sync"), "\(detail)")
    let old = try Catalogue(path: path)
    defer { old.close() }
    #expect(try old.linksOfAnotherFormat())
  }

  /// Doctor sees a damaged links head, and the repair rebuilds the catalogue from its records
  /// with its links made again (every city kept, the same link for the same place).
  @Test func doctorRepairsDamagedLinksAndLinksAgain() throws {
    let (s, catalogue) = try Self.linkedCopy()
    let atlas = try Atlas(path: AtlasTests.built.path)
    defer { atlas.close() }
    let before = try (0..<300).map { try catalogue.link(ofPlace: $0, atlas: atlas.meta) }
    catalogue.close()
    try CatalogueRepairTests.damage(s.file("catalogue.gdbm"), AtlasLinks.head)
    let doctor = Doctor(home: Home(directory: s.path, sampleCandidates: [sampleFile]))
    guard case .broken = doctor.checkCatalogue() else {
      Issue.record("the damage went unseen")
      return
    }
    let repair = try doctor.repairCatalogue(holding: try WriterLock(directory: s.path, deadline: 5))
    #expect(repair.recovered == Self.cities.count && repair.lost == 0)
    guard case .healthy = doctor.checkCatalogue() else {
      Issue.record("\(doctor.checkCatalogue())")
      return
    }
    let rebuilt = try Catalogue(path: s.file("catalogue.gdbm"))
    defer { rebuilt.close() }
    #expect(try (0..<300).map { try rebuilt.link(ofPlace: $0, atlas: atlas.meta) } == before)
    #expect(before.contains { if case .city = $0 { true } else { false } })
  }
}
