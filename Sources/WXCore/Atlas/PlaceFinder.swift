/// A catalogue city, an atlas place, or both: a catalogue city that is an atlas place carries
/// the place's region and population; a place that is no catalogue city has no weather.
package struct Found: Equatable, Sendable {
  package var city: City?
  package var place: Place?

  package init(city: City?, place: Place?) {
    precondition(city != nil || place != nil)
    self.city = city
    self.place = place
  }

  package var name: String { city?.name ?? place!.name }
  package var country: String { city?.country ?? place!.country }
  package var latitude: Double { city?.latitude ?? place!.latitude }
  package var longitude: Double { city?.longitude ?? place!.longitude }
  /// The catalogue city, or the place as a city without weather.
  package var asCity: City { city ?? place!.city }
  package var population: Int? { place?.population }
  package var hasWeather: Bool { city != nil }
}

/// How a city argument resolved against the catalogue and the atlas.
package enum PlaceResolution: Equatable, Sendable {
  /// One place; `sharing` other places have exactly its name (an exact name whose largest place
  /// has at least ten times the people of the next picks it).
  case found(Found, sharing: Int)
  case ambiguous([Found])
  case notFound(suggestions: [Found])
}

/// A city argument that names no place, or several. The executable words it.
package enum PlaceLookupError: Error, Equatable, Sendable {
  case ambiguous(query: String, candidates: [Found])
  case notFound(query: String, suggestions: [Found])
}

/// Search and name resolution over the catalogue and the atlas together: the catalogue's
/// rules first (its cities have weather), then the atlas's places.
package struct PlaceFinder {
  package let catalogue: Catalogue
  package let atlas: Atlas?
  /// Kilometres within which a catalogue city and an atlas place of the same name and
  /// country are one place (catalogue coordinates may be rounded).
  package static let sameTown = 50.0
  /// Catalogue matches merged into a search by the atlas's ranking; past them a catalogue of
  /// many thousands of cities lists its own matches no more (its totals stay exact).
  package static let catalogueMatches = 200
  /// How many times the next place's people the largest place of an exact name must have to
  /// be taken for the name.
  package static let dominance = 10

  /// The country-table lines naming each folded country asked about, found once per finder:
  /// a search compares every catalogue match's country with its atlas candidates', and
  /// finding the lines scans the whole table (3.3 M instructions for `wx search par` before).
  private let countryLines = CountryLines()

  package init(catalogue: Catalogue, atlas: Atlas?) {
    self.catalogue = catalogue
    self.atlas = atlas
  }

  /// A few folded countries and their lines, in arrays (a Dictionary's Hashable check at run
  /// time would cost more than it saves).
  private final class CountryLines {
    var keys: [[UInt8]] = []
    var lines: [[Int]] = []

    func lines(naming key: [UInt8], version: Int) -> [Int] {
      if let i = keys.firstIndex(of: key) { return lines[i] }
      let found = Countries.lines(naming: key, version: version)
      keys.append(key)
      lines.append(found)
      return found
    }
  }

  // MARK: One place each way

  /// Whether a catalogue city's country (as the catalogue writes it: a name or a code) is
  /// the place's.
  package func sameCountry(_ place: Place, _ country: String) -> Bool {
    let typed = catalogue.fold(country)
    if typed == catalogue.fold(place.country) { return true }
    let code = catalogue.fold(place.countryCode)
    let version = catalogue.meta.foldVersion
    return Countries.fit(code, typed, lines: countryLines.lines(naming: code, version: version), version: version) == .exact
  }

  /// Whether a catalogue city's country (a name or a code) may be the atlas's country `name`:
  /// the same folded name, or a name or code of the same ISO line (a cheap first cut; the
  /// place's code is checked after).
  func mayBeCountry(_ name: String, _ country: String) -> Bool {
    let (a, b) = (catalogue.fold(name), catalogue.fold(country))
    if a == b { return true }
    let version = catalogue.meta.foldVersion
    return countryLines.lines(naming: a, version: version).isEmpty
      || Countries.fit(b, a, lines: countryLines.lines(naming: b, version: version), version: version) == .exact
  }

  /// The atlas place a catalogue city is: of its name (or an alternate name), its country,
  /// nearest within ``sameTown``.
  package func place(of city: City) throws(StoreError) -> Place? {
    guard let atlas else { return nil }
    var best: (place: Place, km: Double)? = nil
    for p in try atlas.named(city.name, country: { mayBeCountry($0, city.country) }) where sameCountry(p, city.country) {
      let km = Place.distance(p.latitude, p.longitude, city.latitude, city.longitude)
      if km <= Self.sameTown && km < (best?.km ?? .infinity) { best = (p, km) }
    }
    return best?.place
  }

  /// The catalogue city a place is (the nearest of its name and country within ``sameTown``).
  package func city(of place: Place) throws(StoreError) -> City? {
    try nearestCity(named: place.name, country: place, latitude: place.latitude, longitude: place.longitude)
  }

  private func nearestCity(named name: String, country place: Place, latitude: Double, longitude: Double) throws(StoreError)
    -> City?
  {
    var best: (city: City, km: Double)? = nil
    for e in try catalogue.exactNameEntries(catalogue.fold(name)) {
      let c = try catalogue.city(e.ref)
      guard sameCountry(place, c.country) else { continue }
      let km = Place.distance(latitude, longitude, c.latitude, c.longitude)
      if km <= Self.sameTown && km < (best?.km ?? .infinity) { best = (c, km) }
    }
    return best?.city
  }

  package func found(_ city: City) throws(StoreError) -> Found { Found(city: city, place: try place(of: city)) }
  package func found(_ place: Place) throws(StoreError) -> Found { Found(city: try city(of: place), place: place) }

  /// A favourite as the catalogue city of its name and country nearest to where it was
  /// added (the first, for favourites added before the atlas), else as that atlas place; nil
  /// when it is neither.
  package func found(_ f: Favourite) throws(StoreError) -> Found? {
    let country = catalogue.fold(f.country)
    var best: (city: City, km: Double)? = nil
    for e in try catalogue.exactNameEntries(catalogue.fold(f.name)) {
      let c = try catalogue.city(e.ref)
      guard catalogue.fold(c.country) == country else { continue }
      let km = f.latitude.map { Place.distance($0, f.longitude ?? 0, c.latitude, c.longitude) } ?? 0
      if km < (best?.km ?? .infinity) { best = (c, km) }
    }
    if let best { return try found(best.city) }
    guard let atlas, let lat = f.latitude, let lon = f.longitude else { return nil }
    var nearest: (place: Place, km: Double)? = nil
    for p in try atlas.named(f.name) where catalogue.fold(p.country) == country {
      let km = Place.distance(lat, lon, p.latitude, p.longitude)
      if km <= Self.sameTown && km < (nearest?.km ?? .infinity) { nearest = (p, km) }
    }
    return nearest.map { Found(city: nil, place: $0.place) }
  }

  // MARK: Search

  /// Catalogue cities and atlas places whose name (or a later word of it) starts with
  /// `query`, or of which `query` is an alternate name: name starts first, then later words,
  /// each largest first (a catalogue city that is no atlas place after the places, in the
  /// catalogue's order); a catalogue city that is an atlas place is listed once, with both.
  package func search(_ query: String, offset: Int, limit: Int) throws(StoreError) -> (total: Int, items: [Found]) {
    let cat = try catalogue.search(query, offset: 0, limit: max(Self.catalogueMatches, offset + limit))
    guard let atlas else {
      let cities = cat.cities.dropFirst(offset).prefix(limit)
      return (cat.total, cities.map { Found(city: $0, place: nil) })
    }
    let q = catalogue.fold(query)
    let places = try atlas.search(query, offset: 0, limit: offset + limit)
    // (class, rank, catalogue order): 0 name start, 1 later word; rank a place's position.
    var keyed: [(key: (Int, Int, Int), item: Found)] = []
    // Place positions and their indices in keyed, the last for a position counting: arrays, as
    // a Dictionary's Hashable check at run time cost 0.24 M instructions, more than these lookups.
    var twinPositions: [Int] = []
    var twinIndices: [Int] = []
    var overlap = 0
    let alternates = try atlas.alternates(q)
    for (k, city) in cat.cities.enumerated() {
      let nameMatch = catalogue.fold(city.name).starts(with: q)
      let place = try self.place(of: city)
      if let place {
        twinPositions.append(place.position)
        twinIndices.append(keyed.count)
        let (key, starts) = Fold.keyAndWordStarts(place.name)
        if key.starts(with: q) || starts.contains(where: { key[$0...].starts(with: q) }) || alternates.contains(place.position) {
          overlap += 1
        }
      }
      keyed.append(((nameMatch ? 0 : 1, place?.position ?? Int.max, k), Found(city: city, place: place)))
    }
    for (place, nameMatch) in places.places {
      if let t = twinPositions.lastIndex(of: place.position) {
        let k = twinIndices[t]
        if nameMatch { keyed[k].key.0 = 0 }
        continue
      }
      keyed.append(((nameMatch ? 0 : 1, place.position, 0), Found(city: nil, place: place)))
    }
    keyed.sort { $0.key < $1.key }
    let page = keyed.dropFirst(offset).prefix(limit).map(\.item)
    return (cat.total + places.total - overlap, Array(page))
  }

  // MARK: Resolution

  /// Resolves a city argument: the catalogue's rules first (an id, a name, "Name, Country",
  /// a prefix that fits one city), then the atlas's places: "Name, Region", "Name, ST" (a US
  /// state's code), "Name, Country", an exact name (whose largest place is taken when it has
  /// ``dominance`` times the people of the next), a prefix that fits one place.
  package func resolve(_ text: String) throws(StoreError) -> PlaceResolution {
    let fromCatalogue = try catalogue.resolve(text)
    if case .found(_, let city) = fromCatalogue { return .found(try found(city), sharing: 0) }
    guard let atlas else {
      switch fromCatalogue {
      case .found(_, let city): return .found(Found(city: city, place: nil), sharing: 0)
      case .ambiguous(let cities): return .ambiguous(cities.map { Found(city: $0, place: nil) })
      case .notFound(let cities): return .notFound(suggestions: cities.map { Found(city: $0, place: nil) })
      }
    }
    let query = text.trimmingSpaces
    if query.allSatisfy(\.isASCIIDigit) { return try catalogueOnly(fromCatalogue) }
    if let comma = query.lastIndex(of: ",") {
      let name = String(query[..<comma]).trimmingSpaces
      let qualifier = catalogue.fold(String(query[query.index(after: comma)...]).trimmingSpaces)
      let named = try atlas.named(name)
      if !named.isEmpty && !qualifier.isEmpty {
        let fitting = Self.qualified(named, qualifier, version: catalogue.meta.foldVersion)
        if !fitting.isEmpty { return try pick(fitting) }
        return .notFound(suggestions: try named.prefix(5).map(found))
      }
    }
    let exact = try atlas.named(query)
    if !exact.isEmpty {
      // The catalogue's cities of that name that are no atlas place count too.
      var items = try exact.map(found)
      for i in try catalogue.exactName(catalogue.fold(query)) {
        let city = try catalogue.city(i)
        if !items.contains(where: { $0.city == city }) { items.append(Found(city: city, place: nil)) }
      }
      return pick(items)
    }
    let prefixed = try search(query, offset: 0, limit: 6)
    if prefixed.total == 1, let only = prefixed.items.first { return .found(only, sharing: 0) }
    if prefixed.total > 1 { return .ambiguous(prefixed.items) }
    return try catalogueOnly(fromCatalogue)
  }

  /// One place when one fits or one dominates (largest first; unknown populations last).
  private func pick(_ places: [Place]) throws(StoreError) -> PlaceResolution { pick(try places.map(found)) }

  private func pick(_ items: [Found]) -> PlaceResolution {
    let ranked = items.enumerated().sorted { a, b in
      let (x, y) = (a.element.population ?? -1, b.element.population ?? -1)
      return x != y ? x > y : a.offset < b.offset
    }.map(\.element)
    guard let first = ranked.first else { return .notFound(suggestions: []) }
    if ranked.count == 1 { return .found(first, sharing: 0) }
    if let top = first.population, top >= Self.dominance * max(ranked[1].population ?? 0, 1) {
      return .found(first, sharing: ranked.count - 1)
    }
    return .ambiguous(ranked)
  }

  private func catalogueOnly(_ r: Resolution) throws(StoreError) -> PlaceResolution {
    switch r {
    case .found(_, let city): return .found(try found(city), sharing: 0)
    case .ambiguous(let cities): return .ambiguous(try cities.map(found))
    case .notFound(let cities): return .notFound(suggestions: try cities.map(found))
    }
  }

  /// The places `qualifier` (folded) fits: a region's name, a US state's code, a country's
  /// name, code or prefix. Exact fits win over prefixes, as for countries today.
  static func qualified(_ places: [Place], _ qualifier: [UInt8], version: Int) -> [Place] {
    let lines = Countries.lines(naming: qualifier, version: version)
    var best = Countries.Fit.prefix
    var out: [Place] = []
    for p in places {
      var fit = Countries.fit(qualifier, Fold.key(p.country, version: version), lines: lines, version: version)
      if fit < .exact, let code = p.stateCode, Fold.key(code, version: version) == qualifier { fit = .exact }
      if fit < .exact, let region = p.region {
        let r = Fold.key(region, version: version)
        if r == qualifier { fit = .exact } else if fit == .none && r.starts(with: qualifier) { fit = .prefix }
      }
      if fit == .none || fit < best { continue }
      if fit > best { (best, out) = (fit, []) }
      out.append(p)
    }
    return out
  }

  /// Resolves to exactly one place, or throws ``PlaceLookupError``.
  package func lookup(_ query: String) throws -> (found: Found, sharing: Int) {
    switch try resolve(query) {
    case .found(let f, let sharing): return (f, sharing)
    case .ambiguous(let c): throw PlaceLookupError.ambiguous(query: query, candidates: c)
    case .notFound(let s): throw PlaceLookupError.notFound(query: query, suggestions: s)
    }
  }
}
