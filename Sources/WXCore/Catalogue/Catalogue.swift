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
  /// The atlas links' head once read (nil inside: the catalogue has none) and the last block
  /// read (``link(ofPlace:atlas:)``).
  var linkHead: AtlasLinks.Head??
  var linkBlock: (number: Int, value: [UInt8])?

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

  /// Record blocks a reader keeps (``city(_:)``).
  static let blocksKept = 4
  /// How many record blocks are held.
  var blocksHeld: Int { blocks.count }
  /// How many record blocks were read (tests count the blocks a lookup reads).
  private(set) var blocksRead = 0

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
      // A few blocks, the oldest out first: a reader asks a block again soon or never
      // (`wx list` reads on through one; a search's 40 cities are in 40 blocks). Keeping
      // each of them grew the heap by a page a block (80 of the 380 page faults of `wx
      // search par` at a million cities, with GDBM's cache below).
      if blocks.count >= Self.blocksKept { blocks.removeFirst() }
      blocks.append((b, records, version))
    }
    guard index - b * per < records.count else {
      throw .damaged(path: path, detail: "record \(index) is missing")
    }
    do throws(MalformedValue) {
      var r = ByteReader(Array(records[index - b * per]))
      var city = try City(decoding: &r, version: version)
      guard r.isAtEnd else { throw MalformedValue() }
      // A record of version 3 or before has no provenance of its own: the header's.
      if city.provenance == nil { city.provenance = .legacy(city, meta) }
      return city
    } catch {
      throw .damaged(path: path, detail: "record \(index) is unreadable")
    }
  }

  private func loadBlock(_ b: Int) throws(StoreError) -> (records: [ArraySlice<UInt8>], version: UInt8) {
    blocksRead += 1
    return try RecordBlock.load(db, b, .city, versions: CityRecord.readable, named: "record block")
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
    guard offset >= 0, offset < meta.count, limit > 0 else { return [] }
    let end = offset + min(limit, meta.count - offset)
    switch order {
    case .catalogue: return try cities(Array(offset..<end))
    case .name: return try cities(try CityIndexReader(database: db).entries("n", offset..<end).map(\.ref))
    case .temperature: return try cities(try indexes("o", offset..<end))
    }
  }

  /// Rain-free cities, warmest first.
  package func dry(offset: Int, limit: Int) throws(StoreError) -> [City] {
    guard offset >= 0, offset < meta.dryCount, limit > 0 else { return [] }
    let end = offset + min(limit, meta.dryCount - offset)
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
    try reader.checkEntries(names: meta.nameEntries, words: meta.wordEntries, below: meta.count, path: path)
  }

  /// For `wx doctor`: every block the file lists fetches and checks out under the kind its
  /// key names (records, id buckets, orders, search entries, country blocks, trie nodes, the
  /// latter two decoded as a lookup decodes them), and every trie node a lookup can ask for is
  /// there with its parent's ranges: whatever any command can read, doctor has read. A block
  /// of a tag this wx does not know (a newer wx's) need only be intact.
  package func checkBlocks() throws(StoreError) {
    let reader = CityIndexReader(database: db)
    for key in try db.keys() {
      guard let tag = key.first, let raw = try db.fetch(key) else {
        throw .damaged(path: path, detail: "a block it lists cannot be read")
      }
      let name = String(decoding: key.prefix(1), as: UTF8.self)
      let expected: Envelope.Kind?
      switch tag {
      case UInt8(ascii: "m"): expected = .meta
      case UInt8(ascii: "c"): expected = .city
      case UInt8(ascii: "i"): expected = .idList
      case UInt8(ascii: "o"), UInt8(ascii: "h"): expected = .order
      case UInt8(ascii: "n"), UInt8(ascii: "w"): expected = .entryBlock
      case UInt8(ascii: "k"): expected = .countryBlock
      case UInt8(ascii: "t"): expected = .trieNode
      case UInt8(ascii: "L"): expected = .atlasLinks
      default: expected = nil
      }
      let found = Envelope.kind(of: raw)
      guard found != nil, expected == nil || found == expected else {
        throw .damaged(path: path, detail: "a block (\(name)) is unreadable")
      }
      if tag == UInt8(ascii: "t") {
        _ = try reader.node(key[1...])
      } else if tag == UInt8(ascii: "k"), key.count == 5 {
        let b = Int(key[1]) << 24 | Int(key[2]) << 16 | Int(key[3]) << 8 | Int(key[4])
        _ = try reader.countries(b, count: try reader.block("n", b).count)
      }
    }
    try checkLinks()
    // The trie, from its root: each child above the burst threshold has its node.
    guard let root = try reader.node([][...]) else {
      throw .damaged(path: path, detail: "search index root is missing")
    }
    var pending: [([UInt8], CityIndexReader.Node)] = [([], root)]
    while let (prefix, node) = pending.popLast() {
      for child in node.children where child.names.count + child.words.count > CityIndex.burstThreshold {
        let below = prefix + [child.byte]
        guard let next = try reader.node(below[...]), next.names == child.names, next.words == child.words else {
          throw .damaged(path: path, detail: "a search index node is missing or wrong")
        }
        pending.append((below, next))
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

  /// Cities whose name, or a later word of it, starts with `query` (folded). A query that
  /// matches nothing as typed is tried with spaces left out (``Resolver/keys(_:insertions:)``): an
  /// apostrophe or hyphen typed as a space (`val d is` finds Val-d'Isère); not with `variants`
  /// false (the ``Resolver``, which tries them itself).
  /// `wholeUpTo`: when no more than that many cities match, all of them, whatever `limit`.
  package func search(_ query: String, offset: Int, limit: Int, wholeUpTo: Int = 0, variants: Bool = true) throws(StoreError)
    -> SearchPage
  {
    let window = try searchWindow(query, variants: variants)
    return SearchPage(
      total: window.total, cities: try cities(in: window, offset: offset, limit: limit, wholeUpTo: wholeUpTo))
  }

  /// What a search of `query` matches, from the index alone (no city read): ``search(_:offset:limit:wholeUpTo:variants:)``.
  package struct SearchWindow {
    /// The key that matched: the query folded, or the variant of it tried last.
    package var key: [UInt8]
    var match: CityIndex.Match
    package var total: Int { match.total }
  }

  package func searchWindow(_ query: String, variants: Bool = true) throws(StoreError) -> SearchWindow {
    let q = fold(query)
    guard !q.isEmpty else { return SearchWindow(key: q, match: .none) }
    let reader = CityIndexReader(database: db)
    var window = SearchWindow(key: q, match: .none)
    var keys = Resolver<CatalogueNames>.keys(q)
    while let k = keys.next() {
      window = SearchWindow(key: k, match: try reader.match(k))
      if window.total > 0 || !variants { break }
    }
    return window
  }

  /// The cities of a window's page: name starts first, then later words, each in name order.
  package func cities(in window: SearchWindow, offset: Int, limit: Int, wholeUpTo: Int = 0) throws(StoreError) -> [City] {
    guard window.total > 0 else { return [] }
    let whole = window.total <= wholeUpTo
    let refs = try CityIndexReader(database: db).page(
      window.match, queryLength: window.key.count, offset: whole ? 0 : offset, limit: whole ? max(window.total, 1) : limit)
    return try cities(refs)
  }

  /// The folded names of a window's first `limit` cities in name order (the index alone).
  package func firstNames(in window: SearchWindow, limit: Int) throws(StoreError) -> [[UInt8]] {
    let names = window.match.names
    guard !names.isEmpty, limit > 0 else { return [] }
    let range = names.lowerBound..<min(names.upperBound, names.lowerBound + limit)
    return try CityIndexReader(database: db).entries("n", range).map(\.key)
  }

  /// Of a window's first `limit` cities in name order, those named its key exactly, which come
  /// first: a search past ``PlaceFinder/catalogueMatches`` reads no others
  /// (``PlaceFinder/searchSpelled(_:offset:limit:variants:)``).
  package func exactCities(in window: SearchWindow, limit: Int) throws(StoreError) -> [City] {
    let entries = try CityIndexReader(database: db).exactEntries(window.key, in: window.match.names, limit: limit)
    return try cities(entries.map(\.ref))
  }

  /// What completes `prefix` on a command line (``Resolver/completions(_:limit:)``).
  package func completions(_ prefix: String, limit: Int) throws(StoreError) -> [String] {
    try resolver.completions(prefix, limit: limit)
  }
}
