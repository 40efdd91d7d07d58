/// A favourite city, kept by identity (name + country) so it survives every sync.
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
    store = SmallStore(path: path, kind: .favourite, index: SmallStore.Index(derive: Self.orderIndex))
    self.writers = writers
  }

  /// The key a salvaged payload is filed under, or nil if it is not a favourite (repair).
  package static func key(salvaging payload: [UInt8]) -> [UInt8]? {
    (try? Favourite(decoding: payload))?.identity.key
  }

  /// All favourites in the order they were added.
  package func list() throws(StoreError) -> [Favourite] {
    try Self.decode(try store.read(), path: store.path)
  }

  static func decode(_ map: [[UInt8]: [UInt8]], path: String) throws(StoreError) -> [Favourite] {
    var out: [(key: [UInt8], favourite: Favourite)] = []
    out.reserveCapacity(map.count)
    for (key, payload) in map {
      do throws(MalformedValue) {
        out.append((key, try Favourite(decoding: payload)))
      } catch {
        throw .damaged(path: path, detail: "a favourite record is unreadable")
      }
    }
    return inOrder(out).map(\.favourite)
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
  /// locked read-modify-write. Returns, per place, whether it was new. A favourite is kept by
  /// name and country: of two places that share both, one can be a favourite.
  package func add(_ places: [Found], now: Int64) throws -> [Bool] {
    try store.update(under: writers) { map in
      var kept = try Self.decode(map, path: store.path)
      var next = (kept.map(\.sequence).max() ?? 0) + 1
      return places.map { found in
        let city = found.asCity
        let key = city.identity.key
        if map[key] != nil { return false }
        // One place is one favourite whatever the catalogue spells its country: "Cairo, EG"
        // from a catalogue with codes is "Cairo, Egypt" after a provider switch.
        if kept.contains(where: { Self.sameIdentity($0.identity, city.identity) }) { return false }
        var f = Favourite(name: city.name, country: city.country, id: city.id, added: now, sequence: next)
        // Coordinates only when known (an AccuWeather city may have none: NaN is never stored).
        let located =
          found.latitude.isFinite && found.longitude.isFinite && abs(found.latitude) <= 90
          && abs(found.longitude) <= 180
        if located { (f.latitude, f.longitude) = (found.latitude, found.longitude) }
        f.region = found.place?.region
        map[key] = f.encoded()
        kept.append(f)
        next += 1
        return true
      }
    }
  }

  /// The same name, and the same country however it is written (a name, a code: ``Countries``).
  static func sameIdentity(_ a: CityIdentity, _ b: CityIdentity) -> Bool {
    guard Fold.key(a.name) == Fold.key(b.name) else { return false }
    let (x, y) = (Fold.key(a.country), Fold.key(b.country))
    return x == y || Countries.fit(x, y, version: Fold.version) == .exact || Countries.fit(y, x, version: Fold.version) == .exact
  }

  /// Removes favourites in one locked read-modify-write; removes nothing if any is absent.
  package func remove(_ identities: [CityIdentity]) throws {
    try store.update(under: writers) { map in
      let missing = identities.filter { map[$0.key] == nil }
      if !missing.isEmpty { throw FavouritesError.notAFavourite(missing.map { "\($0.name), \($0.country)" }) }
      for identity in identities { map[identity.key] = nil }
    }
  }
}
