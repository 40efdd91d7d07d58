/// Orders `wx list` can page through.
package enum ListOrder: String, CaseIterable, Sendable {
  /// The provider's order (stable across runs).
  case catalogue
  /// Alphabetical by folded name, then country.
  case name
  /// Warmest first.
  case temperature
}

/// How a city argument resolved.
package enum Resolution: Equatable, Sendable {
  case found(index: Int, city: City)
  /// Several cities fit; the caller lists them and says how to pick one.
  case ambiguous([City])
  /// Nothing fits; the closest names, best first.
  case notFound(suggestions: [City])
}

/// One page of search results.
package struct SearchPage: Sendable {
  package var total: Int
  package var cities: [City]
}

/// A read-only view of the catalogue file. Open, answer, close: the handle holds a shared
/// GDBM lock on the published file only (writers never open it; they replace it).
package final class Catalogue {
  package let path: String
  package let meta: CatalogueMeta
  let db: GDBMDatabase
  /// Record blocks already read, by block number. An array, not a Dictionary: the first use
  /// of a Dictionary type costs a runtime conformance search (~50 µs) on the read path.
  private var blocks: [(number: Int, records: [ArraySlice<UInt8>], version: UInt8)] = []

  package init(path: String) throws(StoreError) {
    self.path = path
    db = try GDBMDatabase(path: path, mode: .reader)
    guard let raw = try db.fetch(CatalogueKey.meta) else {
      throw .damaged(path: path, detail: "the catalogue has no header record")
    }
    do throws(MalformedValue) {
      var r = try Envelope.open(.meta, raw)
      meta = try CatalogueMeta(decoding: &r)
    } catch {
      throw .damaged(path: path, detail: "the catalogue header is unreadable")
    }
  }

  package func close() { try? db.close() }

  /// Drops the record blocks read so far. A long-lived reader (`wx browse`) calls it so
  /// the cache stays a few blocks, not the whole file it has paged through.
  package func forgetBlocks() { blocks.removeAll(keepingCapacity: true) }

  /// How many record blocks are held (tests count the blocks a lookup reads).
  var blocksRead: Int { blocks.count }

  /// Folds text with the rules this catalogue's index was built with.
  func fold(_ s: String) -> [UInt8] { Fold.key(s, version: meta.foldVersion) }

  // MARK: Records

  /// The city at catalogue position `index`.
  package func city(_ index: Int) throws(StoreError) -> City {
    guard index >= 0 && index < meta.count else {
      throw .damaged(path: path, detail: "a reference points past the end of the catalogue")
    }
    let per = CatalogueKey.citiesPerBlock
    let b = index / per
    let records: [ArraySlice<UInt8>]
    let version: UInt8
    if let cached = blocks.first(where: { $0.number == b }) {
      (records, version) = (cached.records, cached.version)
    } else {
      (records, version) = try loadBlock(b)
      blocks.append((b, records, version))
    }
    guard index - b * per < records.count else {
      throw .damaged(path: path, detail: "record \(index) is missing")
    }
    do throws(MalformedValue) {
      var r = ByteReader(Array(records[index - b * per]))
      let city = try City(decoding: &r, version: version)
      guard r.isAtEnd else { throw MalformedValue() }
      return city
    } catch {
      throw .damaged(path: path, detail: "record \(index) is unreadable")
    }
  }

  private func loadBlock(_ b: Int) throws(StoreError) -> (records: [ArraySlice<UInt8>], version: UInt8) {
    try RecordBlock.load(db, b, .city, versions: CityRecord.readable, named: "record block")
  }

  package func cities(_ indexes: [Int]) throws(StoreError) -> [City] {
    var out: [City] = []
    out.reserveCapacity(indexes.count)
    for i in indexes { out.append(try city(i)) }
    return out
  }

  /// Every city in catalogue order (for small catalogues and checks).
  package func all() throws(StoreError) -> [City] { try cities(Array(0..<meta.count)) }

  /// Calls `body` with every city and its position, in catalogue order, holding one record
  /// block at a time (memory stays flat whatever the catalogue's size).
  package func forEachCity(_ body: (Int, City) throws(StoreError) -> Void) throws(StoreError) {
    for i in 0..<meta.count {
      try body(i, try city(i))
      if (i + 1) % CatalogueKey.citiesPerBlock == 0 { forgetBlocks() }
    }
  }

  // MARK: Pages

  /// Positions `offset ..< offset+limit` in `order`.
  package func page(order: ListOrder, offset: Int, limit: Int) throws(StoreError) -> [City] {
    let end = min(meta.count, offset + limit)
    guard offset < end else { return [] }
    switch order {
    case .catalogue: return try cities(Array(offset..<end))
    case .name: return try cities(try CityIndexReader(database: db).entries("n", offset..<end).map(\.ref))
    case .temperature: return try cities(try indexes("o", offset..<end))
    }
  }

  /// Rain-free cities, warmest first.
  package func dry(offset: Int, limit: Int) throws(StoreError) -> [City] {
    let end = min(meta.dryCount, offset + limit)
    guard offset < end else { return [] }
    return try cities(try indexes("h", offset..<end))
  }

  /// For `wx doctor`: throws unless the warmest-first and rain-free orders and both arrays of
  /// the search index are complete and point inside the catalogue, and no record block lies
  /// past the header's count (a header that undercounts would hide those records).
  package func checkOrders() throws(StoreError) {
    let warmest = meta.count > 0 ? try indexes("o", 0..<meta.count) : []
    let dry = meta.dryCount > 0 ? try indexes("h", 0..<meta.dryCount) : []
    guard warmest.count == meta.count, dry.count == meta.dryCount,
      warmest.allSatisfy({ $0 < meta.count }), dry.allSatisfy({ $0 < meta.count })
    else { throw .damaged(path: path, detail: "an order block is incomplete") }
    try checkCount()
    // Every entry of the search index's two arrays, 65,536 at a time.
    let reader = CityIndexReader(database: db)
    for (tag, total) in [("n" as Character, meta.nameEntries), ("w", meta.wordEntries)] {
      var k = 0
      while k < total {
        let end = min(total, k + (1 << 16))
        let entries = try reader.entries(tag, k..<end)
        guard entries.count == end - k, entries.allSatisfy({ $0.ref < meta.count }) else {
          throw .damaged(path: path, detail: "the search index is incomplete")
        }
        k = end
      }
    }
  }

  /// Throws if a record block lies past the header's count (a header that undercounts would
  /// hide those records).
  package func checkCount() throws(StoreError) {
    let per = CatalogueKey.citiesPerBlock
    if try db.fetch(CatalogueKey.block("c", (meta.count + per - 1) / per)) != nil {
      throw .damaged(path: path, detail: "records lie past the header's count")
    }
  }

  private func indexes(_ tag: Character, _ range: Range<Int>) throws(StoreError) -> [Int] {
    let per = CatalogueKey.indexesPerBlock
    var out: [Int] = []
    for b in (range.lowerBound / per)...((range.upperBound - 1) / per) {
      guard let raw = try db.fetch(CatalogueKey.block(tag, b)) else {
        throw .damaged(path: path, detail: "order block \(tag)\(b) is missing")
      }
      do throws(MalformedValue) {
        var r = try Envelope.open(.order, raw)
        let n = try r.count(limit: per)
        for k in 0..<n {
          let v = try r.count()
          if range.contains(b * per + k) { out.append(v) }
        }
      } catch {
        throw .damaged(path: path, detail: "order block \(tag)\(b) is unreadable")
      }
    }
    return out
  }

  // MARK: Search

  /// Cities whose name, or a later word of it, starts with `query` (folded).
  package func search(_ query: String, offset: Int, limit: Int) throws(StoreError) -> SearchPage {
    let q = fold(query)
    guard !q.isEmpty else { return SearchPage(total: 0, cities: []) }
    let reader = CityIndexReader(database: db)
    let match = try reader.match(q)
    let refs = try reader.page(match, queryLength: q.count, offset: offset, limit: limit)
    return SearchPage(total: match.total, cities: try cities(refs))
  }

  /// Folded names starting with `prefix`, for shell completion (name-start matches only).
  package func completions(_ prefix: String, limit: Int) throws(StoreError) -> [String] {
    // "Name, Co": the cities of that very name whose country the rest begins (or codes).
    if let comma = prefix.lastIndex(of: ",") {
      let typed = fold(String(prefix[prefix.index(after: comma)...]).trimmingSpaces)
      let lines = Countries.lines(naming: typed, version: meta.foldVersion)
      let named = try cities(try exactName(fold(String(prefix[..<comma]))))
      var seen = Set<String>()
      return named.filter { typed.isEmpty || Countries.fit(typed, fold($0.country), lines: lines, version: meta.foldVersion) != .none }
        .map { "\($0.name), \($0.country)" }.filter { seen.insert($0).inserted }
    }
    let q = fold(prefix)
    let reader = CityIndexReader(database: db)
    let match = q.isEmpty ? CityIndex.Match(names: 0..<meta.count, words: 0..<0, duplicates: 0) : try reader.match(q)
    let found = try cities(try reader.entries("n", match.names.prefix(limit)).map(\.ref))
    // A name several countries share is offered with each country ("Paris, France"): the bare
    // name would be ambiguous to every command that takes it.
    var countries: [String: Set<String>] = [:]
    for c in found { countries[c.name, default: []].insert(c.country) }
    var seen = Set<String>()
    return found.map { (countries[$0.name]?.count ?? 0) > 1 ? "\($0.name), \($0.country)" : $0.name }
      .filter { seen.insert($0).inserted }
  }
}
