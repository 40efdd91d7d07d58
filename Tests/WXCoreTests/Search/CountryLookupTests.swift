import Testing

@testable import WXCore

/// The country table's lookup (``Countries/lines(naming:version:)``) against the table itself:
/// the lines naming a term are exactly those with that term among their `|`-separated codes
/// and names.
@Suite struct CountryLookupTests {
  @Test func everyCodeAndNameFindsExactlyItsLines() {
    var terms: [String] = []
    for keys in countryKeys { terms += keys.split(separator: "|").map(String.init) }
    terms += ["", "f", "fran", "francex", "united", "|", "fr|fra"]
    for term in terms {
      let expected = countryKeys.indices.filter { countryKeys[$0].split(separator: "|").contains { $0 == term } }
      #expect(Countries.lines(naming: Array(term.utf8), version: 2) == (term.isEmpty ? [] : expected), "\(term)")
    }
    #expect(Countries.lines(naming: Array("fr".utf8), version: 2).map { countryTable[$0] }.first?.hasPrefix("FR|") == true)
  }
}
