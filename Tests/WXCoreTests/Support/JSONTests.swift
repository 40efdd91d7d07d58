import Testing

@testable import WXCore

@Suite struct JSONTests {
  func parse(_ s: String) throws(JSONError) -> JSON { try JSON.parse(Array(s.utf8)) }

  /// One value type reads and writes: what a view builds parses back as the same value.
  @Test func writesWhatItParses() throws {
    let built = JSON.object([
      ("id", .int(9_007_199_254_740_991)), ("t", .number(-2.5)), ("n", .null), ("ok", .bool(true)),
      ("s", .string("é\u{1B}\"")), ("a", .array([.int(1), .object([JSON.Member]())])),
    ])
    #expect(built.text == #"{"id":9007199254740991,"t":-2.5,"n":null,"ok":true,"s":"é\u001b\"","a":[1,{}]}"#)
    #expect(try parse(built.text) == built)
  }

  @Test func parsesEveryKindOfValue() throws {
    let v = try parse(#" {"a":[1,-2.5,3e2,true,false,null,"x\u00e9\ud83d\ude00\n"],"b":{}} "#)
    #expect(
      v["a"]
        == .array([
          .number(1, integer: true), .number(-2.5, integer: false), .number(300, integer: false), .bool(true),
          .bool(false), .null, .string("xé😀\n"),
        ]))
    #expect(v["b"] == JSON.object([JSON.Member]()))
  }

  @Test(arguments: [
    ("[1,2", 4, "unexpected end of data"), ("[1,]", 3, "unexpected character"), ("{\"a\" 1}", 5, "expected ':'"),
    ("[NaN]", 1, "NaN"), ("[01]", 2, "leading zeros"), ("<html>", 0, "HTML"), ("[1] x", 4, "after the JSON value"),
    ("\"\u{01}\"", 1, "control character"), ("[\"\\ud800\"]", 8, "surrogate"), ("[1e999]", 1, "out of range"),
  ])
  func rejectsBadJSONWithTheOffset(_ input: String, _ offset: Int, _ reason: String) {
    #expect {
      _ = try parse(input)
    } throws: { error in
      guard let e = error as? JSONError else { return false }
      return e.offset == offset && e.reason.contains(reason)
    }
  }

  /// The parser's own fast paths (plain integers, short decimals, ASCII strings) must give
  /// exactly what strtod and the standard library's UTF-8 validation give.
  @Test func fastPathsAgreeWithTheStandardLibrary() throws {
    var rng = SystemRandomNumberGenerator()
    var texts = [
      "0.0", "-0.0", "0.1", "0.2", "0.3", "1.5", "-2.5", "12.345", "999999999999.999", "0.000000000000001",
      "123456789012345.0", "1234567890123.45", "9007199254740993.5", "0.1234567890123456", "3.141592653589793",
    ]
    for _ in 0..<3000 {
      let intDigits = Int.random(in: 1...9, using: &rng), fracDigits = Int.random(in: 1...9, using: &rng)
      var t = Bool.random(using: &rng) ? "-" : ""
      t += String(Int.random(in: 1...9, using: &rng))
      for _ in 1..<intDigits { t += String(Int.random(in: 0...9, using: &rng)) }
      t += "."
      for _ in 0..<fracDigits { t += String(Int.random(in: 0...9, using: &rng)) }
      texts.append(Bool.random(using: &rng) ? t : "0." + t.split(separator: ".")[1])
    }
    for t in texts {
      guard case .number(let d, integer: false) = try parse(t) else {
        Issue.record("\(t) is not a fraction")
        continue
      }
      #expect(d.bitPattern == Double(t)!.bitPattern, "\(t)")
    }
    let strings: [(String, String)] = [
      (#""plain""#, "plain"), (#""""#, ""), (#""Zürich""#, "Zürich"), (#""東京""#, "東京"),
      (#""a\u00e9b""#, "aéb"), (#""x\\y""#, "x\\y"), (#""N'Djamena""#, "N'Djamena"),
    ]
    for (json, expected) in strings { #expect(try parse(json) == .string(expected), "\(json)") }
  }

  @Test func rejectsInvalidUTF8AndNamesTheOffset() {
    let bytes: [UInt8] = Array("[\"ab".utf8) + [0xFF, 0xFE] + Array("\"]".utf8)
    #expect(throws: JSONError(offset: 4, reason: "invalid UTF-8 in a string")) { try JSON.parse(bytes) }
  }

  /// An unexpected byte is named as wx's terminal output names controls: two hex digits.
  @Test func namesAnUnexpectedByteWithTwoHexDigits() {
    #expect(throws: JSONError(offset: 0, reason: "unexpected character '\\x05'")) { try JSON.parse([0x05]) }
    #expect(throws: JSONError(offset: 0, reason: "unexpected character '\\xef'")) { try JSON.parse([0xEF, 0xBB, 0x31]) }
  }

  /// A UTF-8 byte order mark may open a document and is skipped (its bytes still count in
  /// offsets); anywhere else it is an unexpected byte.
  @Test func skipsAByteOrderMarkAtTheStart() throws {
    #expect(try JSON.parse(Array("\u{FEFF}[1]".utf8)) == .array([.int(1)]))
    #expect(try JSON.parse(Array("\u{FEFF} {\"a\":true} ".utf8))["a"] == .bool(true))
    for bad in [" \u{FEFF}[1]", "[\u{FEFF}1]", "\u{FEFF}\u{FEFF}1", "\u{FEFF}"] {
      #expect(throws: JSONError.self, "\(bad.debugDescription)") { try JSON.parse(Array(bad.utf8)) }
    }
    #expect(throws: JSONError(offset: 4, reason: "unexpected character 'x'")) { try JSON.parse(Array("\u{FEFF}[x]".utf8)) }
  }

  @Test func boundsNestingDepth() {
    let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect(throws: JSONError.self) { try parse(deep) }
  }

  @Test func writerEscapesAndRoundTrips() throws {
    let out = JSON.object([("s", .string("a\"b\\c\n\u{01}é")), ("n", .number(18)), ("f", .number(64.4)), ("i", .int(-3))])
    #expect(out.text == #"{"s":"a\"b\\c\n\u0001é","n":18,"f":64.4,"i":-3}"#)
    let back = try parse(out.text)
    #expect(back["s"] == .string("a\"b\\c\n\u{01}é"))
  }
}

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
}

@Suite struct UnitTests {
  @Test func convertsNumbersOnly() {
    #expect(TemperatureUnit.fahrenheit.temperature(18) == 64.4)
    #expect(TemperatureUnit.fahrenheit.jsonTemperature(18) == 64.4)
    #expect(TemperatureUnit.fahrenheit.jsonWind(16.09344) == 10)
    #expect(TemperatureUnit.round(-2.5) == -3 && TemperatureUnit.round(18.5) == 19)
  }

  @Test(arguments: [
    ("Rain showers", Condition.showers), ("Rainy", .rain), ("Partly Cloudy", .partlyCloudy), ("Partly cloudy", .partlyCloudy),
    ("Clear sky", .clear), ("Sunny", .sunny), ("Scattered clouds", .scatteredClouds), ("Snow", .snow), ("Fog", .fog),
    // WMO wordings (Open-Meteo).
    ("Thunderstorm with hail", .thunder), ("Depositing rime fog", .fog), ("Slight snow showers", .snow),
    ("Moderate drizzle", .rain), ("Overcast", .cloudy), ("Mainly clear", .clear),
    // AccuWeather's icon phrases.
    ("Mostly sunny", .sunny), ("Partly sunny", .partlyCloudy), ("Intermittent clouds", .partlyCloudy),
    ("Hazy sunshine", .sunny), ("Dreary (Overcast)", .cloudy), ("T-Storms", .thunder),
    ("Mostly cloudy w/ t-storms", .thunder), ("Partly sunny w/ showers", .showers), ("Flurries", .snow),
    ("Mostly cloudy w/ flurries", .snow), ("Ice", .snow), ("Sleet", .snow), ("Freezing rain", .rain),
    ("Rain and snow", .rain), ("Hot", .sunny), ("Mostly clear", .clear), ("Hazy moonlight", .clear),
    ("Cold", .unknown), ("Windy", .unknown), ("Snowstorm", .snow), ("Notice", .unknown),
  ])
  func classifiesDescriptions(_ text: String, _ condition: Condition) {
    #expect(Condition(description: text) == condition)
  }
}

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

@Suite struct RetryAfterTests {
  /// Seconds as given; an HTTP date as the time until it (0 once past); anything else 1 s.
  @Test func readsSecondsAndHTTPDates() {
    let now: Int64 = 784_111_777  // Sun, 06 Nov 1994 08:49:37 GMT
    #expect(Fetcher.retryAfter(" 7 ", now: now) == 7)
    #expect(Fetcher.retryAfter("-1", now: now) == -1)
    #expect(Fetcher.retryAfter("Sun, 06 Nov 1994 08:49:57 GMT", now: now) == 20)
    #expect(Fetcher.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 0)
    #expect(Fetcher.retryAfter("Sat, 05 Nov 1994 08:49:37 GMT", now: now) == 0)
    #expect(Fetcher.retryAfter("Fri, 01 Jan 2100 00:00:00 GMT", now: now) > Fetcher.maxRetryAfter)
    for junk in ["", "abc", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Foo 1994 08:49:37 GMT"] {
      #expect(Fetcher.retryAfter(junk, now: now) == 1, "\(junk)")
    }
  }
}

@Suite struct ProviderURLTests {
  @Test func pathsGoBeforeTheBaseURLsQueryAndKeysBeforeItsParameters() {
    #expect(ProviderConfig(url: "http://h/x/?a=1").url(path: "/y", query: "k=2") == "http://h/x/y?k=2&a=1")
    #expect(ProviderConfig(url: "http://h/x").url(path: "/y", query: "k=2") == "http://h/x/y?k=2")
    #expect(ProviderConfig(url: "http://h/x?").url(path: "/y", query: "k=2") == "http://h/x/y?k=2")
    #expect(ProviderConfig(url: "http://h/x#frag").url(path: "/y", query: "k=2") == "http://h/x/y?k=2")
    #expect(ProviderConfig(url: "http://h/x?a=1").url(path: "/y", query: "") == "http://h/x/y?a=1")
    #expect(ProviderConfig(url: "http://h/x").url(path: "/y", query: "") == "http://h/x/y")
  }
}
