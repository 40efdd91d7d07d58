extension PlaceFinder {
  /// The catalogue city that is `place` under the other spelling of St/Mt/Ft (a catalogue's
  /// St Johnsbury for GeoNames' Saint Johnsbury, Vermont; its Mount Pleasant for Mt
  /// Pleasant, British Columbia): `wx show 'saint johnsbury'` showed the place without
  /// weather, while `wx search` listed the catalogue's with it.
  /// Not a city that is another town of that spelling (a Mount X 30 km from Mt X).
  func otherSpelledCity(_ place: Place) throws(StoreError) -> City? {
    guard let other = WorldNames.abbreviated(catalogue.fold(place.name)),
      let city = try nearestCity(
        named: String(decoding: other, as: UTF8.self), country: place, latitude: place.latitude, longitude: place.longitude)
    else { return nil }
    guard let itsPlace = try self.place(of: city) else { return city }
    return itsPlace.position == place.position || Self.spellingTwins(itsPlace, place) ? city : nil
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
}
