/// The catalogue and the world atlas together as one ``NameSource``: a place is a catalogue
/// city, an atlas place, or both (``Found``), so ids, runs of words, "Name, Region", "Name,
/// ST", the largest of a shared name, prefixes, completion and typos are the ``Resolver``'s
/// rules, as for the catalogue alone. Without an atlas it is the catalogue.
package struct WorldNames: NameSource {
  package let finder: PlaceFinder

  package init(_ finder: PlaceFinder) { self.finder = finder }

  var catalogue: Catalogue { finder.catalogue }

  package var foldVersion: Int { catalogue.meta.foldVersion }

  /// Largest first: the atlas places of that name (own or alternate), each with the catalogue
  /// city it is; then the catalogue's cities of that name that are no atlas place. `St`,
  /// `Saint` and `Sankt` (`Ste`, `Sainte`; `Mt`, `Mount`; `Ft`, `Fort`) name the same places:
  /// `St Paul` is Saint Paul, Minnesota as well as St. Paul, Alberta, and the larger decides;
  /// `St. Gallen` is Sankt Gallen.
  package func places(named key: [UInt8]) throws(StoreError) -> [Found] {
    var out = try finder.named(key)
    let others = Self.otherSpellings(key)
    guard !others.isEmpty else { return out }
    var more: [Found] = []
    for other in others {
      // Not a town listed under both spellings at one spot twice (St Johnsbury, Vermont).
      for f in try finder.named(other) where !out.contains(f) && !more.contains(f) {
        if let p = f.place {
          let twin = { (g: Found) in g.place.map { PlaceFinder.spellingTwins($0, p) } == true }
          if out.contains(where: twin) || more.contains(where: twin) { continue }
        }
        more.append(f)
      }
    }
    guard !more.isEmpty else { return out }
    out += more
    // Largest first again, places before catalogue cities that are none (their order kept).
    let ranked = out.enumerated().sorted { a, b in
      let (pa, pb) = (a.element.place?.population ?? -1, b.element.place?.population ?? -1)
      return pa != pb ? pa > pb : a.offset < b.offset
    }
    return ranked.map(\.element)
  }

  /// Words spelled in full or abbreviated in place names, each group one word: St is Saint
  /// (Saint Paul), and Sankt in German-speaking places (St. Gallen is GeoNames' Sankt Gallen,
  /// St. Pölten its Sankt Pölten).
  static let abbreviations: [[String]] = [["st", "saint", "sankt"], ["ste", "sainte"], ["mt", "mount"], ["ft", "fort"]]

  /// `key` with its words that ``abbreviations`` lists spelled each other way (`st paul` →
  /// `saint paul`, `sankt paul`; `saint denis` → `st denis`, `sankt denis`): the n-th
  /// spelling of each group's word at once, those that differ from `key`; empty when it has
  /// none.
  static func otherSpellings(_ key: [UInt8]) -> [[UInt8]] {
    // Most names have no such word: said without splitting them (search asks it of every
    // place it lists: 0.18 M instructions of `wx search par` at a million cities).
    guard hasAbbreviation(key) else { return [] }
    let words = key.split(separator: 0x20, omittingEmptySubsequences: false)
    var groups: [Int?] = []
    var widest = 0
    for word in words {
      let g = group(of: word)
      groups.append(g)
      if let g { widest = max(widest, abbreviations[g].count) }
    }
    var out: [[UInt8]] = []
    for n in 0..<widest {
      var spelled: [UInt8] = []
      for (k, word) in words.enumerated() {
        if k > 0 { spelled.append(0x20) }
        if let g = groups[k], n < abbreviations[g].count { spelled += abbreviations[g][n].utf8 } else { spelled += word }
      }
      if spelled != key && !out.contains(spelled) { out.append(spelled) }
    }
    return out
  }

  /// The group of ``abbreviations`` `word` (folded) is a spelling of, if any.
  static func group<Word: Collection<UInt8>>(of word: Word) -> Int? {
    abbreviations.firstIndex { $0.contains { word.elementsEqual($0.utf8) } }
  }

  /// Whether a word of `key` is one of ``abbreviations``, read in place.
  static func hasAbbreviation(_ key: [UInt8]) -> Bool {
    key.withUnsafeBufferPointer { b in
      var start = 0
      for end in 0...b.count where end == b.count || b[end] == 0x20 {
        // Every such word has 2 to 6 letters and starts with f, m or s.
        let n = end - start
        if n >= 2 && n <= 6 && (b[start] == 0x66 || b[start] == 0x6D || b[start] == 0x73) {
          if group(of: UnsafeBufferPointer(rebasing: b[start..<end])) != nil { return true }
        }
        start = end + 1
      }
      return false
    }
  }

  package func hasName(startingWith key: [UInt8]) throws(StoreError) -> Bool {
    if try CatalogueNames(catalogue).hasName(startingWith: key) { return true }
    guard let atlas = finder.atlas else { return false }
    return !(try CityIndexReader(database: atlas.db).match(key).names.isEmpty)
  }

  /// As `wx search` lists them (``PlaceFinder/search(_:offset:limit:)``); for an empty key
  /// the catalogue's cities (what a TAB after nothing offers), as they are.
  package func places(startingWith key: [UInt8], limit: Int) throws(StoreError) -> (total: Int, places: [Found]) {
    if key.isEmpty {
      let all = try CatalogueNames(catalogue).places(startingWith: key, limit: limit)
      var out: [Found] = []
      for e in all.places { out.append(Found(city: try catalogue.city(e.ref), place: nil)) }
      return (all.total, out)
    }
    // The spellings of `key` are the resolver's to try, one by one, not each search's again.
    let page = try finder.search(
      String(decoding: key, as: UTF8.self), offset: 0, limit: limit, variants: false, otherNames: false)
    return (page.total, page.items)
  }

  /// The catalogue's cities of that id, and the atlas place of that GeoNames id (which `wx
  /// show` prints) unless it is one of them.
  package func places(withID id: Int) throws(StoreError) -> [Found] {
    var out: [Found] = []
    for ref in try catalogue.byID(id) { out.append(try finder.found(try catalogue.city(ref))) }
    if let place = try finder.atlas?.place(geonameID: id), !out.contains(where: { $0.place?.position == place.position }) {
      out.append(try finder.found(place))
    }
    return out
  }

  package func typoNames(for key: [UInt8], _ body: ([UInt8]) -> Void) throws(StoreError) {
    try CityIndexReader(database: catalogue.db).typoNames(for: key, body)
    if let atlas = finder.atlas { try CityIndexReader(database: atlas.db).typoNames(for: key, body) }
  }

  package func qualifiers(of f: Found) -> Qualifiers { Qualifiers(of: f) }

  package func identity(of f: Found) -> CityIdentity { f.asCity.identity }

  /// Name, country, region, people and coordinates; a catalogue city's id only when no other
  /// city has it.
  package func candidate(_ f: Found) throws(StoreError) -> Candidate {
    var id: Int? = nil
    if let city = f.city, try catalogue.byID(city.id).count == 1 { id = city.id }
    return Candidate(f, uniqueID: id)
  }

  package func population(of f: Found) -> Int? { f.population }

  package func spellings(of f: Found) -> [String] {
    let own = f.asCity.name
    guard let place = f.place?.name, place != own else { return [own] }
    return [own, place]
  }

  /// The atlas lists its places largest first: the first ones' names.
  package func largeNames(atLeast people: Int, _ body: ([UInt8]) -> Void) throws(StoreError) {
    guard let atlas = finder.atlas else { return }
    for position in 0..<min(atlas.meta.count, Resolver<Self>.largePlaces) {
      let p = try atlas.place(position)
      guard p.population >= people else { return }
      body(Fold.key(p.name, version: atlas.meta.foldVersion))
    }
  }
}

extension CityIndexReader {
  /// The folded names a typo of `key` may stand for (``NameSource/typoNames(for:_:)``): the
  /// names starting with each of ``Resolver/typoPrefixes(_:)``, one index range each, read
  /// 64 names a block fetch.
  func typoNames(for key: [UInt8], _ body: ([UInt8]) -> Void) throws(StoreError) {
    var budget = Resolver<PlaceList>.otherTypoScan
    for (k, prefix) in Resolver<PlaceList>.typoPrefixes(key).enumerated() where k == 0 || budget > 0 {
      let names = try match(prefix).names
      let end = min(names.upperBound, names.lowerBound + (k == 0 ? Resolver<PlaceList>.typoScan : budget))
      if k > 0 { budget -= end - names.lowerBound }
      var i = names.lowerBound
      while i < end {
        let chunk = try entries("n", i..<min(end, i + CityIndex.blockSize))
        for e in chunk { body(e.key) }
        i += max(1, chunk.count)
      }
    }
  }
}
