import Foundation
import Testing

@testable import WXCore

/// The sync service against real GDBM files and an in-process provider: what it reports when
/// it publishes, and what a failure says it left (every store byte-identical unless published).
@Suite struct SyncServiceTests {
  /// Hands on `cities`, then fails with `failure` when there is one.
  struct ListProvider: WeatherProvider {
    var cities: [City]
    var failure: SyncError? = nil
    var name: String { "freetestapi" }
    func fetch() async throws -> [City] {
      if let failure { throw failure }
      return cities
    }
    func stream(into record: (City) throws -> Void) async throws -> Int {
      for city in cities { try record(city) }
      if let failure { throw failure }
      return cities.count
    }
  }

  static func home(_ s: Scratch) -> Home { Home(directory: s.file("home"), sampleCandidates: [], lockDeadline: 0) }

  /// The state folder's files and their bytes.
  static func snapshot(_ home: Home) -> [String: Data] {
    var out: [String: Data] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: home.directory)) ?? [] where name != "wx.lock" {
      out[name] = FileManager.default.contents(atPath: home.directory + "/" + name)
    }
    return out
  }

  @Test func aPublishedCatalogueIsReportedAsValues() async throws {
    let s = Scratch()
    let home = Self.home(s)
    let cities = RefreshPlanTests.cities(30)
    let report = try await SyncService(home: home, now: Clock.now()).replace(
      from: ListProvider(cities: cities), source: "http://me:secret@127.0.0.1:9/api?key=abc")
    #expect(report.store == .catalogue && report.records == 30 && report.refreshed == 30 && report.skipped == 0)
    #expect(report.source == report.meta?.source && !report.source.contains("secret") && !report.source.contains("abc"))
    let c = try Catalogue(path: home.cataloguePath)
    defer { c.close() }
    #expect(c.meta == report.meta && c.meta.count == 30)
    #expect(try c.city(29) == cities[29])
  }

  @Test func aFailedDownloadLeavesTheCatalogueAndSaysSo() async throws {
    let s = Scratch()
    let home = Self.home(s)
    let service = SyncService(home: home, now: Clock.now())
    // No catalogue yet: none is claimed to be kept.
    let first = ListProvider(cities: RefreshPlanTests.cities(5), failure: .noRecords(url: "http://h/"))
    let none = await #expect(throws: SyncFailure.self) { try await service.replace(from: first, source: "http://h/") }
    #expect(none?.existed == false && none?.unchanged == false && none?.published == false)
    _ = try await service.replace(from: ListProvider(cities: RefreshPlanTests.cities(40)), source: "http://h/")
    let before = Self.snapshot(home)
    let broken = ListProvider(cities: RefreshPlanTests.cities(20), failure: .badPayload(url: "http://h/", reason: "x"))
    let failure = await #expect(throws: SyncFailure.self) { try await service.replace(from: broken, source: "http://h/") }
    guard case .download(.badPayload) = failure?.cause else {
      Issue.record("\(String(describing: failure))")
      return
    }
    #expect(failure?.store == .catalogue && failure?.inTempFile == false && failure?.unchanged == true)
    #expect(Self.snapshot(home) == before)
  }

  @Test func aBusyLockIsAStoreFailureOutsideTheNewFile() async throws {
    let s = Scratch()
    let home = Self.home(s)
    let service = SyncService(home: home, now: Clock.now())
    _ = try await service.replace(from: ListProvider(cities: RefreshPlanTests.cities(40)), source: "http://h/")
    let before = Self.snapshot(home)
    let lock = try home.writers.acquire()
    defer { lock.release() }
    let failure = await #expect(throws: SyncFailure.self) {
      try await service.replace(from: ListProvider(cities: RefreshPlanTests.cities(40)), source: "http://h/")
    }
    guard case .store(.busy) = failure?.cause else {
      Issue.record("\(String(describing: failure))")
      return
    }
    #expect(failure?.inTempFile == false && failure?.existed == true && failure?.unchanged == true)
    #expect(Self.snapshot(home) == before)
  }

  @Test func aShrinkingListIsRefusedUnlessAllowed() async throws {
    let s = Scratch()
    let home = Self.home(s)
    let service = SyncService(home: home, now: Clock.now())
    _ = try await service.replace(from: ListProvider(cities: RefreshPlanTests.cities(100)), source: "http://h/")
    let small = ListProvider(cities: RefreshPlanTests.cities(9))
    let failure = await #expect(throws: SyncFailure.self) { try await service.replace(from: small, source: "http://h/") }
    guard case .download(.shrinks(_, 100, 9)) = failure?.cause else {
      Issue.record("\(String(describing: failure))")
      return
    }
    #expect(try await service.replace(from: small, source: "http://h/", allowShrink: true).records == 9)
  }
}
