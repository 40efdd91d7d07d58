/// Writes a complete catalogue (records, orders and search index) into a new store file,
/// record by record: ``add(_:)`` stores each full block of 16 records as it fills, so the
/// records themselves are never held; ``finish(meta:)`` then writes the id buckets, the
/// warmest and rain-free orders and the search index.
///
/// Kept per city until ``finish(meta:)``: its id, temperature and rain flag (17 bytes), its
/// folded name and the offsets of its later words (in flat arrays: the name's bytes plus
/// 4, and 2 a later word), its country as a shared folded key (8 bytes): about 45 bytes a
/// city with a 10-byte name, against several hundred for a decoded ``City``. ``finish(meta:)``
/// adds 4 bytes a city for each order it sorts, letting go of each array once written, then
/// what ``CityIndex/build(names:countries:wordStarts:store:)`` needs (8 bytes a city, 8 a
/// later word). The bound is stated, not flat: 91.6 MiB peak RSS for a sync of 1M cities.
package final class CatalogueWriter {
  private let db: GDBMDatabase
  /// The encoded cities of the block being filled (at most 16).
  private var block: [[UInt8]] = []
  private var blockNumber = 0
  package private(set) var count = 0
  private var ids: [Int] = []
  private var temperatures: [Double] = []
  private var rainFree: [Bool] = []
  private var names = CityIndex.PackedNames()
  private var wordStarts: [UInt16] = []
  private var wordEnds: [UInt32] = []
  private var countries: [[UInt8]] = []
  private var countryKeys: [String: [UInt8]] = [:]
  private var rainy: [String: Bool] = [:]  // few distinct descriptions: classify each once

  /// Writes into `db`, a fresh file the caller publishes.
  package init(into db: GDBMDatabase) { self.db = db }

  /// Writes `cities` in catalogue order into `db`. The meta record goes last: a file
  /// without it is incomplete.
  @discardableResult
  package static func write(_ cities: [City], meta: CatalogueMeta, into db: GDBMDatabase) throws(StoreError) -> CatalogueMeta {
    let writer = CatalogueWriter(into: db)
    for city in cities { try writer.add(city) }
    return try writer.finish(meta: meta)
  }

  /// Appends one city (catalogue order is the order of the calls).
  package func add(_ city: City) throws(StoreError) {
    block.append(city.encoded())
    if block.count == CatalogueKey.citiesPerBlock { try flushBlock() }
    ids.append(city.id)
    temperatures.append(city.temperatureC ?? -.infinity)  // unknown sorts last
    let d = city.description
    let wet = rainy[d] ?? Condition(description: d).isRainy
    rainy[d] = wet
    rainFree.append(!wet)
    names.append(Fold.key(city.name))
    for start in Fold.wordStarts(of: city.name) { wordStarts.append(UInt16(clamping: start)) }
    wordEnds.append(UInt32(wordStarts.count))
    if let key = countryKeys[city.country] {
      countries.append(key)
    } else {
      let key = Fold.key(city.country)
      countryKeys[city.country] = key
      countries.append(key)
    }
    count += 1
  }

  private func flushBlock() throws(StoreError) {
    guard !block.isEmpty else { return }
    // Each record length-prefixed, so a reader decodes only the one it wants.
    var w = ByteWriter(capacity: block.count * 160)
    w.varint(UInt64(block.count))
    for encoded in block { w.bytes(encoded) }
    try db.store(CatalogueKey.block("c", blockNumber), Envelope.seal(.city, w.bytes, version: CityRecord.version))
    block.removeAll(keepingCapacity: true)
    blockNumber += 1
  }

  /// Writes the last record block, the orders, the index and then `meta` (with its counts).
  @discardableResult
  package func finish(meta: CatalogueMeta) throws(StoreError) -> CatalogueMeta {
    try flushBlock()
    var meta = meta
    meta.count = count
    let store = { [db] (key: [UInt8], value: [UInt8]) throws(StoreError) in try db.store(key, value) }

    // Ids, bucketed by id >> 8, each bucket in catalogue order: the same id may appear twice
    // (freetestapi's Canberra and Wellington).
    var byBucket = Array(0..<Int32(count))
    byBucket.sort { a, b in
      let (x, y) = (ids[Int(a)] >> 8, ids[Int(b)] >> 8)
      return x != y ? x < y : a < b
    }
    var k = 0
    while k < byBucket.count {
      let bucket = ids[Int(byBucket[k])] >> 8
      var end = k
      while end < byBucket.count && ids[Int(byBucket[end])] >> 8 == bucket { end += 1 }
      var w = ByteWriter()
      w.varint(UInt64(end - k))
      for i in byBucket[k..<end] {
        w.int(ids[Int(i)])
        w.varint(UInt64(i))
      }
      try store(CatalogueKey.block("i", bucket), Envelope.seal(.idList, w.bytes))
      k = end
    }
    // What each step no longer needs is let go before the next, the index last and largest.
    ids = []

    // Warmest first, unknown temperatures last; ties in catalogue order. The rain-free list keeps the same order.
    byBucket = []
    var warmest = Array(0..<Int32(count))
    warmest.sort { a, b in
      let (x, y) = (temperatures[Int(a)], temperatures[Int(b)])
      return x != y ? x > y : a < b
    }
    try storeIndexes("o", warmest, store)
    temperatures = []
    let dryCount = try storeIndexes("h", warmest.filter { rainFree[Int($0)] }, store)
    warmest = []
    rainFree = []

    let wordEntries = try CityIndex.build(
      names: names, countries: countries,
      wordStarts: { [wordStarts, wordEnds] i in wordStarts[(i == 0 ? 0 : Int(wordEnds[i - 1]))..<Int(wordEnds[i])] },
      store: store)

    meta.foldVersion = Fold.version
    meta.nameEntries = count
    meta.wordEntries = wordEntries
    meta.dryCount = dryCount
    try store(CatalogueKey.meta, Envelope.seal(.meta, meta.encoded()))
    return meta
  }

  @discardableResult
  private func storeIndexes(
    _ tag: Character, _ list: [Int32], _ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) -> Int {
    let per = CatalogueKey.indexesPerBlock
    var b = 0
    while b * per < list.count {
      var w = ByteWriter(capacity: per * 3)
      let slice = list[(b * per)..<min(list.count, (b + 1) * per)]
      w.varint(UInt64(slice.count))
      for i in slice { w.varint(UInt64(i)) }
      try store(CatalogueKey.block(tag, b), Envelope.seal(.order, w.bytes))
      b += 1
    }
    return list.count
  }
}
