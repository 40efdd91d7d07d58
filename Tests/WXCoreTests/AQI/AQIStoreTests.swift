import Foundation
import Testing

@testable import WXCore
@testable import WXFeed

@Suite struct AQIScaleTests {
  @Test func usBandsAndAnOldHistoryReadsAsNAQI() throws {
    #expect(AQICategory(aqi: 50.5, scale: .us).name(on: .us) == "Good")
    #expect(AQICategory(aqi: 120, scale: .us).name(on: .us) == "Unhealthy for Sensitive Groups")
    #expect(AQICategory(aqi: 350, scale: .us).name(on: .us) == "Hazardous")
    var w = ByteWriter()  // the layout before scales: city, count, (time, aqi)…
    w.string("Delhi")
    w.varint(1)
    w.int(7)
    w.double(302.2)
    let old = try AQIHistory(decoding: w.bytes)
    #expect(old.samples == [AQISample(time: 7, aqi: 302.2)] && old.latest?.scale == .naqi)
    let new = AQIHistory(city: "Delhi", samples: [AQISample(time: 8, aqi: 90, scale: .us, european: 30, pm25: nil)])
    #expect(try AQIHistory(decoding: new.encoded()) == new)
  }

  /// A history holding readings of two scales is charted one scale at a time: never a
  /// minimum, a maximum or a latest reading across them.
  @Test func aSeriesHoldsOneScale() {
    let history = AQIHistory(
      city: "Delhi",
      samples: [
        AQISample(time: 1, aqi: 400), AQISample(time: 2, aqi: 90, scale: .us), AQISample(time: 3, aqi: 310),
        AQISample(time: 4, aqi: 60, scale: .us),
      ])
    #expect(history.scales == [.naqi, .us])
    let us = history.series()
    #expect(us?.scale == .us && us?.samples.map(\.aqi) == [90, 60] && us?.min == 60 && us?.max == 90)
    #expect(us?.latest.time == 4 && us?.others == [AQISeries.Other(scale: .naqi, count: 2)])
    let naqi = history.series(on: .naqi)
    #expect(naqi?.samples.map(\.aqi) == [400, 310] && naqi?.min == 310 && naqi?.max == 400 && naqi?.latest.time == 3)
    #expect(AQIHistory(city: "Agra", samples: [AQISample(time: 1, aqi: 5)]).series(on: .us) == nil)
    #expect(AQIHistory(city: "Agra", samples: [AQISample(time: 1, aqi: 5)]).series()?.others == [])
  }
}

@Suite struct AQICategoryTests {
  @Test func publishedBandsAndTheGapsBetweenThem() {
    let cases: [(Double, AQICategory)] = [
      (0, .good), (50, .good), (50.23, .good), (50.99, .good), (51, .satisfactory), (100, .satisfactory),
      (100.5, .satisfactory), (101, .moderate), (200.99, .moderate), (201, .poor), (300.5, .poor), (301, .veryPoor),
      (400.99, .veryPoor), (401, .severe), (500, .severe), (500.5, .severe), (1000, .severe),
    ]
    for (aqi, expected) in cases {
      #expect(AQICategory(aqi: aqi) == expected, "\(aqi)")
    }
  }

  @Test func namesAndBands() {
    #expect(AQICategory.allCases.map(\.name) == ["Good", "Satisfactory", "Moderate", "Poor", "Very Poor", "Severe"])
    #expect(AQICategory.allCases.map(\.band.lowerBound) == [0, 51, 101, 201, 301, 401])
    // Every whole number of a band falls in that band.
    for c in AQICategory.allCases {
      for v in c.band { #expect(AQICategory(aqi: Double(v)) == c) }
    }
  }
}

@Suite struct AQIFrameTests {
  @Test func decodesReadingsAndIgnoresExtraFields() {
    let d = AQIFrame.decode(#"[{"city":"Mumbai","aqi":179.64},{"city":"Delhi","aqi":302.2,"pm25":88,"note":null}]"#)
    #expect(d.bad == 0 && d.problem == nil)
    #expect(d.readings == [AQIReading(city: "Mumbai", aqi: 179.64), AQIReading(city: "Delhi", aqi: 302.2)])
    #expect(AQIFrame.decode("[]") == AQIFrame.Decoded())
    #expect(AQIFrame.decode(#" [ {"aqi": 7, "city": "  Pune\t "} ] "#).readings == [AQIReading(city: "Pune", aqi: 7)])
  }

  @Test func badFramesCountAsOne() {
    for text in ["not json", "", "{\"city\":\"Delhi\",\"aqi\":3}", "[{\"city\":\"Delhi\",\"aqi\":3}", "42", "[NaN]"] {
      let d = AQIFrame.decode(text)
      #expect(d.readings.isEmpty && d.bad == 1 && d.problem != nil, "\(text)")
    }
    #expect(AQIFrame.decode("nope").problem?.hasPrefix("not JSON") == true)
    #expect(AQIFrame.decode("{}").problem == "expected an array of readings, found an object")
  }

  @Test func badEntriesAreSkippedAndCountedGoodOnesKept() {
    let d = AQIFrame.decode(
      #"[{"city":"Delhi","aqi":-5},{"city":"Pune","aqi":42},{"city":"Agra","aqi":1000.5},{"city":5,"aqi":3},"#
        + #"{"city":"Goa","aqi":"high"},{"city":"Kota"},7,{"city":"   ","aqi":3},{"city":"Leh","aqi":1000},{"city":"Ooty","aqi":true}]"#
    )
    #expect(d.readings == [AQIReading(city: "Pune", aqi: 42), AQIReading(city: "Leh", aqi: 1000)])
    #expect(d.bad == 8)
    #expect(d.problem == "Delhi: AQI -5 is out of range (0–1000)")
    #expect(AQIFrame.decode(#"[{"city":"Goa","aqi":"high"}]"#).problem == #"Goa: "aqi" is a string, not a number"#)
    #expect(AQIFrame.decode(#"[{"city":"Kota"}]"#).problem == #"Kota: "aqi" is nothing, not a number"#)
  }

  @Test func aCityTwiceInAFrameKeepsItsLastValue() {
    let d = AQIFrame.decode(#"[{"city":"Delhi","aqi":1},{"city":"Pune","aqi":2},{"city":"DELHI","aqi":3}]"#)
    #expect(d.readings == [AQIReading(city: "DELHI", aqi: 3), AQIReading(city: "Pune", aqi: 2)])
    // The value replaced is counted and said, not dropped silently.
    #expect(d.bad == 1 && d.problem == "DELHI is named more than once in one frame (its last value is kept)")
  }

  /// A feed's city names are cleaned as the catalogue's are: no control, bidi or other format
  /// character is stored, and a name of nothing else is unusable.
  @Test func cityNamesAreCleanedAsSyncCleansThem() {
    let d = AQIFrame.decode(#"[{"city":"\u001b]0;PWN\u0007De\u001b[2Jlhi\u202e","aqi":5},{"city":"\u200b\u202e","aqi":1}]"#)
    #expect(d.readings == [AQIReading(city: "]0;PWN De [2Jlhi", aqi: 5)])
    #expect(d.bad == 1 && d.problem == "entry 2 has an unusable city name")
    let long = String(repeating: "a", count: 257)
    #expect(AQIFrame.decode(#"[{"city":"\#(long)","aqi":1}]"#).problem == "entry 1 has an unusable city name")
  }
}

@Suite struct AQIStoreTests {
  func store(_ s: Scratch) -> AQIStore {
    AQIStore(path: s.file("aqi.gdbm"), writers: WriterLock.Policy(directory: s.path, deadline: 2))
  }

  @Test func keepsTheLastTwentyReadingsPerCityOldestFirst() throws {
    let s = Scratch()
    let aqi = store(s)
    #expect(try aqi.histories().isEmpty)
    #expect(try aqi.history("Delhi") == nil)
    for i in 1...25 {
      var frame = [AQIReading(city: "Delhi", aqi: Double(i) + 0.5)]
      if i % 5 == 0 { frame.append(AQIReading(city: "Mumbai", aqi: Double(100 + i))) }
      try aqi.record(frame, at: 1_000 + Int64(i))
    }
    let delhi = try #require(try aqi.history("delhi"))
    #expect(delhi.samples.count == AQIStore.capacity)
    #expect(delhi.samples.map(\.aqi) == (6...25).map { Double($0) + 0.5 })
    #expect(delhi.samples.map(\.time) == (6...25).map { 1_000 + Int64($0) })
    #expect(delhi.latest == AQISample(time: 1_025, aqi: 25.5))
    let mumbai = try #require(try aqi.history("MUMBAI"))
    #expect(mumbai.samples.map(\.aqi) == [105, 110, 115, 120, 125])
    #expect(try aqi.histories().map(\.city) == ["Delhi", "Mumbai"])
  }

  @Test func namesFoldAndTheLatestSpellingWins() throws {
    let s = Scratch()
    let aqi = store(s)
    try aqi.record([AQIReading(city: "Sao Paulo", aqi: 40)], at: 1)
    try aqi.record([AQIReading(city: "São Paulo", aqi: 60)], at: 2)
    let h = try #require(try aqi.history("SÃO PAULO"))
    #expect(h.city == "São Paulo" && h.samples.map(\.aqi) == [40, 60])
    #expect(try aqi.histories().count == 1)
  }

  @Test func emptyFramesWriteNothingAndTheFileIsAnAQIStore() throws {
    let s = Scratch()
    let aqi = store(s)
    try aqi.record([], at: 1)
    #expect(!FileManager.default.fileExists(atPath: s.file("aqi.gdbm")))
    try aqi.record([AQIReading(city: "Delhi", aqi: 302.2)], at: 1)
    // Values carry the AQI envelope kind: read under another kind, they are damage.
    #expect(throws: StoreError.self) { try SmallStore(path: s.file("aqi.gdbm"), kind: .favourite).read() }
    if case .healthy(let records, _) = Doctor(home: Home(directory: s.path, sampleCandidates: [])).check(
      path: s.file("aqi.gdbm"), kind: .aqi)
    {
      #expect(records == 1)
    } else {
      Issue.record("aqi.gdbm is not healthy")
    }
  }

  @Test func aDamagedRecordIsReportedNotShown() throws {
    let s = Scratch()
    let raw = SmallStore(path: s.file("aqi.gdbm"), kind: .aqi)
    let lock = try WriterLock(directory: s.path, deadline: 5)
    try raw.write([Fold.key("Delhi"): [1, 2, 3]], holding: lock)
    lock.release()
    #expect(throws: StoreError.self) { try store(s).histories() }
    #expect(throws: StoreError.self) { try store(s).history("Delhi") }
    #expect(throws: StoreError.self) { try store(s).record([AQIReading(city: "Delhi", aqi: 1)], at: 1) }
  }
}

@Suite struct AQIFeedPipeTests {
  static let records: [FeedRecord] = [
    .connected(attempt: 1), .text(Array(#"[{"city":"Delhi","aqi":302.2}]"#.utf8)), .text([]),
    .text([0x0A, 0x0A, 0xFF, 0x00]), .binary(26),
    .lost(reason: "closed by the server, code 1001: bye\nnow", wasConnected: true, retryMilliseconds: 500, failures: 1),
    .lost(
      reason: "cannot connect to 127.0.0.1:9: connection refused", wasConnected: false, retryMilliseconds: 30000, failures: 7),
    .failed("the server did not accept the WebSocket upgrade"), .connected(attempt: 12),
  ]

  @Test func recordsSurviveTheRoundTripInAnyChunking() throws {
    let stream = Self.records.flatMap(\.encoded)
    for chunk in [1, 2, 3, 7, 64, stream.count] {
      var reader = FeedRecordReader()
      var out: [FeedRecord] = []
      var i = 0
      while i < stream.count {
        reader.append(stream[i..<min(stream.count, i + chunk)])
        i += chunk
        while let r = try reader.next() { out.append(r) }
      }
      #expect(out == Self.records, "chunk \(chunk)")
    }
    #expect(FeedRecord.connected(attempt: 3).encoded == Array("C 3 0\n".utf8))
    #expect(FeedRecord.text(Array("[]".utf8)).encoded == Array("T 2\n[]".utf8))
  }

  @Test func malformedRecordsAreErrors() throws {
    for bad in [
      "X 1\n", "C\n", "C -1 0\n", "C 1 2\nab", "L 2 1 1 0\n", "T 99999999999\n", "B x 0\n", String(repeating: "T", count: 300),
    ] {
      var reader = FeedRecordReader()
      reader.append(Array(bad.utf8))
      #expect(throws: FeedPipeError.self, "\(bad)") { _ = try reader.next() }
    }
    var partial = FeedRecordReader()
    partial.append(Array("T 5\nab".utf8))
    #expect(try partial.next() == nil)
  }
}

@Suite struct AQIFeedURLTests {
  @Test func splitsWhatAConnectionNeeds() throws {
    let u = try WebSocketURL(parsing: "WSS://Example.org/live/aqi?city=all#top")
    #expect(u.secure && u.host == "Example.org" && u.port == 443 && u.target == "/live/aqi?city=all")
    #expect(u.hostHeader == "Example.org" && u.description == "wss://Example.org/live/aqi?city=all")
    let v = try WebSocketURL(parsing: "ws://127.0.0.1:8080")
    #expect(!v.secure && v.port == 8080 && v.target == "/" && v.hostHeader == "127.0.0.1:8080")
    let w = try WebSocketURL(parsing: "ws://[::1]:9000?x=1")
    #expect(w.host == "::1" && w.port == 9000 && w.target == "/?x=1" && w.hostHeader == "[::1]:9000")
    #expect(try WebSocketURL(parsing: "ws://h:80/").hostHeader == "h")
  }

  @Test func rejectsWhatCannotBeUsed() {
    for bad in [
      "http://example.org/", "example.org", "ws://", "ws:///path", "ws://host:0/", "ws://host:65536/", "ws://host:+80/",
      "ws://host:port/", "ws://user:pw@host/", "ws://[::1/", "ws://ho st/", "ws://host/a b",
      "ws://" + String(repeating: "a", count: 254) + "/",
    ] {
      #expect(throws: WebSocketURLError.self, "\(bad)") { try WebSocketURL(parsing: bad) }
    }
  }
}
