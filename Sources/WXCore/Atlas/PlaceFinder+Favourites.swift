extension PlaceFinder {
  /// The favourite that is `found`, among `favourites`: the one of its name and country it
  /// is (``Favourite/best(among:)``), else, for an atlas place, a favourite of another name
  /// that is the same place: a catalogue holding Mumbai also as Bombay (GeoNames' other name
  /// of it), or Newcastle upon Tyne also as Newcastle, made two favourites of one town, and
  /// `wx fav rm` of the one not added said it was no favourite. Such a favourite is within
  /// ``sameTown`` of the place and reads back (``found(_:)-(Favourite)``) as that very place.
  package func favourite(of found: Found, among favourites: [Favourite]) throws(StoreError) -> Favourite? {
    if let kept = Favourite(found, added: 0, sequence: 0).best(among: favourites) { return kept }
    guard let place = found.place else { return nil }
    for f in favourites {
      guard let lat = f.latitude, let lon = f.longitude,
        Place.distance(lat, lon, place.latitude, place.longitude) <= Self.sameTown
      else { continue }
      if try self.found(f)?.place?.geonameID == place.geonameID { return f }
    }
    return nil
  }
}
