extension PlaceFinder {
  /// The atlas place a catalogue city is: of its name (or an alternate name), its country,
  /// nearest within ``sameTown``; else, as no place has its name, of another spelling of
  /// St/Mt/Ft (``WorldNames/otherSpellings(_:)``): a catalogue's St. Gallen is GeoNames'
  /// Sankt Gallen, and `wx show 'sankt gallen'` counted it as another place of the name.
  package func place(of city: City) throws(StoreError) -> Place? {
    guard let atlas else { return nil }
    let key = atlas.fold(city.name)
    if let own = try nearestPlace(named: key, to: city, atlas) { return own }
    return try otherSpelledPlace(of: city, key: key)
  }

  /// The atlas place of another spelling of St/Mt/Ft that a catalogue city no place of its own
  /// name is (``place(of:)``); `key`: its name folded, when known.
  func otherSpelledPlace(of city: City, key: [UInt8]? = nil) throws(StoreError) -> Place? {
    guard let atlas else { return nil }
    for other in WorldNames.otherSpellings(key ?? atlas.fold(city.name)) {
      if let p = try nearestPlace(named: other, to: city, atlas) { return p }
    }
    return nil
  }

  /// Of the places named `key` (folded), the one of `city`'s country nearest it within
  /// ``sameTown``.
  private func nearestPlace(named key: [UInt8], to city: City, _ atlas: Atlas) throws(StoreError) -> Place? {
    var best: (place: Place, km: Double)? = nil
    // The distance first: it rules out the far places of the name without asking the
    // country table (`show Berlin` asks it of none).
    for p in try atlas.namedPlaces(key) {
      let km = Place.distance(p.latitude, p.longitude, city.latitude, city.longitude)
      if km <= Self.sameTown && km < (best?.km ?? .infinity) && sameCountry(p, city.country) { best = (p, km) }
    }
    return best?.place
  }

  /// The catalogue city that is `place` under another spelling of St/Mt/Ft (a catalogue's
  /// St Johnsbury for GeoNames' Saint Johnsbury, Vermont; its Mount Pleasant for Mt
  /// Pleasant, British Columbia): `wx show 'saint johnsbury'` showed the place without
  /// weather, while `wx search` listed the catalogue's with it.
  /// Not a city that is another town of that spelling (a Mount X 30 km from Mt X).
  /// `key`: its name folded, when known.
  func otherSpelledCity(_ place: Place, key: [UInt8]? = nil) throws(StoreError) -> City? {
    for other in WorldNames.otherSpellings(key ?? catalogue.fold(place.name)) {
      guard
        let city = try nearestCity(
          named: String(decoding: other, as: UTF8.self), country: place, latitude: place.latitude, longitude: place.longitude)
      else { continue }
      guard let itsPlace = try self.place(of: city) else { return city }
      if itsPlace.position == place.position || Self.spellingTwins(itsPlace, place) { return city }
    }
    return nil
  }

  // MARK: Other scripts

  /// How many catalogue names in another script than the atlas's (their folded name starts
  /// past ASCII) ``linkedCity(_:)`` reads at most.
  package static let otherScripts = 1_024

  /// Kilometres within which a catalogue city named in another script is a place: no name
  /// tells them apart, so not ``sameTown``'s 50 (Yokohama, 28 km from the sample's 東京,
  /// showed Tokyo's weather, and so did Kawasaki, Saitama and Chiba).
  package static let otherScriptTown = 10.0

  /// The catalogue city named in another script (東京) that is `place`: of its country,
  /// nearest within ``otherScriptTown``. The atlas's names are Latin, so such a city is linked
  /// by where it is: `tokyo` finds the sample's 東京 and its weather. Not a district of the
  /// town the city is: a place whose region is named after a larger place near the city
  /// (Shibuya, Shinjuku, Setagaya of Tokyo; Chaoyang of Beijing) is a place of its own, where
  /// `wx show shibuya` showed 東京's weather under Shibuya's people.
  package func linkedCity(_ place: Place) throws(StoreError) -> City? {
    var best: (city: City, km: Double)? = nil
    for e in try otherScriptEntries(mayBeIn: place.country) {
      let c = try catalogue.city(e.ref)
      guard sameCountry(place, c.country) else { continue }
      let km = Place.distance(place.latitude, place.longitude, c.latitude, c.longitude)
      if km <= Self.otherScriptTown && km < (best?.km ?? .infinity) { best = (c, km) }
    }
    guard let city = best?.city else { return nil }
    if let region = place.region, let atlas, Fold.key(region) != Fold.key(place.name) {
      for town in try atlas.named(region) where town.position != place.position && town.population > place.population {
        let km = Place.distance(town.latitude, town.longitude, city.latitude, city.longitude)
        if km <= Self.otherScriptTown && town.countryCode == place.countryCode { return nil }
      }
    }
    return city
  }

  /// The catalogue's name entries whose folded name starts past ASCII (they sort last), at
  /// most ``otherScripts``, read once per finder.
  private func otherScriptEntries() throws(StoreError) -> [CityIndex.Entry] {
    if let known = otherScript.entries { return known }
    let reader = CityIndexReader(database: catalogue.db)
    var out: [CityIndex.Entry] = []
    if let root = try reader.node([][...]), let start = root.children.first(where: { $0.byte >= 0x80 })?.names.lowerBound {
      let end = min(catalogue.meta.nameEntries, start + Self.otherScripts)
      var k = start
      while k < end {
        let chunk = try reader.entries("n", k..<min(end, k + CityIndex.blockSize), countries: true)
        out += chunk
        k += max(1, chunk.count)
      }
    }
    otherScript.entries = out
    return out
  }

  /// Of ``otherScriptEntries()``, those whose country may be the atlas's `country`
  /// (``mayBeCountry(_:_:)``), found once per country per finder: a name shared by many
  /// places (42 Springfields) asks for every one of them.
  private func otherScriptEntries(mayBeIn country: String) throws(StoreError) -> [CityIndex.Entry] {
    if let k = otherScript.countries.firstIndex(of: country) { return otherScript.inCountry[k] }
    var out: [CityIndex.Entry] = []
    for e in try otherScriptEntries() {
      if let c = e.country.flatMap({ ByteReader.utf8($0[...]) }), !mayBeCountry(country, c) { continue }
      out.append(e)
    }
    otherScript.countries.append(country)
    otherScript.inCountry.append(out)
    return out
  }

  final class OtherScript {
    var entries: [CityIndex.Entry]?
    /// Atlas countries and their entries (``otherScriptEntries(mayBeIn:)``), in arrays.
    var countries: [String] = []
    var inCountry: [[CityIndex.Entry]] = []
  }

  /// `page` with each place listed without a catalogue city given the one it is under another
  /// name (``otherNamedCity(_:)``), as `wx show` finds it, unless a row of the page has it:
  /// `wx search tok` listed Tokyo without its weather where `wx show tok` gave the sample's 東京.
  /// A page's rows only: a row listed on another page has a name the query begins, which
  /// such a city's does not.
  func withOtherNamedCities(_ page: [Found]) throws(StoreError) -> [Found] {
    var out = page
    var listed = page.compactMap { $0.city?.recordKey }
    for k in out.indices where out[k].city == nil {
      guard let place = out[k].place, let city = try otherNamedCity(place), !listed.contains(city.recordKey) else { continue }
      out[k].city = city
      listed.append(city.recordKey)
    }
    return out
  }
}
