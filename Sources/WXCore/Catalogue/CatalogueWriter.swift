/// Writes a complete catalogue (records, orders and search index) into a new store file.
package enum CatalogueWriter {
  /// Writes `cities` in catalogue order into `db` (a fresh file the caller publishes).
  /// The meta record goes last: a file without it is incomplete.
  @discardableResult
  package static func write(_ cities: [City], meta: CatalogueMeta, into db: GDBMDatabase) throws(StoreError) -> CatalogueMeta {
    var meta = meta
    meta.count = cities.count
    let store = { (key: [UInt8], value: [UInt8]) throws(StoreError) in try db.store(key, value) }

    // Records, 16 per value, each length-prefixed so a reader decodes only the one it wants.
    let per = CatalogueKey.citiesPerBlock
    var b = 0
    while b * per < cities.count {
      var w = ByteWriter(capacity: per * 160)
      let slice = cities[(b * per)..<min(cities.count, (b + 1) * per)]
      w.varint(UInt64(slice.count))
      for city in slice { w.bytes(city.encoded()) }
      try store(CatalogueKey.block("c", b), Envelope.seal(.city, w.bytes, version: CityRecord.version))
      b += 1
    }

    // Ids, bucketed: the same id may appear twice (freetestapi's Canberra and Wellington).
    var buckets: [Int: [(Int, Int)]] = [:]
    for (index, city) in cities.enumerated() {
      buckets[city.id >> 8, default: []].append((city.id, index))
    }
    for (bucket, pairs) in buckets {
      var w = ByteWriter()
      w.varint(UInt64(pairs.count))
      for (id, index) in pairs {
        w.int(id)
        w.varint(UInt64(index))
      }
      try store(CatalogueKey.block("i", bucket), Envelope.seal(.idList, w.bytes))
    }

    // Warmest first, unknown temperatures last; ties in catalogue order. The rain-free list
    // keeps the same order.
    let warmest = cities.indices.sorted { a, b in
      let ta = cities[a].temperatureC ?? -.infinity
      let tb = cities[b].temperatureC ?? -.infinity
      return ta != tb ? ta > tb : a < b
    }
    try storeIndexes("o", warmest, store)
    var rainy: [String: Bool] = [:]  // few distinct descriptions: classify each once
    let dry = warmest.filter { i in
      let d = cities[i].description
      if let known = rainy[d] { return !known }
      let r = Condition(description: d).isRainy
      rainy[d] = r
      return !r
    }
    try storeIndexes("h", dry, store)

    let folded = cities.map { Fold.key($0.name) }
    let countries = cities.map { Fold.key($0.country) }
    let index = try CityIndex.build(
      names: folded, countries: countries, wordStarts: { Fold.wordStarts(of: cities[$0].name) }, store: store)

    meta.foldVersion = Fold.version
    meta.nameEntries = cities.count
    meta.wordEntries = index.wordEntries
    meta.dryCount = dry.count
    try store(CatalogueKey.meta, Envelope.seal(.meta, meta.encoded()))
    return meta
  }

  private static func storeIndexes(
    _ tag: Character, _ list: [Int], _ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
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
  }
}
