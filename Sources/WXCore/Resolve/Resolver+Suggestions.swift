extension Resolver {
  // MARK: Suggestions

  /// The prefixes whose names a typo of `key` is compared with: its first letter (the usual
  /// typo keeps it), then, for the first letter wrong, missing or typed extra, the next two
  /// letters after each letter a–z (`ondon`: `lon…`; `urich`: `zur…`), and the key without
  /// its first letter (`xlondon`: `lon…`). At most 1 + 2 × 26 + 1 prefixes.
  package static func typoPrefixes(_ key: [UInt8]) -> [[UInt8]] {
    guard let first = key.first else { return [] }
    var out: [[UInt8]] = [[first]]
    func add(_ p: [UInt8]) { if p.count > 1, !out.contains(p) { out.append(p) } }
    let wrong = Array(key.dropFirst().prefix(2))
    let missing = Array(key.prefix(2))
    for letter in UInt8(ascii: "a")...UInt8(ascii: "z") {
      if wrong.count == 2, letter != first { add([letter] + wrong) }
      if missing.count == 2 { add([letter] + missing) }
    }
    add(Array(key.dropFirst().prefix(3)))
    return out
  }

  /// The closest names to `query`: names within a small edit distance of its folded form (1
  /// up to 4 bytes, else 2; of similar length, among ``NameSource/typoNames(for:_:)``),
  /// nearest first and, at one distance, larger places first (then names more places share,
  /// then names of the typed length); then the places matching the longest prefix of `query`
  /// that matches anything. Places are looked up for the ``typoLookups`` nearest names only.
  /// `sameLetters`: the places whose name has the very letters typed, spaces aside (a hyphen
  /// typed as nothing: `winstonsalem`).
  /// `keep`: only the places it keeps (those a typed qualifier fits), filtered before the
  /// first ``suggestionCount`` are taken.
  func closest(_ query: String, keep: ((Source.Place) throws(StoreError) -> Bool)? = nil) throws(StoreError) -> (
    places: [Source.Place], sameLetters: [Source.Place]
  ) {
    let key = fold(query)
    let squashed = key.filter { $0 != 0x20 }
    let allowed = key.count <= 4 ? 1 : 2
    var near: [(key: [UInt8], distance: Int)] = []
    var same: [[UInt8]] = []
    if !key.isEmpty {
      try source.typoNames(for: key) { name in
        if name.count > squashed.count, name.count <= squashed.count + 4, name.filter({ $0 != 0x20 }) == squashed,
          !same.contains(name)
        {
          same.append(name)
        }
        guard abs(name.count - key.count) <= allowed, let d = Self.distance(key, name, limit: allowed),
          !near.contains(where: { $0.key == name })
        else { return }
        near.append((name, d))
      }
    }
    func kept(_ places: [Source.Place]) throws(StoreError) -> [Source.Place] {
      guard let keep else { return places }
      var out: [Source.Place] = []
      for p in places where try keep(p) { out.append(p) }
      return out
    }
    var sameLetters: [Source.Place] = []
    for name in same { sameLetters += try kept(try source.places(named: name)) }
    near.sort { a, b in a.distance != b.distance ? a.distance < b.distance : a.key.lexicographicallyPrecedes(b.key) }
    var found: [(key: [UInt8], distance: Int, people: Int, places: [Source.Place])] = []
    for n in near.prefix(Self.typoLookups) {
      let places = try kept(try source.places(named: n.key))
      guard !places.isEmpty else { continue }
      var people = -1
      for p in places { people = max(people, try source.population(of: p) ?? -1) }
      found.append((n.key, n.distance, people, places))
    }
    found.sort { a, b in
      if a.distance != b.distance { return a.distance < b.distance }
      if a.people != b.people { return a.people > b.people }
      if a.places.count != b.places.count { return a.places.count > b.places.count }
      let (da, db) = (abs(a.key.count - key.count), abs(b.key.count - key.count))
      return da != db ? da < db : a.key.lexicographicallyPrecedes(b.key)
    }
    var out = Array(found.flatMap(\.places).prefix(Self.suggestionCount))
    if out.count < Self.suggestionCount {
      for p in try kept(try prefixSuggestions(query)) where out.count < Self.suggestionCount {
        let c = try source.candidate(p)
        var known = false
        for o in out where try source.candidate(o) == c { known = true }
        if !known { out.append(p) }
      }
    }
    return (out, sameLetters)
  }

  /// "Name, Qualifier" with a typo in the name: the closest names there (`sprngfield, IL` is
  /// Springfield, Illinois; `pariss, france` Paris, France; Nyala, Sudan is no suggestion for
  /// `nyc, us`): none when the qualifier names a country and no name near is there; nil when
  /// it names no country and none is there (or there is no comma), for the closest anywhere.
  func closestThere(_ query: String) throws(StoreError) -> [Source.Place]? {
    guard let comma = query.lastIndex(of: ","), Fold.hasKey(String(query[..<comma])) else { return nil }
    let typed = fold(String(query[query.index(after: comma)...]).trimmingSpaces)
    let lines = Countries.lines(naming: typed, version: source.foldVersion)
    let there = try closest(String(query[..<comma])) { p throws(StoreError) in
      fit(typed, try source.qualifiers(of: p), lines: lines) == .exact
    }
    if !there.places.isEmpty { return there.places }
    if !there.sameLetters.isEmpty { return there.sameLetters }
    // A country named, with no name near there: no suggestion from elsewhere (`zzzzz, fr`
    // offered Zhengzhou).
    return lines.isEmpty ? nil : []
  }

  /// The places matching the longest prefix of `query` that matches anything.
  ///
  /// The proper prefixes (1 ..< n scalars) are tried by binary search, not one by one (which
  /// costs time quadratic in the query's length): folding streams, so a shorter prefix's key is
  /// a prefix of a longer one's. Keys are empty up to some length and non-empty from there on,
  /// and from there on matches only shrink as the prefix grows.
  private func prefixSuggestions(_ query: String) throws(StoreError) -> [Source.Place] {
    let scalars = Array(query.unicodeScalars)
    func prefix(_ k: Int) -> [UInt8] {
      var s = ""
      s.unicodeScalars.append(contentsOf: scalars[..<k])
      return fold(s)
    }
    // The shortest prefix with a non-empty key.
    var lo = 1
    var hi = scalars.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if prefix(mid).isEmpty { lo = mid + 1 } else { hi = mid }
    }
    // The longest one from there that still matches.
    var best: [Source.Place] = []
    hi = scalars.count - 1
    while lo <= hi {
      let mid = (lo + hi) / 2
      let page = try source.places(startingWith: prefix(mid), limit: Self.suggestionCount)
      if page.total > 0 {
        best = page.places
        lo = mid + 1
      } else {
        hi = mid - 1
      }
    }
    return best
  }

  /// The optimal-string-alignment distance between `a` and `b` (insertions, deletions,
  /// substitutions and swaps of neighbours, by byte), or nil when it exceeds `limit`.
  /// Stops a row early once every cell of it is past the limit.
  package static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int? {
    if abs(a.count - b.count) > limit { return nil }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    // First a bound that allocates nothing: each byte value one string has and the other
    // lacks costs an edit (values folded into 64 bits, which only lowers the bound).
    var (ma, mb) = (UInt64(0), UInt64(0))
    for x in a { ma |= 1 << (x & 63) }
    for x in b { mb |= 1 << (x & 63) }
    if (ma & ~mb).nonzeroBitCount > limit || (mb & ~ma).nonzeroBitCount > limit { return nil }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMin = i
      for j in 1...b.count {
        var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, before[j - 2] + 1) }
        current[j] = d
        rowMin = min(rowMin, d)
      }
      if rowMin > limit { return nil }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count] <= limit ? previous[b.count] : nil
  }
}

extension Resolver {
  /// The places `words` name, in order, each once (`wx fav rm New York New York` removes it
  /// once): the names of ``split(_:)``, each resolved. Throws ``LookupError`` for the first
  /// name that does not name exactly one place.
  package func places<ID: Hashable>(
    _ words: [String], identity: (Source.Place) throws(StoreError) -> ID
  ) throws -> [Source.Place] {
    var out: [Source.Place] = []
    var seen = Set<ID>()
    for name in try split(words) {
      let place = try one(name)
      if seen.insert(try identity(place)).inserted { out.append(place) }
    }
    return out
  }

  /// The one place `text` names, or ``LookupError``.
  package func one(_ text: String) throws -> Source.Place {
    switch try resolve(text) {
    case .one(let p): return p
    case .several(let ps):
      throw LookupError.ambiguous(query: text, candidates: try ps.map { p throws(StoreError) in try source.candidate(p) })
    case .none(let ps):
      throw LookupError.notFound(query: text, suggestions: try ps.map { p throws(StoreError) in try source.candidate(p) })
    }
  }
}
