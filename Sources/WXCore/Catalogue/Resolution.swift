/// Turning what a person typed into one city (or the candidates, or the closest names).
extension Catalogue {
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
    if exact.count > 1 {
      // Spelled as exactly one of them, but for case, it is that one: "Zürich" is not "Zurich".
      let typed = query.lowercased()
      var literal: [Int] = []
      for i in exact where try city(i).name.lowercased() == typed { literal.append(i) }
      if literal.count == 1 { return .found(index: literal[0], city: try city(literal[0])) }
      return .ambiguous(try cities(exact))
    }

    if let comma = query.lastIndex(of: ",") {
      let name = String(query[..<comma]).trimmingSpaces
      let country = fold(String(query[query.index(after: comma)...]).trimmingSpaces)
      let entries = try exactNameEntries(fold(name))
      let named = entries.map(\.ref)
      let lines = Countries.lines(naming: country, version: meta.foldVersion)  // once, not per city
      // Exact names and codes win over prefixes: "Sydney, AU" is Australia, not Austria.
      var fitting: [Int] = []
      var best = Countries.Fit.prefix
      for e in entries {
        let fit = Countries.fit(country, fold(try countryOf(e)), lines: lines, version: meta.foldVersion)
        if fit > best { (best, fitting) = (fit, []) }
        if fit == best { fitting.append(e.ref) }
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
  func exactName(_ key: [UInt8]) throws(StoreError) -> [Int] {
    try exactNameEntries(key).map(\.ref)
  }

  /// The name entries whose key is exactly `key` (with their countries, in catalogues whose
  /// index carries them).
  func exactNameEntries(_ key: [UInt8]) throws(StoreError) -> [CityIndex.Entry] {
    guard !key.isEmpty else { return [] }
    let reader = CityIndexReader(database: db)
    let match = try reader.match(key)
    var out: [CityIndex.Entry] = []
    var k = match.names.lowerBound
    while k < match.names.upperBound {
      let chunk = try reader.entries("n", k..<min(match.names.upperBound, k + CityIndex.blockSize), countries: true)
      for e in chunk {
        guard e.key == key else { return out }
        out.append(e)
      }
      k += chunk.count
    }
    return out
  }

  /// The country of a name entry's city: from the entry when the index carries it, else from
  /// the city's record (one record block read).
  private func countryOf(_ e: CityIndex.Entry) throws(StoreError) -> String {
    if let country = e.country {
      guard let s = ByteReader.utf8(country[...]) else {
        throw .damaged(path: path, detail: "a search index entry's country is not text")
      }
      return s
    }
    return try city(e.ref).country
  }

  /// The position of a city found through the index (by identity).
  private func exactIndex(of city: City) throws(StoreError) -> Int {
    try find(city.identity)?.index ?? 0
  }

  /// The city with this identity in the current catalogue, if any (favourites use this).
  package func find(_ identity: CityIdentity) throws(StoreError) -> (index: Int, city: City)? {
    let country = fold(identity.country)
    for e in try exactNameEntries(fold(identity.name)) where fold(try countryOf(e)) == country {
      return (e.ref, try city(e.ref))
    }
    return nil
  }

  /// For `wx doctor`: throws unless the id bucket of `id` lists catalogue position `index`.
  package func checkID(_ id: Int, at index: Int) throws(StoreError) {
    guard try byID(id).contains(index) else {
      throw .damaged(path: path, detail: "id bucket \(id >> 8) does not list record \(index)")
    }
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
