import Foundation
import Testing

@testable import wx

/// Every bad answer from the API fails with one line and a documented code, and leaves
/// every store file byte-identical.
@Suite struct SyncFailureTests {
  static let modes: [(mode: String, status: Int32, words: String)] = [
    ("status:500", 69, "HTTP 500"), ("status:503", 69, "HTTP 503"), ("429-always", 69, "429"),
    ("html", 65, "HTML page"), ("truncate-frac:0.5", 65, "ends early"), ("truncate-frac:0.97", 65, "ends early"),
    ("truncate:1", 65, "ends early"), ("empty", 65, "empty"), ("wrong-types", 65, "must be a number"),
    ("missing-field", 65, "missing field \"city\""), ("nan", 65, "NaN"), ("bad-utf8", 65, "invalid UTF-8"),
    ("zero", 65, "returned no records; your catalogue is unchanged"), ("redirect-loop", 69, "redirects in a loop"),
    ("wrong-content-type", 65, "image/png"), ("drip", 69, "within 2 s"), ("huge", 65, "larger than"),
    ("object", 65, "found an object"), ("status:404", 65, "HTTP 404"), ("status:401", 78, "refused access (HTTP 401)"),
    ("status:400", 65, "(HTTP 400) at http://127.0.0.1"), ("status:422", 65, ": simulated HTTP 422;"),
    ("bad-gzip", 65, "content encoding is corrupt"),
    ("not-http", 69, "the server's answer is not HTTP; your catalogue is unchanged"),
    ("huge-header", 65, "its headers are too large to take; your catalogue is unchanged"),
    ("bare-status:304", 65, "(HTTP 304) at http://127.0.0.1"), ("bare-status:418", 65, "(HTTP 418) at http://127.0.0.1"),
    ("stall", 69, "within 2 s"),
  ]

  /// Every failed sync says the catalogue is unchanged, whatever the answer.
  @Test(arguments: ["bare-status:304", "bare-status:418", "not-http", "huge-header", "status:404"])
  func everyFailureSaysTheCatalogueIsUnchanged(_ mode: String) throws {
    let home = TempHome()
    let bad = try FakeAPI(mode: mode)
    let r = try home.wx("sync", "--url", bad.url, env: ["WX_HTTP_TIMEOUT": "2"])
    #expect(r.status != 0 && r.stderr.contains("your catalogue is unchanged"), "\(mode): \(r)")
  }

  /// A server that stops sending mid-answer is given up after 10 s without a byte, and the
  /// message says so, not "within 30 s" (the whole request's timeout).
  @Test func aStallIsNamedAsOne() throws {
    let home = TempHome()
    let bad = try FakeAPI(mode: "stall")
    let r = try home.wx("sync", "--url", bad.url, env: ["WX_HTTP_TIMEOUT": "30"])
    #expect(r.status == 69, "\(r)")
    #expect(r.stderr.contains("stopped sending for 10 s") && !r.stderr.contains("within"), "\(r)")
  }

  @Test(arguments: modes.map(\.mode))
  func badAnswerLeavesTheStoreUntouched(_ mode: String) throws {
    let expected = Self.modes.first { $0.mode == mode }!
    let home = TempHome()
    let good = try FakeAPI()
    try #require(try home.wx("sync", "--url", good.url).status == 0)
    try home.wx("fav", "add", "London")
    try home.wx("unit", "f")
    let before = home.snapshot()
    let bad = try FakeAPI(mode: mode)
    let r = try home.wx("sync", "--url", bad.url, env: ["WX_HTTP_TIMEOUT": "2"])
    #expect(r.status == expected.status, "\(mode): \(r)")
    #expect(r.stderr.hasPrefix("wx: ") && r.stderr.split(separator: "\n").count == 1, "\(mode): \(r.stderr)")
    #expect(r.stderr.contains(expected.words), "\(mode): \(r.stderr)")
    #expect(home.snapshot() == before, "\(mode) changed a store file")
    #expect(try home.wx("list").status == 0)
  }

  @Test func connectionRefusedIsUnavailable() throws {
    let home = TempHome()
    try home.wx("list")
    let before = home.snapshot()
    let api = try FakeAPI()
    let url = api.url
    api.stop()
    let r = try home.wx("sync", "--url", url)
    #expect(r.status == 69 && r.stderr.contains("cannot reach"), "\(r)")
    #expect(home.snapshot() == before)
  }

  /// A URL typed without a path is asked for with the `/` every request has, and named so;
  /// one typed with a path is named as typed.
  @Test func aURLWithoutAPathIsNamedWithItsSlash() throws {
    let home = TempHome()
    let api = try FakeAPI()
    let bare = try home.wx("sync", "--url", api.base)
    #expect(
      bare.status == 65 && bare.stderr.contains("HTTP 404") && bare.stderr.contains(api.base + "/?page=1&limit="), "\(bare)")
    let typed = try home.wx("sync", "--url", api.base + "/nothing/")
    #expect(typed.stderr.contains(api.base + "/nothing/?page=1&limit="), "\(typed)")
    let query = try home.wx("sync", "--url", api.base + "?lang=en")
    #expect(query.stderr.contains(api.base + "?lang=en&page=1&limit="), "\(query)")
  }

  @Test func retryAfterIsHonouredOnce() throws {
    let home = TempHome()
    let api = try FakeAPI(mode: "429")
    let r = try home.wx("sync", "--url", api.url)
    #expect(r.status == 0, "\(r)")
    #expect(try home.wx("status", "--json").json()["sample"] as? Bool == false)
  }

  /// A `#fragment` in --url is dropped: the page parameters used to land inside it, where no
  /// server sees them (one request instead of four), and messages showed it.
  @Test func aFragmentInTheURLIsDropped() throws {
    let home = TempHome()
    let api = try FakeAPI()
    let r = try home.wx("sync", "--url", api.url + "#top", "--per-page", "20")
    #expect(r.status == 0 && r.stderr.contains("synced 62 cities") && !r.stderr.contains("#top"), "\(r)")
    let hits = try api.control("/__hits")
    #expect(hits == #"{"hits":4}"#, "pages 1-4 of 20: \(hits)")
    #expect(try home.wx("status", "--json").json()["source"] as? String == api.url)
  }

  /// A host name past DNS's 253 characters can never be reached: a configuration error at once
  /// (the feed client retried such a host for ever).
  @Test func anImpossibleHostIsRefusedAtOnce() throws {
    let home = TempHome()
    let host = String(repeating: "a", count: 300)
    let sync = try home.wx("sync", "--url", "http://\(host)/w")
    #expect(sync.status == 78 && sync.stderr.split(separator: "\n").count == 1, "\(sync)")
    let watch = try home.wx("aqi", "watch", "ws://\(host)/feed", "--once")
    #expect(watch.status == 78 && watch.stderr.contains("longer than 253"), "\(watch)")
  }

  @Test func aGoodRedirectIsFollowed() throws {
    let home = TempHome()
    let api = try FakeAPI(mode: "redirect")
    #expect(try home.wx("sync", "--url", api.url).status == 0)
  }

  @Test func repeatedPagesAreNotDuplicated() throws {
    let home = TempHome()
    let api = try FakeAPI(mode: "dup-page")
    // Page 2 repeats page 1: wx takes the server for one that ignores `page`, switches to
    // growing the limit, and ends with every record exactly once.
    #expect(try home.wx("sync", "--url", api.url, "--per-page", "10").status == 0)
    let json = try home.wx("list", "--per-page", "1000", "--json").json()
    let items = try #require(json["items"] as? [[String: Any]])
    let keys = items.map { "\($0["id"]!)|\($0["city"]!)|\($0["country"]!)" }
    #expect(json["total"] as? Int == (try records(sampleFile)).count)
    #expect(Set(keys).count == keys.count)
  }

  @Test func aFailedSyncKeepsTheSampleAndANewSyncReplacesIt() throws {
    let home = TempHome()
    try home.wx("list")
    let bad = try FakeAPI(mode: "html")
    #expect(try home.wx("sync", "--url", bad.url).status == 65)
    #expect(try home.wx("status", "--json").json()["sample"] as? Bool == true)
    let good = try FakeAPI()
    #expect(try home.wx("sync", "--url", good.url, env: ["WX_API_URL": "http://127.0.0.1:9/nowhere"]).status == 0)
    let viaEnv = try home.wx("sync", env: ["WX_API_URL": good.url])
    #expect(viaEnv.status == 0, "\(viaEnv)")
    #expect(viaEnv.stderr.contains(good.url))
  }
}
