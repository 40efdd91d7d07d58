/// The names people type for a place that GeoNames gives neither as its name nor as an
/// alternate: the name before a joiner (`Newcastle upon Tyne` is Newcastle, `Freiburg im
/// Breisgau` Freiburg) and a few names by which a place is known (`nyc`, `hull`). Each is
/// stored as an alternate name, so it finds the place when typed whole and ranks it by size
/// among the places of that name (``qualifiedNames``: not where a larger place has the name
/// as its own within ``PlaceFinder/sameTown``).
extension AtlasWriter {
  /// The words joining a town's name to its river, sea or land, in the spellings GeoNames
  /// uses: `Newcastle upon Tyne`, `Stoke-on-Trent`, `Rostov-on-Don`, `Frankfurt am Main`,
  /// `Mülheim an der Ruhr`, `Freiburg im Breisgau`, `Boulogne-sur-Mer`, `Aix-en-Provence`,
  /// `Alphen aan den Rijn`. Lower case only: `Hòa On` is no joiner.
  package static let joiners = [
    " upon ", "-upon-", " on ", "-on-", " am ", " an der ", " im ", "-sur-", "-en-", " aan den ", " aan de ",
  ]

  /// Places whose name before the joiner is nobody's name for them: Kingston upon Hull is
  /// Hull (an alias, below); "Kingston, UK" is Kingston upon Thames.
  package static let unshortened: Set<String> = ["Kingston upon Hull"]

  /// `name` before its first joiner, folded (`Newcastle upon Tyne` → `newcastle`), or nil
  /// when it has none, nothing is before it, or it is ``unshortened``.
  static func beforeJoiner(_ name: String) -> [UInt8]? {
    guard !unshortened.contains(name) else { return nil }
    let u = Array(name.utf8)
    var first = u.count
    for joiner in joiners {
      let j = Array(joiner.utf8)
      var k = 1
      while k + j.count < min(u.count, first + j.count) {
        if u[k] == j[0] && u[k..<(k + j.count)].elementsEqual(j) {
          first = k
          break
        }
        k += 1
      }
    }
    guard first < u.count else { return nil }
    let base = Fold.key(String(decoding: u[..<first], as: UTF8.self))
    return base.isEmpty || base == Fold.key(name) ? nil : base
  }

  /// Names a place is known by that its data does not hold, each given to the largest place
  /// of that name in that country: (the name typed, the place's name, its country's code).
  package static let aliases: [(alias: String, name: String, countryCode: String)] = [
    ("nyc", "New York City", "US"), ("hull", "Kingston upon Hull", "GB"), ("philly", "Philadelphia", "US"),
    ("vegas", "Las Vegas", "US"),
  ]

  /// The alias `place` takes (folded), when it is the first (largest) place of an alias's
  /// name and country; `given` holds the aliases already given.
  static func alias(of place: Place, given: inout Set<Int>) -> [UInt8]? {
    guard let k = aliases.firstIndex(where: { $0.name == place.name && $0.countryCode == place.countryCode }),
      given.insert(k).inserted
    else { return nil }
    return Fold.key(aliases[k].alias)
  }
}
