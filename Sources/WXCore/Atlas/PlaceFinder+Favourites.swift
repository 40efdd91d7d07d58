extension PlaceFinder {
  /// The favourite that is `found`, among `favourites`: the one of its name and country it
  /// is (``Favourite/best(among:)``), else, for an atlas place, a favourite of another name
  /// that is the same place: a catalogue holding Mumbai also as Bombay (GeoNames' other name
  /// of it), or Newcastle upon Tyne also as Newcastle, made two favourites of one town, and
  /// `wx fav rm` of the one not added said it was no favourite. Such a favourite is within
  /// ``sameTown`` of the place and reads back (``found(_:)-(Favourite)``) as that very place,
  /// or as its twin under the other spelling of St/Mt/Ft (``spellingTwins(_:_:)``: St
  /// Johnsbury and Saint Johnsbury, Vermont, two GeoNames ids of one town).
  package func favourite(of found: Found, among favourites: [Favourite]) throws(StoreError) -> Favourite? {
    if let kept = Favourite(found, added: 0, sequence: 0).best(among: favourites) { return kept }
    return try favourite(ofOtherName: found, among: favourites)
  }

  /// ``favourite(of:among:)`` past the favourites of its name and country (which a caller
  /// asked already: `wx browse` by its index of them).
  package func favourite(ofOtherName found: Found, among favourites: [Favourite]) throws(StoreError) -> Favourite? {
    guard let place = found.place else { return nil }
    for f in favourites {
      guard let lat = f.latitude, let lon = f.longitude,
        Place.distance(lat, lon, place.latitude, place.longitude) <= Self.sameTown
      else { continue }
      guard let other = try self.found(f)?.place else { continue }
      if other.geonameID == place.geonameID || Self.spellingTwins(other, place) { return f }
    }
    return nil
  }
}
