import Testing

@testable import WXCore

/// A search's link lookup reads a block only as far as the place asked about, and skips the
/// cities before it unread (``AtlasLinks/city(at:_:first:places:cities:)``): it answers as the
/// whole block decoded does, for every position, and refuses a block whose positions or city
/// would make its answer wrong (a hostile delta included), never trapping.
@Suite struct AtlasLinksLookupTests {
  /// Blocks of one-byte and longer deltas and cities (positions past 16,383 take three bytes).
  static func links() -> [(position: Int, city: Int)] {
    var out: [(position: Int, city: Int)] = []
    var position = 3
    for k in 0..<700 {
      out.append((position, (k * 7_919) % 1_000_000))
      position += k % 5 == 0 ? 1 : k % 7 == 0 ? 300 : 2 + k % 3
    }
    return out
  }

  static let places = 200_000
  static let cities = 1_000_000

  @Test func aLookupAnswersAsTheWholeBlockDecoded() throws {
    let links = Self.links()
    let (rawHead, blocks) = AtlasLinks.encode(links, dataChecksum: 1, places: Self.places, foldVersion: 1)
    var h = try Envelope.open(.atlasLinks, rawHead)
    let head = try AtlasLinks.Head(decoding: &h)
    #expect(blocks.count == 3)
    for (b, raw) in blocks.enumerated() {
      let r = try Envelope.open(.atlasLinks, raw)
      var whole = r
      let decoded = try AtlasLinks.decodeBlock(&whole, first: head.firsts[b], places: Self.places, cities: Self.cities)
      let end = b + 1 < blocks.count ? head.firsts[b + 1] : decoded.last!.position + 2
      for position in head.firsts[b]..<end {
        let expected = decoded.first { $0.position == position }?.city
        let found = try AtlasLinks.city(at: position, r, first: head.firsts[b], places: Self.places, cities: Self.cities)
        #expect(found == expected, "block \(b), position \(position)")
      }
    }
  }

  @Test func aLookupRefusesWhatWouldMakeItsAnswerWrong() throws {
    func block(_ bytes: [UInt8]) -> ByteReader { ByteReader(bytes) }
    // count, then (delta, city) pairs: positions 5, 7, 9 of cities 1, 2, 3.
    let good: [UInt8] = [3, 5, 1, 2, 2, 2, 3]
    #expect(try AtlasLinks.city(at: 9, block(good), first: 5, places: 100, cities: 10) == 3)
    #expect(try AtlasLinks.city(at: 8, block(good), first: 5, places: 100, cities: 10) == nil)
    // A first position that is not the head's, a repeated position, a position past the
    // places, a city past the catalogue, no links, too many, a block cut short, and a delta
    // of 2^63 - 1 (added unchecked, it trapped).
    let refused: [(bytes: [UInt8], position: Int)] = [
      ([3, 6, 1, 2, 2, 2, 3], 9), ([3, 5, 1, 0, 2, 2, 3], 9), ([3, 5, 1, 2, 2, 200, 1, 3], 99),
      ([3, 5, 1, 2, 2, 2, 30], 9), ([0], 5), ([0x81, 0x02, 5, 1], 5), ([3, 5, 1, 2, 0x82], 9),
      ([2, 5, 1] + [UInt8](repeating: 0xFF, count: 8) + [0x7F, 1], 9),
    ]
    for (bytes, position) in refused {
      #expect(throws: MalformedValue.self, "\(bytes)") {
        try AtlasLinks.city(at: position, block(bytes), first: 5, places: 100, cities: 10)
      }
    }
  }
}
