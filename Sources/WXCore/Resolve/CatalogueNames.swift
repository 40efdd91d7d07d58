/// The catalogue as a ``NameSource``: its search index answers names and prefixes, its id
/// buckets ids. A place is a name entry (its catalogue position, and its country when the
/// index carries it, so "Name, Country" reads no record block but the answer's).
package struct CatalogueNames: NameSource {
  package let catalogue: Catalogue

  package init(_ catalogue: Catalogue) { self.catalogue = catalogue }

  package var foldVersion: Int { catalogue.meta.foldVersion }

  package func places(named key: [UInt8]) throws(StoreError) -> [CityIndex.Entry] {
    try catalogue.exactNameEntries(key)
  }

  package func hasName(startingWith key: [UInt8]) throws(StoreError) -> Bool {
    guard !key.isEmpty else { return true }
    return !(try CityIndexReader(database: catalogue.db).match(key).names.isEmpty)
  }

  package func places(startingWith key: [UInt8], limit: Int) throws(StoreError) -> (total: Int, places: [CityIndex.Entry]) {
    let reader = CityIndexReader(database: catalogue.db)
    let match =
      key.isEmpty ? CityIndex.Match(names: 0..<catalogue.meta.nameEntries, words: 0..<0, duplicates: 0) : try reader.match(key)
    let refs = try reader.page(match, queryLength: key.count, offset: 0, limit: limit)
    return (match.total, refs.map { CityIndex.Entry(key: [], shadow: 0, ref: $0) })
  }

  package func places(withID id: Int) throws(StoreError) -> [CityIndex.Entry] {
    try catalogue.byID(id).map { CityIndex.Entry(key: [], shadow: 0, ref: $0) }
  }

  package func typoNames(for key: [UInt8], _ body: ([UInt8]) -> Void) throws(StoreError) {
    try CityIndexReader(database: catalogue.db).typoNames(for: key, body)
  }

  package func qualifiers(of e: CityIndex.Entry) throws(StoreError) -> Qualifiers {
    Qualifiers(country: try catalogue.countryOf(e))
  }

  package func identity(of e: CityIndex.Entry) throws(StoreError) -> CityIdentity {
    try catalogue.city(e.ref).identity
  }

  /// Name, country and coordinates; the id only when no other city has it.
  package func candidate(_ e: CityIndex.Entry) throws(StoreError) -> Candidate {
    let c = try catalogue.city(e.ref)
    return Candidate(
      name: c.name, country: c.country, id: try catalogue.byID(c.id).count == 1 ? c.id : nil, latitude: c.latitude,
      longitude: c.longitude)
  }
}

/// Turning what a person typed into one city (or the candidates, or the closest names).
extension Catalogue {
  /// The catalogue's ``Resolver``.
  package var resolver: Resolver<CatalogueNames> { Resolver(CatalogueNames(self)) }

  /// Resolves what a person typed: an id, a name (case- and accent-insensitive), or
  /// "Name, Country". A prefix that fits exactly one city also resolves.
  package func resolve(_ text: String) throws(StoreError) -> Resolution {
    switch try resolver.resolve(text) {
    case .one(let e): return .found(index: e.ref, city: try city(e.ref))
    case .several(let es): return .ambiguous(try cities(es.map(\.ref)))
    case .none(let es): return .notFound(suggestions: try cities(es.map(\.ref)))
    }
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
    return try reader.exactEntries(key, in: try reader.match(key).names, countries: true)
  }

  /// The country of a name entry's city: from the entry when the index carries it, else from
  /// the city's record (one record block read).
  func countryOf(_ e: CityIndex.Entry) throws(StoreError) -> String {
    if let country = e.country {
      guard let s = ByteReader.utf8(country[...]) else {
        throw .damaged(path: path, detail: "a search index entry's country is not text")
      }
      return s
    }
    return try city(e.ref).country
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

  func byID(_ id: Int) throws(StoreError) -> [Int] {
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

extension Catalogue {
  /// Resolves a city argument to exactly one city, or throws ``LookupError``.
  package func lookup(_ query: String) throws -> (index: Int, city: City) {
    let e = try resolver.one(query)
    return (e.ref, try city(e.ref))
  }

  /// The cities unquoted `words` name (``Resolver/split(_:)``), each once, or ``LookupError``.
  package func lookup(words: [String]) throws -> [City] {
    let r = resolver
    return try r.places(words) { e throws(StoreError) in e.ref }.map { e throws(StoreError) in try city(e.ref) }
  }
}
