/// A favourite place, kept by what it is (name, country and, where known, region and
/// position: ``samePlace(as:)``) so it survives every sync.
package struct Favourite: Equatable, Sendable {
  package var name: String
  package var country: String
  /// The provider id when it was added (informational: ids are not identities).
  package var id: Int
  /// Seconds since the epoch.
  package var added: Int64
  /// Tie-breaker for favourites added in the same second, in order of adding.
  package var sequence: UInt64
  /// Where it is and its region, when it was added from the atlas or since the atlas: an
  /// Open-Meteo sync fetches a favourite that is no catalogue city by them, and of the
  /// catalogue's cities of its name and country the nearest is the one (records written
  /// before these fields read them as nil).
  package var latitude: Double? = nil
  package var longitude: Double? = nil
  package var region: String? = nil

  package var identity: CityIdentity { CityIdentity(name: name, country: country) }

  /// The key it is filed under: its name and country, then its region and position (to a
  /// hundredth of a degree) where known, so two places of one name and country (Springfield,
  /// Illinois and Springfield, Missouri) are two favourites. Records written before keep
  /// the key of their name and country: the store matches records, never keys
  /// (``FavouritesStore/remove(_:)``).
  package var key: [UInt8] {
    guard let latitude, let longitude else { return identity.key }
    let at = "\(Int((latitude * 100).rounded())),\(Int((longitude * 100).rounded()))"
    return identity.key + [0x1F] + Fold.key(region ?? "") + [0x1F] + Array(at.utf8)
  }

  /// Kilometres within which two atlas places of one name, country and region are one.
  package static let samePlace = 5.0

  /// Whether `other` is this place: the same name and country (however the country is
  /// written: ``FavouritesStore/sameIdentity(_:_:)``), and not told apart by what both
  /// know, their regions or their positions: more than ``samePlace`` apart when both are
  /// atlas places (both have a region: two San Pedros of Coahuila 42 km apart are two),
  /// more than ``PlaceFinder/sameTown`` when one is a catalogue city, whose coordinates a
  /// provider may round. A favourite added before positions were kept is the place of its
  /// name and country.
  package func samePlace(as other: Favourite) -> Bool {
    guard FavouritesStore.sameIdentity(identity, other.identity) else { return false }
    if let a = region, let b = other.region, Fold.key(a) != Fold.key(b) { return false }
    if let lat = latitude, let lon = longitude, let otherLat = other.latitude, let otherLon = other.longitude,
      Place.distance(lat, lon, otherLat, otherLon)
        > (region != nil && other.region != nil ? Self.samePlace : PlaceFinder.sameTown)
    {
      return false
    }
    return true
  }

  /// Of `favourites`, the one that is this place and fits it best: the same region before
  /// an unknown one, then the nearest, then one without a position (a favourite of an older
  /// wx, which is the place of its name and country only when nothing closer is).
  package func best(among favourites: some Sequence<Favourite>) -> Favourite? {
    var best: (f: Favourite, rank: (Int, Double))? = nil
    for f in favourites where f.samePlace(as: self) {
      let sameRegion = region != nil && f.region != nil
      var km = Double.infinity
      if let lat = latitude, let lon = longitude, let fLat = f.latitude, let fLon = f.longitude {
        km = Place.distance(lat, lon, fLat, fLon)
      }
      let rank = (sameRegion ? 0 : 1, km)
      if best == nil || rank < best!.rank { best = (f, rank) }
    }
    return best?.f
  }

  /// The favourite `found` would be, added at `added` as the `sequence`th. Coordinates only
  /// when known (an AccuWeather city may have none: NaN is never stored).
  package init(_ found: Found, added: Int64, sequence: UInt64) {
    let city = found.asCity
    self.init(name: city.name, country: city.country, id: city.id, added: added, sequence: sequence)
    let located =
      found.latitude.isFinite && found.longitude.isFinite && abs(found.latitude) <= 90 && abs(found.longitude) <= 180
    if located { (latitude, longitude) = (found.latitude, found.longitude) }
    region = found.place?.region
  }

  package init(name: String, country: String, id: Int, added: Int64, sequence: UInt64) {
    self.name = name
    self.country = country
    self.id = id
    self.added = added
    self.sequence = sequence
  }

  func encoded() -> [UInt8] {
    var w = ByteWriter()
    w.string(name)
    w.string(country)
    w.int(id)
    w.int(Int(added))
    w.varint(sequence)
    if let latitude, let longitude {
      w.double(latitude)
      w.double(longitude)
      w.string(region ?? "")
    }
    return w.bytes
  }

  init(decoding bytes: [UInt8]) throws(MalformedValue) {
    var r = ByteReader(bytes)
    name = try r.string()
    country = try r.string()
    id = try r.int()
    added = Int64(try r.int())
    sequence = try r.varint()
    if !r.isAtEnd {
      let (lat, lon) = (try r.double(), try r.double())
      // Unknown coordinates (NaN: a wx before this one stored an AccuWeather city's so) are
      // no coordinates, not damage: every command read favourites again, and exited 74.
      if lat.isNaN || lon.isNaN {
        (latitude, longitude) = (nil, nil)
      } else {
        guard abs(lat) <= 90, abs(lon) <= 180 else { throw MalformedValue() }
        (latitude, longitude) = (lat, lon)
      }
      let region = try r.string()
      self.region = region.isEmpty ? nil : region
    }
    guard r.isAtEnd, !name.isEmpty else { throw MalformedValue() }
  }
}

/// Favourites errors that are about the request, not the store.
package enum FavouritesError: Error, Equatable, Sendable, CustomStringConvertible {
  case notAFavourite([String])

  package var description: String {
    switch self {
    case .notAFavourite(let names): return "not a favourite: \(names.joined(separator: ", ")); nothing was removed"
    }
  }
}

/// `favourites.gdbm`: identity key → ``Favourite``. Never replaced by sync.
package struct FavouritesStore: Sendable {
  package let store: SmallStore
  package let writers: WriterLock.Policy

  package init(path: String, writers: WriterLock.Policy) {
    store = SmallStore(path: path, kind: .favourite, index: Self.orderIndexing)
    self.writers = writers
  }

  /// The key a salvaged payload is filed under, or nil if it is not a favourite (repair).
  package static func key(salvaging payload: [UInt8]) -> [UInt8]? {
    (try? Favourite(decoding: payload))?.key
  }

  /// All favourites in the order they were added.
  package func list() throws(StoreError) -> [Favourite] {
    try Self.decode(try store.read(), path: store.path)
  }

  static func decode(_ map: [[UInt8]: [UInt8]], path: String) throws(StoreError) -> [Favourite] {
    inOrder(try records(map, path: path)).map(\.favourite)
  }

  /// Every record with its key, in the map's order; an unreadable one is damage.
  static func records(_ map: [[UInt8]: [UInt8]], path: String) throws(StoreError) -> [(key: [UInt8], favourite: Favourite)] {
    var out: [(key: [UInt8], favourite: Favourite)] = []
    out.reserveCapacity(map.count)
    for (key, payload) in map {
      do throws(MalformedValue) {
        out.append((key, try Favourite(decoding: payload)))
      } catch {
        throw .damaged(path: path, detail: "a favourite record is unreadable")
      }
    }
    return out
  }

  /// In the order they were added (then by key: two added in one second by different wx
  /// versions, with the same sequence, keep one order).
  static func inOrder(_ entries: [(key: [UInt8], favourite: Favourite)]) -> [(key: [UInt8], favourite: Favourite)] {
    entries.sorted { a, b in
      let (x, y) = (a.favourite, b.favourite)
      return (x.added, x.sequence) != (y.added, y.sequence)
        ? (x.added, x.sequence) < (y.added, y.sequence) : a.key.lexicographicallyPrecedes(b.key)
    }
  }

  /// Adds cities in one locked read-modify-write. Returns, per city, whether it was new.
  package func add(_ cities: [City], now: Int64) throws -> [Bool] {
    try add(cities.map { Found(city: $0, place: nil) }, now: now)
  }

  /// Adds catalogue cities and atlas places, with where they are (and their region), in one
  /// locked read-modify-write. Returns, per place, whether it was new: a place that is a
  /// favourite already (``Favourite/samePlace(as:)``) is not added again, whatever the
  /// catalogue spells its country ("Cairo, EG", then "Cairo, Egypt" after a provider switch).
  package func add(_ places: [Found], now: Int64) throws -> [Bool] {
    try store.update(under: writers) { map in
      let all = try Self.decode(map, path: store.path)
      var next = (all.map(\.sequence).max() ?? 0) + 1
      var kept = Places(all)
      return places.map { found in
        let f = Favourite(found, added: now, sequence: next)
        guard map[f.key] == nil, kept.insert(f) else { return false }
        map[f.key] = f.encoded()
        next += 1
        return true
      }
    }
  }

  /// Places each once by ``Favourite/samePlace(as:)``, a place compared with those of its
  /// folded name only (adding to, or planning a sync of, 10,000 favourites compared each with
  /// every one): the store's add and the sync plan's favourites.
  package struct Places {
    private var byName: [[UInt8]: [Favourite]] = [:]

    package init(_ favourites: [Favourite] = []) {
      for f in favourites { byName[Fold.key(f.name), default: []].append(f) }
    }

    /// Adds `place` unless it is one already; whether it was new.
    package mutating func insert(_ place: Favourite) -> Bool {
      let name = Fold.key(place.name)
      if (byName[name] ?? []).contains(where: { $0.samePlace(as: place) }) { return false }
      byName[name, default: []].append(place)
      return true
    }
  }

  /// The same name, and the same country however it is written (a name, a code: ``Countries``).
  package static func sameIdentity(_ a: CityIdentity, _ b: CityIdentity) -> Bool {
    guard Fold.key(a.name) == Fold.key(b.name) else { return false }
    return Countries.same(Fold.key(a.country), Fold.key(b.country), version: Fold.version)
  }

  /// Removes, in one locked read-modify-write, the favourites that are each of `places`
  /// (``Favourite/samePlace(as:)``: a stored favourite, or a place looked up); removes
  /// nothing if any is none.
  package func remove(_ places: [Favourite]) throws {
    try store.update(under: writers) { map in
      let stored = try Self.records(map, path: store.path)
      var gone: [[UInt8]] = []
      var missing: [String] = []
      for place in places {
        // The record itself when it is one; else the favourite that is that place and fits it
        // best (one: of two San Pedros 42 km apart, a place between them is one of them).
        var matches = stored.filter { $0.favourite == place }.map(\.key)
        if matches.isEmpty, let chosen = place.best(among: stored.map(\.favourite)) {
          matches = stored.filter { $0.favourite == chosen }.map(\.key)
        }
        if matches.isEmpty { missing.append("\(place.name), \(place.country)") }
        gone += matches
      }
      if !missing.isEmpty { throw FavouritesError.notAFavourite(missing) }
      for key in gone { map[key] = nil }
    }
  }
}
