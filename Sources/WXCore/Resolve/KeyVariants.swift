/// The keys a folded query may stand for (``Resolver/keys(_:insertions:)``): the key as typed
/// first, the variants made only if asked for, so the usual lookup (the first key matches)
/// allocates none.
package struct KeyVariants: Sequence, IteratorProtocol {
  let folded: [UInt8]
  let insertions: Bool
  private var rest: [[UInt8]]?
  private var k = 0

  init(folded: [UInt8], insertions: Bool) {
    self.folded = folded
    self.insertions = insertions
  }

  package mutating func next() -> [UInt8]? {
    defer { k += 1 }
    if k == 0 { return folded }
    if rest == nil { rest = Resolver<PlaceList>.variants(folded, insertions: insertions) }
    return k - 1 < rest!.count ? rest![k - 1] : nil
  }
}

/// Qualifiers the country table reads as a country that are, for places, their region:
/// England, Scotland, Wales and Northern Ireland (the United Kingdom's, as GeoNames names them).
enum RegionsNotCountries {
  static let folded: Set<[UInt8]> = Set(["england", "scotland", "wales", "northern ireland"].map { Array($0.utf8) })
}
