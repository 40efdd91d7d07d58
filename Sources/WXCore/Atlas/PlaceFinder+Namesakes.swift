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
}
