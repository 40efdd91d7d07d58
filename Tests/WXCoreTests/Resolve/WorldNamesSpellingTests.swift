import Testing

@testable import WXCore

/// The spellings of St/Saint/Sankt, Mt/Mount, Ft/Fort that name the same places.
struct WorldNamesSpellingTests {
  func spellings(_ key: String) -> [String] {
    WorldNames.otherSpellings(Array(key.utf8)).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func eachWordOfAGroupIsSpelledEachOtherWay() {
    #expect(spellings("st gallen") == ["saint gallen", "sankt gallen"])
    #expect(spellings("sankt polten") == ["st polten", "saint polten"])
    #expect(spellings("saint denis") == ["st denis", "sankt denis"])
    #expect(spellings("ste foy") == ["sainte foy"])
    #expect(spellings("fort worth") == ["ft worth"])
    // The n-th spelling of each word at once; a group of two keeps its word past its second.
    #expect(spellings("mt st helens") == ["mount saint helens", "mt sankt helens"])
  }

  @Test func wordsThatOnlyBeginSoAreNotSpelledOtherwise() {
    for key in ["paris", "fortune", "stuttgart", "mountain view", "s", "", "st.", "ft lauderdale x"] {
      let expected = key == "ft lauderdale x" ? ["fort lauderdale x"] : []
      #expect(spellings(key) == expected, "\(key)")
      #expect(WorldNames.hasAbbreviation(Array(key.utf8)) == !expected.isEmpty, "\(key)")
    }
  }
}
