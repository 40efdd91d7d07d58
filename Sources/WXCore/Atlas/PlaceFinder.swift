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
  /// has at least ten times the people of the next picks it); `begun`: how many places the
  /// text begins when it was taken as the beginning of this one's name (0: it was not).
  case found(Found, sharing: Int, begun: Int = 0)
  case ambiguous([Found])
  case notFound(suggestions: [Found])
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
  /// many thousands of cities lists its matches as the places they are, and its total is an
  /// estimate (``searchSpelled(_:offset:limit:variants:)``).
  package static let catalogueMatches = 200
  /// Past ``catalogueMatches``, the catalogue matches a search reads at least, whatever its
  /// page, and the names its total is estimated from.
  static let sample = 20

  /// The country-table lines naming each folded country asked about, found once per finder:
  /// a search compares every catalogue match's country with its atlas candidates', and
  /// finding the lines scans the whole table (3.3 M instructions for `wx search par` before).
  private let countryLines = CountryLines()
  /// The catalogue's names in other scripts, read on first need.
  let otherScript = OtherScript()

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
    let name = catalogue.fold(place.country)
    if typed == name { return true }
    let code = catalogue.fold(place.countryCode)
    let version = catalogue.meta.foldVersion
    return Self.sameCountry(
      typed, name: name, code: code, lines: countryLines.lines(naming: code, version: version), version: version)
  }

  /// The one same-country rule: a catalogue's country `typed` (folded: a name or a code) is
  /// the atlas country of folded name `name` and code `code` (whose table lines are `lines`)
  /// when it is that name, or a name or code of the code's line.
  static func sameCountry(_ typed: [UInt8], name: [UInt8], code: [UInt8], lines: [Int], version: Int) -> Bool {
    typed == name || Countries.fit(code, typed, lines: lines, version: version) == .exact
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

  /// The catalogue city a place is (the nearest of its name and country within ``sameTown``).
  package func city(of place: Place) throws(StoreError) -> City? {
    if let city = try ownNamedCity(place) { return city }
    return try otherNamedCity(place)
  }

  /// The catalogue city of `place`'s own name nearest it (``nearestCity(named:country:latitude:longitude:)``):
  /// as the sync linked them when it did so for this atlas (``AtlasLinks``), else looked up.
  func ownNamedCity(_ place: Place) throws(StoreError) -> City? {
    if let atlas {
      switch try catalogue.link(ofPlace: place.position, atlas: atlas.meta) {
      case .city(let k):
        // A link made through a hash two names share names a city of another name: refused.
        let city = try catalogue.city(k)
        let name = catalogue.fold(place.name)
        if !name.isEmpty && catalogue.fold(city.name) == name { return city }
      case .none: return nil
      case .unknown: break
      }
    }
    return try nearestCity(named: place.name, country: place, latitude: place.latitude, longitude: place.longitude)
  }

  /// The catalogue city that is `place` under another name: its name without the last word
  /// "City" (New York City is the sample's New York) when that city is no other place (Union
  /// City is not Union, 13 km away), else in another script (``linkedCity(_:)``).
  func otherNamedCity(_ place: Place) throws(StoreError) -> City? {
    if let city = try otherSpelledCity(place) { return city }
    if place.name.hasSuffix(" City"), place.name.count > 5,
      let city = try nearestCity(
        named: String(place.name.dropLast(5)), country: place, latitude: place.latitude, longitude: place.longitude)
    {
      let itsPlace = try self.place(of: city)
      if itsPlace == nil || itsPlace?.position == place.position { return city }
    }
    return try linkedCity(place)
  }

  func nearestCity(named name: String, country place: Place, latitude: Double, longitude: Double) throws(StoreError)
    -> City?
  {
    var best: (city: City, km: Double)? = nil
    for e in try catalogue.exactNameEntries(catalogue.fold(name)) {
      let c = try catalogue.city(e.ref)
      let km = Place.distance(latitude, longitude, c.latitude, c.longitude)
      if km <= Self.sameTown && km < (best?.km ?? .infinity) && sameCountry(place, c.country) { best = (c, km) }
    }
    return best?.city
  }

  package func found(_ city: City) throws(StoreError) -> Found { Found(city: city, place: try place(of: city)) }
  package func found(_ place: Place) throws(StoreError) -> Found { Found(city: try city(of: place), place: place) }

  /// A favourite as the catalogue city of its name and country nearest to where it was
  /// added, within ``sameTown`` and of its region where both know it (the first of its name
  /// and country, for favourites added before positions were kept), else as that atlas place
  /// with its catalogue city of another name (Bombay's, as Mumbai); nil when it is neither.
  /// (Springfield, Missouri is never shown with the weather of the catalogue's Springfield,
  /// Illinois.)
  package func found(_ f: Favourite) throws(StoreError) -> Found? {
    let country = catalogue.fold(f.country)
    var best: (city: City, rank: (Int, Double))? = nil
    for e in try catalogue.exactNameEntries(catalogue.fold(f.name)) {
      let c = try catalogue.city(e.ref)
      // However either catalogue writes the country (a favourite of `Cairo, EG` is Cairo,
      // Egypt in the next), its own spelling first (twins `Ljubljana, SI` and `Ljubljana,
      // Slovenia` are each their own).
      let spelled = catalogue.fold(c.country)
      guard Countries.same(spelled, country, version: catalogue.meta.foldVersion) else { continue }
      let km = f.latitude.map { Place.distance($0, f.longitude ?? 0, c.latitude, c.longitude) } ?? 0
      let rank = (spelled == country ? 0 : 1, km)
      if km <= Self.sameTown && rank < (best?.rank ?? (2, 0)) { best = (c, rank) }
    }
    if let best {
      let city = try found(best.city)
      let region = city.place?.region
      if f.region == nil || region == nil || Fold.key(f.region!) == Fold.key(region!) { return city }
    }
    guard let atlas, let lat = f.latitude, let lon = f.longitude else { return nil }
    var nearest: (place: Place, km: Double)? = nil
    for p in try atlas.named(f.name) where sameCountry(p, f.country) {
      let km = Place.distance(lat, lon, p.latitude, p.longitude)
      if km <= Self.sameTown && km < (nearest?.km ?? .infinity) { nearest = (p, km) }
    }
    return try nearest.map { n throws(StoreError) in try found(n.place) }
  }

  // MARK: Resolution

  /// The one ``Resolver`` over the catalogue and the atlas (``WorldNames``).
  package var names: Resolver<WorldNames> { Resolver(WorldNames(self)) }

  /// Largest first: the atlas places named `key` (own or alternate name), each with the
  /// catalogue city it is (of that name, its country, nearest within ``sameTown``; for a
  /// place named so by an alternate name, of its own name; else one named in another script,
  /// ``linkedCity(_:)``); then the catalogue's cities of that name that are no atlas place.
  func named(_ key: [UInt8]) throws(StoreError) -> [Found] {
    var cities: [City] = []
    for e in try catalogue.exactNameEntries(key) { cities.append(try catalogue.city(e.ref)) }
    var out: [Found] = []
    var taken = Set<Int>()
    if let atlas {
      for p in try atlas.namedPlaces(key) where key.count >= Atlas.shortestAlternate || catalogue.fold(p.name) == key {
        var best: (k: Int, km: Double)? = nil
        for (k, c) in cities.enumerated() where !taken.contains(k) && sameCountry(p, c.country) {
          let km = Place.distance(p.latitude, p.longitude, c.latitude, c.longitude)
          if km <= Self.sameTown && km < (best?.km ?? .infinity) { best = (k, km) }
        }
        if let best {
          taken.insert(best.k)
          out.append(Found(city: cities[best.k], place: p))
        } else if catalogue.fold(p.name) != key {
          // Found by an alternate name (`wien`): the catalogue city is the one of its own name.
          out.append(Found(city: try city(of: p), place: p))
        } else {
          out.append(Found(city: try otherNamedCity(p), place: p))
        }
      }
    }
    // A city no place of its name is may be one of another spelling (St. Gallen).
    for (k, c) in cities.enumerated() where !taken.contains(k) {
      out.append(Found(city: c, place: try otherSpelledPlace(of: c, key: key)))
    }
    return out
  }

  /// Resolves a city argument with ``names``: the catalogue's answer first when it names
  /// one city (its cities have weather: `Paris, US` is the catalogue's), else the catalogue
  /// and the atlas together.
  package func resolve(_ text: String) throws(StoreError) -> PlaceResolution {
    if atlas != nil {
      var first = catalogue.resolver
      first.suggests = false
      // Not when it picked one of several cities of that name by their spelling: with the
      // atlas their sizes decide first (`zurich` is Zürich, Switzerland, not Zurich, Canada).
      let named = text.contains(",") ? [] : try first.named(text)
      // A prefix the catalogue alone fits once is no answer by itself: every place the text
      // begins decides, catalogue and atlas together (`la` is Lagos, Lahore or La Paz; `lond`
      // is London, which dwarfs every other place so begun). Ids are read only for digits.
      var byPrefix = named.isEmpty && !text.contains(",")
      if byPrefix, let id = Int(text) { byPrefix = try first.source.places(withID: id).isEmpty }
      if !byPrefix, named.count <= 1, case .one(let e) = try first.resolve(text) {
        let city = try found(try catalogue.city(e.ref))
        // The catalogue's city of that name, though a larger place shares it (`salem`: the
        // sample's Salem, Oregon; Salem, Tamil Nadu is five times larger): say so, as when
        // the atlas picks one of several. Only a name several places share has a `p` record:
        // the one `place(of:)` just read. Places of its other spelling count (`St Paul`: a
        // catalogue's St. Paul, Alberta, silently, beside Saint Paul, Minnesota).
        var sharing = 0
        if !named.isEmpty, let own = city.place {
          let others = try sharingTheName(text, with: own)
          if let largest = others.map(\.population).max(), largest > own.population { sharing = others.count }
        }
        return .found(city, sharing: sharing)
      }
    }
    return try resolveAll(text)
  }

  /// ``resolve(_:)`` by the one resolver over the catalogue and the atlas together.
  private func resolveAll(_ text: String) throws(StoreError) -> PlaceResolution {
    var (sharing, begun) = (0, 0)
    switch try names.resolve(text, sharing: &sharing, begun: &begun) {
    case .one(let f):
      // A place found by a prefix (`new york c`) is the catalogue city it is, if any.
      if f.city == nil, let place = f.place { return .found(try found(place), sharing: sharing, begun: begun) }
      return .found(f, sharing: sharing, begun: begun)
    case .several(let fs): return .ambiguous(Self.unique(fs))
    case .none(let fs):
      let all = Self.unique(try commaLeftOut(text) + fs)
      return .notFound(suggestions: Array(all.prefix(max(fs.count, Resolver<WorldNames>.suggestionCount))))
    }
  }

  /// The places unquoted words name when no place has them as one name but each names
  /// one place by its whole name (`paris london`, as `--format` reads several), for a message
  /// that says so; nil when a comma left out reads them as one place (``commaLeftOut(_:)``:
  /// `Paris France`, which the closest names offer), a word was taken for a longer name it
  /// begins, or they name fewer than two.
  package func severalPlaces(_ text: String) throws -> [Found]? {
    let words = text.split(separator: " ").map(String.init)
    guard words.count > 1, !text.contains(","), try commaLeftOut(text).isEmpty else { return nil }
    let several = try lookup(words: words)
    return several.count > 1 && several.allSatisfy({ $0.begun == 0 }) ? several.map(\.found) : nil
  }

  /// The place `text` names with a comma put in before its last word or two, when it has none
  /// (`Springfield Illinois`, `Paris France`): offered first among the closest names, not
  /// taken, as a guess should not be.
  private func commaLeftOut(_ text: String) throws(StoreError) -> [Found] {
    guard !text.contains(",") else { return [] }
    let words = text.split(separator: " ", omittingEmptySubsequences: true)
    guard words.count >= 2 else { return [] }
    var out: [Found] = []
    // Without typo suggestions: a guess is offered only when it names a place as written.
    var exact = names
    exact.suggests = false
    for tail in 1...min(2, words.count - 1) {
      let guess = words.dropLast(tail).joined(separator: " ") + ", " + words.suffix(tail).joined(separator: " ")
      var ignored = 0
      if case .one(let f) = try exact.resolve(guess, sharing: &ignored), !out.contains(f) { out.append(f) }
    }
    return out
  }

  /// `items` without repeats (a typo may reach a place by its catalogue name and its atlas
  /// name).
  static func unique(_ items: [Found]) -> [Found] {
    var out: [Found] = []
    for f in items where !out.contains(f) { out.append(f) }
    return out
  }

  /// Resolves to exactly one place, or throws ``LookupError``.
  package func lookup(_ query: String) throws -> (found: Found, sharing: Int, begun: Int) {
    switch try resolve(query) {
    case .found(let f, let sharing, let begun): return (f, sharing, begun)
    case .ambiguous(let c): throw LookupError.ambiguous(query: query, candidates: Candidate.list(c))
    case .notFound(let s): throw LookupError.notFound(query: query, suggestions: Candidate.list(s), atlas: atlas != nil)
    }
  }

  /// The places unquoted `words` name (``Resolver/split(_:)`` over the catalogue and the
  /// atlas), each place once, with the name each was typed as and how many other places
  /// share it; throws ``LookupError`` for the first name that does not name one place.
  /// (Two places of one name and country both come back: what keeps one is the caller's.)
  package func lookup(words: [String]) throws -> [(name: String, found: Found, sharing: Int, begun: Int)] {
    var out: [(name: String, found: Found, sharing: Int, begun: Int)] = []
    for name in try names.split(words) {
      let (found, sharing, begun) = try lookup(name)
      if !out.contains(where: { $0.found == found }) { out.append((name, found, sharing, begun)) }
    }
    return out
  }
}
