import Glibc

/// Builds the atlas store from the shipped data (``AtlasData``) into a fresh file the caller
/// publishes (``Home/buildAtlas(holding:)``).
///
/// Places are stored largest first, so a place's position is its rank by population. The
/// search index is the catalogue's (``CityIndexBuilder``) over the places' own names; each
/// alternate name is stored whole (its places in a `p` record, below), because people type an
/// exonym whole (Kiev, Cologne, Wien) and its prefixes would rank big cities ahead of places
/// whose own name starts so ("ljubl": Lublin is "Ljublin" in Slovene). Beside the index, every prefix matching more
/// than ``CityIndex/burstThreshold`` entries gets its ranking (`r` + prefix): its number of
/// places, how many match by a name start, and its first ``rankedLength`` places in rank
/// order (name starts, then later words, each largest first, a place once). So a search is
/// one fetch for the ranking plus the page's place blocks; a smaller match is ranked from its
/// entries (one or two blocks). A folded name that more than one place has, or that is an
/// alternate name, has its places whole (`p` + folded name → its places, largest first, each
/// with its record): naming one of them (`show "Springfield, Illinois"`, or the atlas place of
/// a catalogue city: Berlin) is one fetch, not a trie walk, entry and country blocks and a
/// place block for each of 21 Springfields. A name of one place only has no record (137,000
/// of the 179,000 names: records for all of them made the store 56 MiB, not 31, and its build
/// twice as long); it is found through the index. The records are 41,746 names' places, 5.5 MB.
package enum AtlasWriter {
  /// Bumped when the store's layout or ranking changes: a store of another version is rebuilt.
  /// 2: the `p` records (places by shared or alternate name) replace the `a` records; the
  /// `g` records (places by GeoNames id). 3: a name's qualifier in parentheses may be left out
  /// (``qualifiedNames(_:_:_:records:into:)``). 4: a place listed twice at the same spot is
  /// indexed once (``SameSpot``). 5: the name before a joiner and the aliases
  /// (AtlasWriter+ShortNames.swift).
  package static let version = 5
  /// GeoNames ids (with their places' positions) a `g` block holds.
  package static let idsPerBlock = 1024
  /// Places stored with each prefix's ranking: five pages of 20.
  package static let rankedLength = 100

  /// Writes every place of `data`, the index and the rankings into `db`; the header last.
  package static func write(_ data: AtlasData, into db: GDBMDatabase, now: Int64) throws(StoreError) -> AtlasMeta {
    let index = CityIndexBuilder(directory: FileSystem.directoryName(db.path))
    var names = CityIndex.PackedBytes(reserving: data.count + data.count / 4)
    var nameRefs: [Int32] = []
    var words = CityIndex.PackedBytes(reserving: data.count)
    var wordRefs: [Int32] = []
    // Alternate names (Kiev, Cologne): folded name -> its places, found when typed whole (their
    // `p` records).
    var alternates: [[UInt8]: [Int32]] = [:]
    var aliased: Set<Int> = []  // the aliases given (``alias(of:given:)``)
    // Places named with a qualifier in parentheses (Halle (Saale)): the name without it, folded.
    var qualified: [(base: [UInt8], position: Int32)] = []
    // Each place's record, by position, for the `p` records.
    var records = CityIndex.PackedBytes(reserving: data.count)
    var geonameIDs: [Int] = []  // by position
    var spots = SameSpot()
    var block = ByteWriter(capacity: 2048)
    var inBlock = 0
    var blockNumber = 0
    func flush() throws(StoreError) {
      guard inBlock > 0 else { return }
      var w = ByteWriter(capacity: block.bytes.count + 2)
      w.varint(UInt64(inBlock))
      w.raw(block.bytes)
      try db.store(CatalogueKey.block("c", blockNumber), Envelope.seal(.places, w.bytes))
      block.removeAll()
      inBlock = 0
      blockNumber += 1
    }
    func file(_ key: [UInt8], _ starts: [Int], _ position: Int) {
      names.append(key)
      nameRefs.append(Int32(position))
      for start in starts where start > 0 && start < key.count {
        words.append(key[start...])
        wordRefs.append(Int32(position))
      }
    }
    try data.forEach { (entry) throws(StoreError) in
      let place = entry.place
      precondition(place.position == records.count, "places come in position order")
      let record = place.encoded()
      records.append(record)
      geonameIDs.append(place.geonameID)
      block.bytes(record)
      inBlock += 1
      if inBlock == CatalogueKey.citiesPerBlock { try flush() }
      let (key, starts) = Fold.keyAndWordStarts(place.name)
      if let kept = spots.twin(of: place, key: key) {
        // Its name finds the place it repeats (``SameSpot``); its record and id stay.
        index.skip()
        // In ascending order, as every list of places is (their differences are stored): the
        // one kept is larger, so it may come before places already listed under this name.
        var listed = alternates[key] ?? []
        if !listed.contains(Int32(kept)) {
          listed.insert(Int32(kept), at: listed.firstIndex { $0 > Int32(kept) } ?? listed.count)
        }
        alternates[key] = listed
        return
      }
      try index.add(key, wordStarts: starts, country: place.country)
      file(key, starts, place.position)
      var seen = [key]
      if let base = Self.unqualified(place.name) ?? Self.beforeJoiner(place.name) {
        qualified.append((base, Int32(place.position)))
      }
      if let alias = Self.alias(of: place, given: &aliased), !seen.contains(alias) {
        seen.append(alias)
        alternates[alias, default: []].append(Int32(place.position))
      }
      for alternate in entry.alternateNames {
        let k = Fold.key(alternate)
        guard !k.isEmpty, !seen.contains(k) else { continue }
        seen.append(k)
        alternates[k, default: []].append(Int32(place.position))
      }
    }
    try flush()
    let store = { (key: [UInt8], value: [UInt8]) throws(StoreError) in try db.store(key, value) }
    let wordEntries = try index.build(store: store)
    let nameOrder = Rankings.sorted(names, nameRefs)
    qualifiedNames(qualified, names, nameRefs, nameOrder, records: records, into: &alternates)
    try Rankings(names: names, nameRefs: nameRefs, nOrder: nameOrder, words: words, wordRefs: wordRefs, places: data.count)
      .store(store)
    try storeNamedPlaces(names: names, nameRefs: nameRefs, order: nameOrder, alternates: alternates, records: records, store)
    try storeGeoNamesIDs(geonameIDs, store)
    let alternateNames = alternates.values.reduce(0) { $0 + $1.count }
    let meta = AtlasMeta(
      version: version, count: data.count, nameEntries: nameRefs.count, wordEntries: wordEntries,
      alternateNames: alternateNames, foldVersion: Fold.version, dataChecksum: data.checksum, builtAt: now)
    try db.store(CatalogueKey.meta, Envelope.seal(.atlasMeta, meta.encoded()))
    return meta
  }

  /// `name` without a qualifier in parentheses at its end, folded (`Halle (Saale)` → `halle`,
  /// `Frankfurt (Oder)` → `frankfurt`), or nil when it has none.
  static func unqualified(_ name: String) -> [UInt8]? {
    let u = Array(name.utf8)
    guard u.last == UInt8(ascii: ")") else { return nil }
    var k = u.count - 2
    while k > 0 && !(u[k - 1] == UInt8(ascii: " ") && u[k] == UInt8(ascii: "(")) { k -= 1 }
    guard k > 1 else { return nil }
    let base = Fold.key(String(decoding: u[..<(k - 1)], as: UTF8.self))
    return base.isEmpty || base == Fold.key(name) ? nil : base
  }

  /// Makes the name without its qualifier an alternate name of each place in `qualified`,
  /// found when typed whole and ranked by size (`halle`: Halle (Saale), 238,000 people, ten
  /// times the Halle of Westphalia), unless a larger place has that name as its own within
  /// ``PlaceFinder/sameTown`` (the districts `Zürich (Kreis 11)` are parts of Zürich, which
  /// `zurich` names alone). Each list it touches is left largest first, each place once.
  private static func qualifiedNames(
    _ qualified: [(base: [UInt8], position: Int32)], _ names: CityIndex.PackedBytes, _ nameRefs: [Int32], _ order: [Int32],
    records: CityIndex.PackedBytes, into alternates: inout [[UInt8]: [Int32]]
  ) {
    func place(_ p: Int32) -> Place? {
      var r = ByteReader(Array(records.bytes[records.range(Int(p))]))
      return try? Place(decoding: &r, position: Int(p))
    }
    var touched: Set<[UInt8]> = []
    for (base, position) in qualified {
      // The first name entry not below `base` (the entries are sorted by key).
      var lo = 0
      var hi = order.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if CityIndex.compare(Array(names.bytes[names.range(Int(order[mid]))]), base) < 0 { lo = mid + 1 } else { hi = mid }
      }
      guard let me = place(position) else { continue }
      var part = false
      while lo < order.count && names.bytes[names.range(Int(order[lo]))].elementsEqual(base) {
        let other = nameRefs[Int(order[lo])]
        if other < position, let o = place(other),
          Place.distance(o.latitude, o.longitude, me.latitude, me.longitude) <= PlaceFinder.sameTown
        {
          part = true
          break
        }
        lo += 1
      }
      guard !part else { continue }
      alternates[base, default: []].append(position)
      touched.insert(base)
    }
    for key in touched { alternates[key] = Array(Set(alternates[key] ?? [])).sorted() }
  }

  /// Writes the `p` records: for every folded name that several places have as their own
  /// (the name entries, walked in key order) or that is an alternate name, its places largest
  /// first, each once: the position's difference from the one before, then the place's record
  /// as the place blocks hold it.
  private static func storeNamedPlaces(
    names: CityIndex.PackedBytes, nameRefs: [Int32], order: [Int32], alternates: [[UInt8]: [Int32]],
    records: CityIndex.PackedBytes, _ store: ([UInt8], [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    var pending = alternates
    func write(_ key: [UInt8], _ positions: [Int32]) throws(StoreError) {
      var w = ByteWriter(capacity: 4 + 80 * positions.count)
      w.varint(UInt64(positions.count))
      var previous: Int32 = 0
      for p in positions {
        w.varint(UInt64(p - previous))
        previous = p
        w.raw(records.bytes[records.range(Int(p))])
      }
      try store([UInt8(ascii: "p")] + key, Envelope.seal(.namedPlaces, w.bytes))
    }
    var i = 0
    while i < order.count {
      let range = names.range(Int(order[i]))
      let key = Array(names.bytes[range])
      var positions: [Int32] = []
      while i < order.count && names.bytes[names.range(Int(order[i]))].elementsEqual(key) {
        let p = nameRefs[Int(order[i])]
        if positions.last != p { positions.append(p) }
        i += 1
      }
      if let more = pending.removeValue(forKey: key) {
        positions = Array(Set(positions + more)).sorted()
      } else if positions.count == 1 {
        continue  // one place, by its own name only: the index finds it
      }
      try write(key, positions)
    }
    // An alternate name's places came largest first, each once (`seen` in ``write(_:into:now:)``).
    for (key, positions) in pending { try write(key, positions) }
  }

  /// Writes the `g` records, a place's position by its GeoNames id (`wx show 3196359` is
  /// Ljubljana; an id picks one of two places that share a name and a region): blocks of
  /// ``idsPerBlock`` ids in ascending order (`g` + block number: each id's difference from the
  /// one before, then its position), and `g` alone, each block's first id, to find the block.
  private static func storeGeoNamesIDs(
    _ ids: [Int], _ store: ([UInt8], [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    let order = ids.indices.sorted { ids[$0] < ids[$1] }
    var firsts = ByteWriter(capacity: 4 * (order.count / idsPerBlock + 1))
    firsts.varint(UInt64((order.count + idsPerBlock - 1) / idsPerBlock))
    var previousFirst = 0
    var b = 0
    while b * idsPerBlock < order.count {
      let chunk = order[(b * idsPerBlock)..<min(order.count, (b + 1) * idsPerBlock)]
      var w = ByteWriter(capacity: 8 * chunk.count)
      w.varint(UInt64(chunk.count))
      var previous = 0
      for p in chunk {
        w.varint(UInt64(ids[p] - previous))
        previous = ids[p]
        w.varint(UInt64(p))
      }
      try store(CatalogueKey.block("g", b), Envelope.seal(.geoNamesIDs, w.bytes))
      firsts.varint(UInt64(ids[chunk.first!] - previousFirst))
      previousFirst = ids[chunk.first!]
      b += 1
    }
    try store([UInt8(ascii: "g")], Envelope.seal(.geoNamesIDs, firsts.bytes))
  }
}
