import Testing

@testable import WXCore

@Suite struct CountryTests {
  /// The generator's fold of every code and name agrees with ``Fold`` itself.
  @Test func precomputedKeysAreTheFoldOfTheNames() {
    #expect(countryTable.count == countryKeys.count)
    for (names, keys) in zip(countryTable, countryKeys) {
      let folded = names.split(separator: "|").map { String(decoding: Fold.key(String($0)), as: UTF8.self) }
      #expect(folded.joined(separator: "|") == keys, "\(names)")
    }
  }

  @Test(arguments: [
    ("fr", "france", Countries.Fit.exact), ("fra", "france", .exact), ("fr", "french polynesia", .prefix),
    ("uk", "united kingdom", .exact), ("usa", "united states", .exact), ("jp", "japan", .exact),
    ("au", "austria", .prefix), ("au", "australia", .exact), ("de", "france", .none), ("turkey", "turkiye", .exact),
  ])
  func codesAndNamesFit(_ typed: String, _ country: String, _ fit: Countries.Fit) {
    #expect(Countries.fit(Array(typed.utf8), Array(country.utf8), version: 2) == fit)
    #expect(Countries.fit(Array(typed.utf8), Array(country.utf8), version: 1) == fit)
  }
}
