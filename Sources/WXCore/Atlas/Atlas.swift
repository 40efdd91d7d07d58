/// A read-only view of the atlas store (`atlas.gdbm`), built from the shipped data by
/// ``AtlasWriter``. Keys:
///
/// | key | value |
/// |---|---|
/// | `m` | ``AtlasMeta`` |
/// | `c` + block (u32 BE) | 16 places, largest first (``Place``) |
/// | `n`, `w`, `k`, `t` | the search index over the places' own names, as the catalogue's (``CityIndex``) |
/// | `g`, `g` + block (u32 BE) | each `g` block's first GeoNames id; 1,024 GeoNames ids, ascending, with their places' positions |
/// | `p` + folded name | for a name several places have, or an alternate name (Kiev: Kyiv): its places, own or alternate name, largest first, each with its record |
/// | `r` + folded prefix | for every prefix matching more than 32 entries: its number of places, of name-start matches, and its first ``AtlasWriter/rankedLength`` places in rank order |
package final class Atlas {
  package let path: String
  package let meta: AtlasMeta
  let db: GDBMDatabase
  var blocks: [(number: Int, records: [ArraySlice<UInt8>])] = []
  /// The `p` records read (``record(_:)``), found or not, the last ``recordsKept``: a search
  /// reads its query's twice (the ranking and the finder) and each listed place's name two or
  /// three times (its own city, its namesakes), a resolution a name's more often, each fetch
  /// a bucket and a value read from the file (`wx search par` at a million cities: 17 fetches
  /// for 5 names).
  private var records: [(key: [UInt8], found: [Place]?)] = []
  static let recordsKept = 64

  /// `scanning`: to read it whole (``check()``), the file mapped.
  package init(path: String, scanning: Bool = false) throws(StoreError) {
    self.path = path
    db = try GDBMDatabase(path: path, mode: scanning ? .scanner : .reader)
    guard let raw = try db.fetch(CatalogueKey.meta) else {
      try? db.close()
      throw .damaged(path: path, detail: "the atlas has no header record")
    }
    do throws(MalformedValue) {
      var r = try Envelope.open(.atlasMeta, raw)
      meta = try AtlasMeta(decoding: &r)
    } catch {
      try? db.close()
      throw .damaged(path: path, detail: "the atlas header is unreadable")
    }
  }

  package func close() { try? db.close() }

  func fold(_ s: String) -> [UInt8] { Fold.key(s, version: meta.foldVersion) }

  // MARK: Places

  /// The place at `position` (0 is the largest).
  package func place(_ position: Int) throws(StoreError) -> Place {
    guard position >= 0 && position < meta.count else {
      throw .damaged(path: path, detail: "a reference points past the end of the atlas")
    }
    let per = CatalogueKey.citiesPerBlock
    let b = position / per
    let records: [ArraySlice<UInt8>]
    if let cached = blocks.first(where: { $0.number == b }) {
      records = cached.records
    } else {
      records = try loadBlock(b)
      if blocks.count >= 16 { blocks.removeFirst() }
      blocks.append((b, records))
    }
    guard position - b * per < records.count else { throw .damaged(path: path, detail: "place \(position) is missing") }
    do throws(MalformedValue) {
      var r = ByteReader(Array(records[position - b * per]))
      let place = try Place(decoding: &r, position: position)
      guard r.isAtEnd else { throw MalformedValue() }
      return place
    } catch {
      throw .damaged(path: path, detail: "place \(position) is unreadable")
    }
  }

  func loadBlock(_ b: Int) throws(StoreError) -> [ArraySlice<UInt8>] {
    try RecordBlock.load(db, b, .places, versions: Envelope.schema...Envelope.schema, named: "place block").records
  }

  package func places(_ positions: [Int]) throws(StoreError) -> [Place] {
    var out: [Place] = []
    out.reserveCapacity(positions.count)
    for p in positions { out.append(try place(p)) }
    return out
  }

  // MARK: Search

  /// The places whose own or alternate name is exactly `name` (folded), largest first.
  package func named(_ name: String) throws(StoreError) -> [Place] {
    try namedPlaces(fold(name))
  }

  /// The places named `key` (folded), own or alternate name, largest first: a name several
  /// places share, or an alternate name, is one `p` record holding its places whole; any
  /// other is one place's own name, found through the index.
  package func namedPlaces(_ key: [UInt8]) throws(StoreError) -> [Place] {
    guard !key.isEmpty else { return [] }
    if let recorded = try record(key) { return recorded }
    let reader = CityIndexReader(database: db)
    let out = try reader.exactEntries(key, in: try reader.match(key).names).map(\.ref)
    return try places(Self.unique(out.sorted()))
  }

  /// How many of `keys` (folded, ascending as the index sorts them, each beginning with
  /// `prefix`) are a place's own name, from the index alone: one walk of its names from the
  /// prefix to the last key (a match and a trie walk each read a block apiece for every key).
  func countPlaceNames(_ keys: [[UInt8]], under prefix: [UInt8]) throws(StoreError) -> Int {
    guard let last = keys.last, !prefix.isEmpty else { return 0 }
    let reader = CityIndexReader(database: db)
    let names = try reader.match(prefix).names
    var (k, i, count) = (names.lowerBound, 0, 0)
    scan: while k < names.upperBound {
      let chunk = try reader.entries("n", k..<min(names.upperBound, k + CityIndex.blockSize))
      for e in chunk {
        while i < keys.count && keys[i].lexicographicallyPrecedes(e.key) { i += 1 }
        while i < keys.count && keys[i] == e.key {
          count += 1
          i += 1
        }
        if i == keys.count || last.lexicographicallyPrecedes(e.key) { break scan }
      }
      k += max(1, chunk.count)  // a damaged block of fewer entries than its range cannot stall it
    }
    return count
  }

  /// The places of `key`'s `p` record (``AtlasWriter``), or nil when it has none: it has one
  /// when several places have that name as their own, or it is an alternate name. Records
  /// read are kept: a resolution or a search asks for the same name more than once.
  func record(_ key: [UInt8]) throws(StoreError) -> [Place]? {
    guard !key.isEmpty else { return nil }
    // An index loop: no iterator or closure type to build at run time.
    var k = records.count - 1
    while k >= 0 {
      if records[k].key == key { return records[k].found }
      k -= 1
    }
    let found = try readRecord(key)
    if records.count >= Self.recordsKept { records.removeFirst() }
    records.append((key, found))
    return found
  }

  func readRecord(_ key: [UInt8]) throws(StoreError) -> [Place]? {
    guard !key.isEmpty, let raw = try db.fetch([UInt8(ascii: "p")] + key) else { return nil }
    do throws(MalformedValue) {
      var r = try Envelope.open(.namedPlaces, raw)
      let n = try r.count(limit: meta.count)
      var out: [Place] = []
      out.reserveCapacity(n)
      var previous = 0
      for k in 0..<n {
        let d = try r.count()
        guard k == 0 || d > 0 else { throw MalformedValue() }
        previous += d
        guard previous < meta.count else { throw MalformedValue() }
        out.append(try Place(decoding: &r, position: previous))
      }
      guard r.isAtEnd, n > 0 else { throw MalformedValue() }
      return out
    } catch {
      throw .damaged(path: path, detail: "a name's places are unreadable")
    }
  }

  /// The place of a GeoNames id, or nil: the `g` blocks' first ids (one fetch; 167 of them,
  /// scanned), then one block.
  package func place(geonameID id: Int) throws(StoreError) -> Place? {
    guard id > 0, let firsts = try geoNamesFirsts(), let b = firsts.lastIndex(where: { $0 <= id }) else { return nil }
    return try geoNamesBlock(b).first { $0.id == id }.map { (e) throws(StoreError) in try place(e.position) }
  }

  /// The `g` header: each `g` block's first GeoNames id; nil when the store has none.
  func geoNamesFirsts() throws(StoreError) -> [Int]? {
    guard let raw = try db.fetch([UInt8(ascii: "g")]) else { return nil }
    do throws(MalformedValue) {
      var r = try Envelope.open(.geoNamesIDs, raw)
      var firsts: [Int] = []
      var previous = 0
      for _ in 0..<(try r.count(limit: meta.count)) {
        previous += try r.count()
        firsts.append(previous)
      }
      guard r.isAtEnd else { throw MalformedValue() }
      return firsts
    } catch {
      throw .damaged(path: path, detail: "the GeoNames ids are unreadable")
    }
  }

  /// A `g` block's GeoNames ids, ascending, with their places' positions.
  func geoNamesBlock(_ b: Int) throws(StoreError) -> [(id: Int, position: Int)] {
    let damaged = StoreError.damaged(path: path, detail: "the GeoNames ids are unreadable")
    guard let raw = try db.fetch(CatalogueKey.block("g", b)) else { throw damaged }
    do throws(MalformedValue) {
      var r = try Envelope.open(.geoNamesIDs, raw)
      var out: [(id: Int, position: Int)] = []
      var id = 0
      for _ in 0..<(try r.count(limit: AtlasWriter.idsPerBlock)) {
        id += try r.count()
        let position = try r.count()
        guard position < meta.count else { throw MalformedValue() }
        out.append((id, position))
      }
      guard r.isAtEnd else { throw MalformedValue() }
      return out
    } catch {
      throw damaged
    }
  }

  /// The places of which `key` (folded) may be an alternate name, largest first: its `p`
  /// record's (a place named so by its own name is among them, and begins with `key`).
  func alternates(_ key: [UInt8]) throws(StoreError) -> [Place] {
    key.count < Self.shortestAlternate ? [] : try record(key) ?? []
  }

  /// An alternate name shorter than this (folded) finds no place: `pa`, an old name of
  /// Chongqing, is the start of Paris to whoever types it.
  package static let shortestAlternate = 3

  /// Places whose own name, or a later word of it, starts with `query`, or of which `query` is
  /// an alternate name: ranks
  /// `offset ..< offset+limit` (see ``AtlasPage``). A query that matches nothing as typed is
  /// tried as the catalogue's search tries it (``Resolver/keys(_:insertions:)``): an apostrophe
  /// or hyphen typed as a space or as nothing (`o fallon`, `l aquila`, `saintetienne`); not
  /// with `variants` false (the ``Resolver``, which tries them itself).
  package func search(_ query: String, offset: Int, limit: Int, variants: Bool = true) throws(StoreError) -> AtlasPage {
    let typed = fold(query)
    guard !typed.isEmpty, limit > 0 else { return AtlasPage(total: 0, nameMatches: 0, places: []) }
    var (q, total, names, ranked) = (typed, 0, 0, [Int]())
    var keys = Resolver<CatalogueNames>.keys(typed)
    while let k = keys.next() {
      (q, (total, names, ranked)) = (k, try ranking(k, upTo: offset + limit))
      if total > 0 || !variants { break }
    }
    let slice = offset < ranked.count ? Array(ranked[offset..<min(ranked.count, offset + limit)]) : []
    var out: [(place: Place, nameMatch: Bool)] = []
    for (k, p) in slice.enumerated() { out.append((try place(p), offset + k < names)) }
    return AtlasPage(total: total, nameMatches: names, places: out, key: total > 0 ? q : typed)
  }

  /// How many places match `q`, how many by a name start, and at least the first `n` positions
  /// in rank order (all of them when fewer). A place of which `q` is an alternate name is a
  /// name-start match.
  func ranking(_ q: [UInt8], upTo n: Int) throws(StoreError) -> (total: Int, names: Int, positions: [Int]) {
    let alternates = try self.alternates(q)
    if let raw = try db.fetch([UInt8(ascii: "r")] + q) {
      let stored: (total: Int, names: Int, positions: [Int])
      do throws(MalformedValue) {
        stored = try Self.decodeRanking(raw)
      } catch {
        throw .damaged(path: path, detail: "a search ranking is unreadable")
      }
      let ranked = adding(alternates, to: stored, q)
      if n <= ranked.positions.count || ranked.positions.count == ranked.total { return ranked }
    }
    // A small match (no ranking is stored for 32 entries or fewer), or a page past the stored
    // ranking: every entry of the match, ranked here.
    let reader = CityIndexReader(database: db)
    let match = try reader.match(q)
    let named = Self.unique(try reader.entries("n", match.names).map(\.ref).sorted())
    var seen = Set(named)
    var words: [Int] = []
    for e in try reader.entries("w", match.words) where seen.insert(e.ref).inserted { words.append(e.ref) }
    return adding(alternates, to: (named.count + words.count, named.count, named + words.sorted()), q)
  }

  /// `ranked` (the places matching `q` by their own names) with the places of which `q` is an
  /// alternate name moved or added to the name-start matches. `ranked.positions` may be the
  /// first part of the ranking only; what is returned is then a first part too.
  private func adding(
    _ alternates: [Place], to ranked: (total: Int, names: Int, positions: [Int]), _ q: [UInt8]
  ) -> (total: Int, names: Int, positions: [Int]) {
    guard !alternates.isEmpty else { return ranked }
    let listedNames = min(ranked.names, ranked.positions.count)
    var names = Array(ranked.positions[..<listedNames])
    var words = Array(ranked.positions[listedNames...])
    var total = ranked.total
    var nameCount = ranked.names
    for place in alternates {
      let p = place.position
      let (key, starts) = Fold.keyAndWordStarts(place.name)
      // Already a name-start match (a `p` record lists the places of its own name too).
      if key.starts(with: q) || names.contains(p) { continue }
      nameCount += 1
      if starts.contains(where: { key[$0...].starts(with: q) }) {
        words.removeAll { $0 == p }  // a later-word match until now
      } else {
        total += 1
      }
      names.append(p)
    }
    names.sort()
    if ranked.names > listedNames, let last = ranked.positions[..<listedNames].last {
      // Only the first names were listed: past the last of them, others may come first.
      return (total, nameCount, names.filter { $0 <= last })
    }
    return (total, nameCount, names + words)
  }

  static func decodeRanking(_ raw: [UInt8]) throws(MalformedValue) -> (total: Int, names: Int, positions: [Int]) {
    var r = try Envelope.open(.ranking, raw)
    let total = try r.count()
    let names = try r.count()
    let listed = try r.count(limit: AtlasWriter.rankedLength)
    let listedNames = try r.count(limit: listed)
    var positions: [Int] = []
    positions.reserveCapacity(listed)
    var previous = 0
    for k in 0..<listed {
      let d = try r.count()
      previous = k == 0 || k == listedNames ? d : previous + d
      positions.append(previous)
    }
    guard r.isAtEnd, names <= total, listed <= total, listedNames <= names else { throw MalformedValue() }
    return (total, names, positions)
  }

  /// `sorted` without repeats.
  static func unique(_ sorted: [Int]) -> [Int] {
    var out: [Int] = []
    out.reserveCapacity(sorted.count)
    for p in sorted where out.last != p { out.append(p) }
    return out
  }
}
