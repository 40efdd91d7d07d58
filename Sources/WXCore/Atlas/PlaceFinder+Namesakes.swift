extension PlaceFinder {
  /// How many namesakes a note names one by one; more are left to `wx search`.
  package static let namesakesNamed = 3

  /// The other places named `text` (whole, as typed: no qualifier) beside `found`, the one it
  /// was taken for, when there are `count` of them and no more than ``namesakesNamed``: a note
  /// then names each by the argument that picks it. `rio` is Rio de Janeiro by another of its
  /// names, and the two towns named Rio (Greece, Wisconsin) are on `wx search rio`'s tenth
  /// page, behind the names that begin "rio". Nil otherwise (the note points to search).
  package func namesakes(of text: String, besides found: Found, count: Int) throws(StoreError) -> [Found]? {
    guard count > 0, count <= Self.namesakesNamed, !text.contains(",") else { return nil }
    let named = try names.named(text)
    let others = named.filter { f in
      if let p = f.place, let own = found.place { return p.position != own.position }
      return f != found
    }
    return others.count == count && named.count == count + 1 ? others : nil
  }

  /// For each of `places`, an argument that a command resolves to that place and no other,
  /// silently: the first of `candidates(place)` that does (tried as the command tries it:
  /// `Porto, Brazil` lists Porto Alegre and Porto Velho, and `Saint-Thomas, Canada` is St.
  /// Thomas, Ontario, so Porto's region or its GeoNames id is offered). Nil when one has none.
  package func arguments(naming places: [Found], candidates: (Found) -> [String]) -> [String]? {
    var out: [String] = []
    for f in places {
      guard
        let argument = candidates(f).first(where: { argument in
          guard let (got, sharing, begun) = try? lookup(argument), sharing == 0, begun == 0 else { return false }
          if let p = f.place { return got.place?.position == p.position && got.city?.recordKey == f.city?.recordKey }
          return got.place == nil && got.city?.recordKey == f.city?.recordKey
        })
      else { return nil }
      out.append(argument)
    }
    return out
  }

  /// The atlas places other than `own` named `text`, in any spelling of St/Saint/Sankt,
  /// Mt/Mount, Ft/Fort (``WorldNames/otherSpellings(_:)``): a name several places share has a `p` record.
  func sharingTheName(_ text: String, with own: Place) throws(StoreError) -> [Place] {
    guard let atlas else { return [] }
    let key = atlas.fold(text)
    var out = (try atlas.record(key) ?? []).filter { $0.position != own.position }
    for other in WorldNames.otherSpellings(key) {
      for p in try atlas.namedPlaces(other)
      where p.position != own.position && !Self.spellingTwins(p, own)
        && !out.contains(where: { $0.position == p.position || Self.spellingTwins($0, p) })
      {
        out.append(p)
      }
    }
    return out
  }
}
