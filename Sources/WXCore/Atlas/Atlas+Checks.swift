/// `wx doctor`'s check of the atlas store: every value under its envelope, every entry
/// pointing at a place, every GeoNames id finding its place.
extension Atlas {
  /// For `wx doctor`: every place block and entry block reads back, and every entry points
  /// at a place.
  package func check() throws(StoreError) {
    // Every value under its envelope (the CRC catches a flipped byte anywhere).
    let kinds: [(UInt8, Envelope.Kind)] = [
      (UInt8(ascii: "m"), .atlasMeta), (UInt8(ascii: "c"), .places), (UInt8(ascii: "n"), .entryBlock),
      (UInt8(ascii: "w"), .entryBlock), (UInt8(ascii: "k"), .countryBlock), (UInt8(ascii: "t"), .trieNode),
      (UInt8(ascii: "r"), .ranking), (UInt8(ascii: "p"), .namedPlaces),
      (UInt8(ascii: "g"), .geoNamesIDs),
    ]
    for key in try db.keys() {
      guard let kind = kinds.first(where: { $0.0 == key.first })?.1, let raw = try db.fetch(key),
        (try? Envelope.open(kind, raw)) != nil
      else { throw .damaged(path: path, detail: "a value failed its checksum") }
    }
    let per = CatalogueKey.citiesPerBlock
    for b in 0..<((meta.count + per - 1) / per) {
      let records = try loadBlock(b)
      guard records.count == min(per, meta.count - b * per) else {
        throw .damaged(path: path, detail: "place block \(b) is incomplete")
      }
      for k in records.indices {
        do throws(MalformedValue) {
          var r = ByteReader(Array(records[k]))
          _ = try Place(decoding: &r, position: b * per + k)
        } catch {
          throw .damaged(path: path, detail: "place \(b * per + k) is unreadable")
        }
      }
    }
    if try db.fetch(CatalogueKey.block("c", (meta.count + per - 1) / per)) != nil {
      throw .damaged(path: path, detail: "places lie past the header's count")
    }
    // Every name's places decode, and every GeoNames id finds its place.
    for key in try db.keys() where key.first == UInt8(ascii: "p") {
      guard let places = try readRecord(Array(key.dropFirst())), places.allSatisfy({ $0.position < meta.count }) else {
        throw .damaged(path: path, detail: "a name's places are missing")
      }
    }
    try checkGeoNamesIDs()
    let reader = CityIndexReader(database: db)
    try reader.checkEntries(names: meta.nameEntries, words: meta.wordEntries, below: meta.count, path: path)
  }

  /// For `wx doctor`: the `g` blocks hold every place once, by ascending GeoNames id, each
  /// block's first id as the header says.
  func checkGeoNamesIDs() throws(StoreError) {
    let damaged = StoreError.damaged(path: path, detail: "the GeoNames ids are incomplete")
    let per = AtlasWriter.idsPerBlock
    guard let firsts = try geoNamesFirsts(), firsts.count == (meta.count + per - 1) / per else { throw damaged }
    var seen = [Bool](repeating: false, count: meta.count)
    var last = 0
    for (b, first) in firsts.enumerated() {
      let entries = try geoNamesBlock(b)
      guard entries.count == min(per, meta.count - b * per), entries.first?.id == first else { throw damaged }
      for e in entries {
        guard !seen[e.position], e.id >= last else { throw damaged }
        seen[e.position] = true
        last = e.id
      }
    }
  }
}
