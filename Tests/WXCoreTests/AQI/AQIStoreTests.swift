import Foundation
import Testing

@testable import WXCore

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
    let values: [Double] = (6...25).map { Double($0) + 0.5 }
    let times: [Int64] = (6...25).map { 1_000 + Int64($0) }
    #expect(delhi.samples.map(\.aqi) == values)
    #expect(delhi.samples.map(\.time) == times)
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
    let doctor = Doctor(home: Home(directory: s.path, sampleCandidates: []))
    if case .healthy(let records, _) = doctor.check(try #require(doctor.smallStores.first { $0.kind == .aqi })) {
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
