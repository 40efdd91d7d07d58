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
  private let db: GDBMDatabase
  /// Record blocks already read, by block number. An array, not a Dictionary: the first use
  /// of a Dictionary type costs a runtime conformance search (~50 µs) on the read path.
  private var blocks: [(number: Int, records: [ArraySlice<UInt8>])] = []

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

  /// Folds text with the rules this catalogue's index was built with.
  private func fold(_ s: String) -> [UInt8] { Fold.key(s, version: meta.foldVersion) }

  // MARK: Records

  /// The city at catalogue position `index`.
  package func city(_ index: Int) throws(StoreError) -> City {
    guard index >= 0 && index < meta.count else {
      throw .damaged(path: path, detail: "a reference points past the end of the catalogue")
    }
    let per = CatalogueKey.citiesPerBlock
    let b = index / per
    let records: [ArraySlice<UInt8>]
    if let cached = blocks.first(where: { $0.number == b }) {
      records = cached.records
    } else {
      records = try loadBlock(b)
      blocks.append((b, records))
    }
    guard index - b * per < records.count else {
      throw .damaged(path: path, detail: "record \(index) is missing")
    }
    do throws(MalformedValue) {
      var r = ByteReader(Array(records[index - b * per]))
      let city = try City(decoding: &r)
      guard r.isAtEnd else { throw MalformedValue() }
      return city
    } catch {
      throw .damaged(path: path, detail: "record \(index) is unreadable")
    }
  }

  private func loadBlock(_ b: Int) throws(StoreError) -> [ArraySlice<UInt8>] {
    guard let raw = try db.fetch(CatalogueKey.block("c", b)) else {
      throw .damaged(path: path, detail: "record block \(b) is missing")
    }
    do throws(MalformedValue) {
      var r = try Envelope.open(.city, raw)
      let n = try r.count(limit: CatalogueKey.citiesPerBlock)
      var out: [ArraySlice<UInt8>] = []
      for _ in 0..<n { out.append(try r.bytes()) }
      return out
    } catch {
      throw .damaged(path: path, detail: "record block \(b) is unreadable")
    }
  }

  package func cities(_ indexes: [Int]) throws(StoreError) -> [City] {
    var out: [City] = []
    out.reserveCapacity(indexes.count)
    for i in indexes { out.append(try city(i)) }
    return out
  }

  /// Every city in catalogue order (for small catalogues and checks).
  package func all() throws(StoreError) -> [City] { try cities(Array(0..<meta.count)) }

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
    let q = fold(prefix)
    let reader = CityIndexReader(database: db)
    let match = q.isEmpty ? CityIndex.Match(names: 0..<meta.count, words: 0..<0, duplicates: 0) : try reader.match(q)
    let refs = try reader.entries("n", match.names.prefix(limit)).map(\.ref)
    var seen = Set<String>()
    return try cities(refs).map(\.name).filter { seen.insert($0).inserted }
  }

  // MARK: Resolution

  /// Resolves what a person typed: an id, a name (case- and accent-insensitive), or
  /// "Name, Country". A prefix that fits exactly one city also resolves.
  package func resolve(_ text: String) throws(StoreError) -> Resolution {
    let query = text.trimmingSpaces
    guard !query.isEmpty else { return .notFound(suggestions: []) }
    if query.allSatisfy(\.isASCIIDigit), let id = Int(query) {
      let hits = try byID(id)
      if hits.count == 1 { return .found(index: hits[0], city: try city(hits[0])) }
      if hits.count > 1 { return .ambiguous(try cities(hits)) }
    }
    let exact = try exactName(fold(query))
    if exact.count == 1 { return .found(index: exact[0], city: try city(exact[0])) }
    if exact.count > 1 { return .ambiguous(try cities(exact)) }

    if let comma = query.lastIndex(of: ",") {
      let name = String(query[..<comma]).trimmingSpaces
      let country = fold(String(query[query.index(after: comma)...]).trimmingSpaces)
      let named = try exactName(fold(name))
      // Exact names and codes win over prefixes: "Sydney, AU" is Australia, not Austria.
      var fitting: [Int] = []
      var best = Countries.Fit.prefix
      for i in named {
        let fit = Countries.fit(country, fold(try city(i).country), fold: fold)
        if fit > best { (best, fitting) = (fit, []) }
        if fit == best { fitting.append(i) }
      }
      if fitting.count == 1 { return .found(index: fitting[0], city: try city(fitting[0])) }
      if fitting.count > 1 { return .ambiguous(try cities(fitting)) }
      if !named.isEmpty { return .notFound(suggestions: try cities(named)) }
    }

    let prefixed = try search(query, offset: 0, limit: 6)
    if prefixed.total == 1, let only = prefixed.cities.first {
      let index = try exactIndex(of: only)
      return .found(index: index, city: only)
    }
    if prefixed.total > 1 { return .ambiguous(prefixed.cities) }
    return .notFound(suggestions: try suggestions(for: query))
  }

  /// The closest names: results for the longest prefix of `query` that matches anything.
  ///
  /// The proper prefixes (1 ..< n scalars) are tried by binary search, not one by one (which
  /// costs time quadratic in the query's length): folding streams, so a shorter prefix's key is
  /// a prefix of a longer one's. Keys are empty up to some length and non-empty from there on,
  /// and from there on matches only shrink as the prefix grows.
  private func suggestions(for query: String) throws(StoreError) -> [City] {
    let scalars = Array(query.unicodeScalars)
    func prefix(_ k: Int) -> String {
      var s = ""
      s.unicodeScalars.append(contentsOf: scalars[..<k])
      return s
    }
    // The shortest prefix with a non-empty key.
    var lo = 1
    var hi = scalars.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if fold(prefix(mid)).isEmpty { lo = mid + 1 } else { hi = mid }
    }
    // The longest one from there that still matches.
    var best: [City] = []
    hi = scalars.count - 1
    while lo <= hi {
      let mid = (lo + hi) / 2
      let page = try search(prefix(mid), offset: 0, limit: 5)
      if page.total > 0 {
        best = page.cities
        lo = mid + 1
      } else {
        hi = mid - 1
      }
    }
    return best
  }

  /// Catalogue positions of cities whose folded name is exactly `key`.
  private func exactName(_ key: [UInt8]) throws(StoreError) -> [Int] {
    guard !key.isEmpty else { return [] }
    let reader = CityIndexReader(database: db)
    let match = try reader.match(key)
    var out: [Int] = []
    var k = match.names.lowerBound
    while k < match.names.upperBound {
      let chunk = try reader.entries("n", k..<min(match.names.upperBound, k + CityIndex.blockSize))
      for e in chunk {
        guard e.key == key else { return out }
        out.append(e.ref)
      }
      k += chunk.count
    }
    return out
  }

  /// The position of a city found through the index (by identity).
  private func exactIndex(of city: City) throws(StoreError) -> Int {
    try find(city.identity)?.index ?? 0
  }

  /// The city with this identity in the current catalogue, if any (favourites use this).
  package func find(_ identity: CityIdentity) throws(StoreError) -> (index: Int, city: City)? {
    let country = fold(identity.country)
    for i in try exactName(fold(identity.name)) {
      let c = try city(i)
      if fold(c.country) == country { return (i, c) }
    }
    return nil
  }

  private func byID(_ id: Int) throws(StoreError) -> [Int] {
    guard let raw = try db.fetch(CatalogueKey.block("i", id >> 8)) else { return [] }
    do throws(MalformedValue) {
      var r = try Envelope.open(.idList, raw)
      let n = try r.count()
      var out: [Int] = []
      for _ in 0..<n {
        let value = try r.int()
        let index = try r.count()
        if value == id { out.append(index) }
      }
      return out
    } catch {
      throw .damaged(path: path, detail: "id bucket \(id >> 8) is unreadable")
    }
  }
}

extension String {
  /// Without leading and trailing spaces, tabs and newlines.
  package var trimmingSpaces: String {
    // Fast path: nothing to trim when both ends are visible ASCII (the usual case).
    if let f = utf8.first, let l = utf8.last, f > 0x20, f < 0x7F, l > 0x20, l < 0x7F { return self }
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
      let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    else { return "" }
    return String(scalars[first...last])
  }
}

extension Character {
  package var isASCIIDigit: Bool { isASCII && isNumber }
}

/// A city argument that does not name exactly one city. The executable words it (the query
/// cut and escaped, the candidates listed).
package enum LookupError: Error, Equatable, Sendable {
  case ambiguous(query: String, candidates: [City])
  case notFound(query: String, suggestions: [City])
  /// No CITY given and no city shown before.
  case noLastCity
}

extension Catalogue {
  /// Resolves a city argument to exactly one city, or throws ``LookupError``.
  package func lookup(_ query: String) throws -> (index: Int, city: City) {
    switch try resolve(query) {
    case .found(let index, let city): return (index, city)
    case .ambiguous(let candidates): throw LookupError.ambiguous(query: query, candidates: candidates)
    case .notFound(let suggestions): throw LookupError.notFound(query: query, suggestions: suggestions)
    }
  }
}
