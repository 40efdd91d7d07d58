import Testing

@testable import WXCore

@Suite struct FoldTests {
  @Test(arguments: [
    ("São Paulo", "sao paulo"), ("Łódź", "lodz"), ("ZÜRICH", "zurich"), ("Gießen", "giessen"), ("Tromsø", "tromso"),
    ("東京", "東京"), ("Ærøskøbing", "aeroskobing"), ("  New   York ", "new york"), ("N’Djamena", "ndjamena"),
    ("N'Djamena", "ndjamena"), ("Hawaiʻi", "hawaii"), ("Winston-Salem", "winston salem"), ("Winston‐Salem", "winston salem"),
    ("St. Louis", "st louis"), ("Washington, D.C.", "washington, dc"), ("a - b", "a b"), ("-Lima-", "lima"),
    ("Zu\u{308}rich", "zurich"), ("Bogotá", "bogota"),
  ])
  func foldsCaseAccentsAndPunctuation(_ input: String, _ expected: String) {
    #expect(Fold.string(input) == expected)
  }

  @Test(arguments: [("N’Djamena", "n'djamena"), ("Winston-Salem", "winston-salem"), ("St. Louis", "st. louis")])
  func versionOneKeptPunctuation(_ input: String, _ expected: String) {
    #expect(String(decoding: Fold.key(input, version: 1), as: UTF8.self) == expected)
  }

  /// `hasKey` skips folding when an ASCII byte folding keeps is there: it must agree with
  /// folding on every ASCII byte alone, beside dropped characters, and on non-ASCII names.
  @Test func hasKeyAgreesWithFolding() {
    var inputs = ["", " ", "-", "'", ".", "`", "’", "\u{AD}", "\u{301}", " - ' . ", "東京", "Ł", "a", ",", "(", "ʻ", "‐"]
    for b in UInt8(0)..<0x80 {
      let c = String(UnicodeScalar(b))
      inputs += [c, " " + c + " ", "’" + c, c + "\u{301}"]
    }
    for s in inputs { #expect(Fold.hasKey(s) == !Fold.key(s).isEmpty, "\(s.unicodeScalars.map(\.value))") }
  }

  @Test func findsLaterWordStarts() {
    #expect(Fold.wordStarts(of: "Ho Chi Minh City") == [3, 7, 12])
    #expect(Fold.wordStarts(of: "Winston-Salem") == [8])
    #expect(Fold.wordStarts(of: "N'Djamena") == [1])
    #expect(Fold.wordStarts(of: "L’Aquila") == [1])
    #expect(Fold.wordStarts(of: "St. Louis") == [3])
    #expect(Fold.wordStarts(of: "Paris") == [])
  }

  @Test func aHeaderWithoutAFoldVersionIsVersionOne() throws {
    var meta = CatalogueMeta(generation: 1, source: "s", provider: "p", syncedAt: 0, count: 0, isSample: false)
    let current = meta.encoded()
    var r = ByteReader(current)
    #expect(try CatalogueMeta(decoding: &r).foldVersion == Fold.version)
    meta.foldVersion = 1
    // The version is the byte before the list provider ("p": 2 bytes), its time (0: 1 byte)
    // and the refreshed count (0: 1 byte), which headers of that age lack too.
    var old = ByteReader(Array(meta.encoded().dropLast(5)))
    #expect(try CatalogueMeta(decoding: &old).foldVersion == 1)
  }

  /// The ASCII spelling a terminal without UTF-8 shows: case kept, one `?` a column otherwise.
  @Test func asciiSpellingKeepsCaseAndColumns() {
    #expect(Fold.ascii("Kraków") == "Krakow")
    #expect(Fold.ascii("Łódź") == "Lodz")
    #expect(Fold.ascii("Gießen") == "Giessen")
    #expect(Fold.ascii("ÆRØ") == "AeRO")
    #expect(Fold.ascii("São Paulo") == "Sao Paulo")
    #expect(Fold.ascii("Sa\u{0303}o") == "Sao")
    #expect(Fold.ascii("東京") == "????")
    #expect(Fold.ascii("Paris") == "Paris")
  }
}
