import Foundation
import Testing

/// Bytes a terminal acts on: C0 but newline, DEL, C1 (as UTF-8) and the bidi controls.
func terminalControls(_ s: String) -> [Unicode.Scalar] {
  s.unicodeScalars.filter { u in
    let v = u.value
    return (v < 0x20 && v != 0x0A) || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v)
      || (0x2066...0x2069).contains(v) || v == 0x200B || v == 0x200E || v == 0x200F || v == 0xFEFF
  }
}

/// What a hostile API can send: terminal escapes, credentials to leak, redirects off the web,
/// degenerate pages. Sync stores clean text, prints no secret, and fails with a documented
/// code and one line, leaving every store byte-identical.
@Suite struct HostileAPITests {
  static var hostile: [[String: Any]] {
    [
      weatherRecord(
        id: 1, city: "\u{1B}]0;pwned\u{07}Evil\u{1B}[2J  City\r\n", country: "Bad\u{0}\u{7F}\u{9B}31mland",
        description: "Rain\u{202E}ynnuS\u{202C}", date: "\u{202E}2026-11-23\u{200B}",
        forecastDescription: "\u{2066}Fog\u{2069}\u{200B}"),
      weatherRecord(id: 2, city: "Tab\tand\u{2028}Line", country: "\u{FEFF}Nowhere\u{00A0}\u{00A0}Land"),
    ]
  }

  @Test func controlAndBidiCharactersAreNeverStored() throws {
    let home = TempHome()
    let api = try FakeAPI(data: try writeRecords(Self.hostile, in: home))
    let r = try home.wx("sync", "--url", api.url)
    #expect(r.status == 0, "\(r)")
    let json = try home.wx("list", "--json").json()
    let items = try #require(json["items"] as? [[String: Any]])
    #expect(Set(items.compactMap { $0["city"] as? String }) == ["]0;pwned Evil [2J City", "Tab and Line"])
    #expect(Set(items.compactMap { $0["country"] as? String }) == ["Bad 31mland", "Nowhere Land"])
    let show = try home.wx("show", "1", "--json")
    #expect(show.status == 0, "\(show)")
    #expect(show.stdout.contains("\"RainynnuS\""), "\(show.stdout)")
    #expect(show.stdout.contains("\"Fog\"") && show.stdout.contains("\"2026-11-23\""), "\(show.stdout)")
    #expect(!show.stdout.contains("\\u"), "an escaped control character was stored: \(show.stdout)")
    for args in [["list"], ["show", "1"], ["search", "tab"], ["top"], ["forecast", "1"]] {
      let out = try home.run(args + ["--color", "never"])
      #expect(terminalControls(out.stdout + out.stderr).isEmpty, "\(args): \(out)")
    }
  }

  @Test func aNameWithNothingLeftIsBadDataAndALongOneToo() throws {
    let home = TempHome()
    try home.wx("list")
    let before = home.snapshot()
    let empty = try FakeAPI(data: try writeRecords([weatherRecord(id: 1, city: "\u{1B}\u{07}\u{202E}\u{0}")], in: home))
    let r = try home.wx("sync", "--url", empty.url)
    #expect(r.status == 65 && r.stderr.contains("field \"city\" is empty"), "\(r)")
    #expect(terminalControls(r.stderr).isEmpty)
    let huge = String(repeating: "A", count: 1 << 20)
    let long = try FakeAPI(data: try writeRecords([weatherRecord(id: 1, city: huge)], in: home, name: "long.json"))
    let l = try home.wx("sync", "--url", long.url)
    #expect(l.status == 65 && l.stderr.contains("more than 256") && l.stderr.utf8.count < 400, "\(l)")
    #expect(home.snapshot() == before)
  }

  /// Forecast days are dates: what is not one (an escape left over, another format, a day
  /// the calendar has not) is bad data, named and escaped, and nothing is stored.
  @Test(arguments: ["2026-11-23\u{1B}[1A", "23/11/2026", "2026-02-29", "2026-13-01", "tomorrow", "2026-11-23T00:00"])
  func aForecastDayThatIsNotADateIsBadData(_ date: String) throws {
    let home = TempHome()
    try home.wx("list")
    let before = home.snapshot()
    let api = try FakeAPI(data: try writeRecords([weatherRecord(id: 7, city: "Datetown", date: date)], in: home))
    let r = try home.wx("sync", "--url", api.url)
    #expect(
      r.status == 65 && r.stderr.contains("forecast day 1: field \"date\"") && r.stderr.contains("not a date (YYYY-MM-DD)"),
      "\(r)")
    #expect(terminalControls(r.stderr).isEmpty && r.stderr.split(separator: "\n").count == 1, "\(r)")
    #expect(home.snapshot() == before)
    // A leap day is a date.
    let leap = try FakeAPI(
      data: try writeRecords([weatherRecord(id: 7, city: "Datetown", date: "2028-02-29")], in: home, name: "leap.json"))
    #expect(try home.wx("sync", "--url", leap.url).status == 0)
  }

  @Test func aURLWithControlCharactersIsRefusedAndShownEscaped() throws {
    let home = TempHome()
    let r = try home.wx("sync", "--url", "http://127.0.0.1:9/\u{1B}]0;x\u{07}")
    #expect(r.status == 78 && r.stderr.contains("\\x1b]0;x\\x07"), "\(r)")
    #expect(terminalControls(r.stderr).isEmpty)
  }

  @Test func aContentTypeHeaderIsShownEscaped() throws {
    let home = TempHome()
    let api = try FakeAPI(mode: "content-type:text/x\u{1B}[2J")
    let r = try home.wx("sync", "--url", api.url)
    #expect(r.status == 65 && r.stderr.contains("text/x\\x1b[2J"), "\(r)")
    #expect(terminalControls(r.stderr).isEmpty)
  }

  static let secrets = ["s3cret", "k3y", "t0ken", "alice"]

  func secretURL(_ api: FakeAPI) -> String {
    "http://alice:s3cret@127.0.0.1:\(api.port)/api/v1/weathers?apikey=k3y&access_token=t0ken"
  }

  @Test func credentialsInTheURLAreNeverPrintedNorStored() throws {
    let home = TempHome()
    let api = try FakeAPI()
    let r = try home.wx("sync", "--url", secretURL(api))
    #expect(r.status == 0 && r.stderr.contains("http://…@127.0.0.1:\(api.port)/api/v1/weathers?apikey=…"), "\(r)")
    let status = try home.wx("status")
    let json = try home.wx("status", "--json")
    let doctor = try home.wx("doctor")
    #expect(try json.json()["source"] as? String == "http://…@127.0.0.1:\(api.port)/api/v1/weathers?apikey=…&access_token=…")
    for out in [r, status, json, doctor] {
      #expect(!Self.secrets.contains { out.stdout.contains($0) || out.stderr.contains($0) }, "\(out)")
    }
    let viaEnv = try TempHome().wx("sync", env: ["WX_API_URL": secretURL(api)])
    #expect(viaEnv.status == 0 && !Self.secrets.contains { viaEnv.stderr.contains($0) }, "\(viaEnv)")
  }

  @Test(arguments: [
    "status:500", "status:404", "429-always", "html", "truncate:10", "wrong-content-type", "wrong-types", "zero",
    "redirect-loop", "redirect-to:ftp://bob:pw-s3cret@example.invalid/x?token=t0ken", "huge",
  ])
  func noErrorMessagePrintsACredential(_ mode: String) throws {
    let home = TempHome()
    let api = try FakeAPI(mode: mode)
    let r = try home.wx("sync", "--url", secretURL(api))
    #expect(r.status == 65 || r.status == 69, "\(mode): \(r)")
    #expect(r.stderr.contains("127.0.0.1:\(api.port)"), "\(mode): \(r)")
    #expect(!Self.secrets.contains { r.stderr.contains($0) }, "\(mode): \(r)")
  }

  @Test func anUnreachableURLIsNamedWithoutItsCredentialsNorCurlsWords() throws {
    let api = try FakeAPI()
    let url = secretURL(api)
    api.stop()
    let r = try TempHome().wx("sync", "--url", url)
    #expect(r.status == 69, "\(r)")
    #expect(
      r.stderr == "wx: cannot reach http://…@127.0.0.1:\(api.port)/api/v1/weathers?apikey=…&access_token=…&page=1&limit=1000: "
        + "connection refused or no route to the host; your catalogue is unchanged\n", "\(r)")
  }

  @Test(arguments: [
    "file:///etc/passwd", "ftp://bob:pw@example.invalid/w.json",
    // Targets libcurl cannot parse at all: still the server's fault (69), never a bad --url (78).
    "http://127.0.0.1:99999/w.json", "http://[::1/w.json", "http://exa mple.invalid/w.json",
  ])
  func aRedirectOffTheWebNamesItsTargetAndIsNotAConfigurationError(_ target: String) throws {
    let home = TempHome()
    try home.wx("list")
    let before = home.snapshot()
    let api = try FakeAPI(mode: "redirect-to:" + target)
    let r = try home.wx("sync", "--url", api.url)
    let shown = target.replacingOccurrences(of: "bob:pw@", with: "…@")
    #expect(r.status == 69, "\(r)")
    #expect(r.stderr.contains("redirects to \(shown), which wx does not follow") && r.stderr.contains(api.url), "\(r)")
    #expect(!r.stderr.contains("pw@"))
    #expect(home.snapshot() == before)
  }

  @Test func aPageOfOneRepeatedRecordIsBadData() throws {
    let home = TempHome()
    try home.wx("list")
    let before = home.snapshot()
    let same = Array(repeating: weatherRecord(id: 7, city: "Echo"), count: 40) + [weatherRecord(id: 8, city: "Other")]
    let api = try FakeAPI(data: try writeRecords(same, in: home))
    let r = try home.wx("sync", "--url", api.url)
    #expect(r.status == 65 && r.stderr.contains("page 1: 39 of its 41 records repeat another record"), "\(r)")
    #expect(home.snapshot() == before)
  }

  @Test func aCatalogueThatShrinksByMoreThanNinetyPercentNeedsAllowShrink() throws {
    let home = TempHome()
    let good = try FakeAPI()
    try #require(try home.wx("sync", "--url", good.url).status == 0)
    let before = home.snapshot()
    let few = (1...3).map { weatherRecord(id: $0, city: "Town \($0)") }
    let api = try FakeAPI(data: try writeRecords(few, in: home))
    let r = try home.wx("sync", "--url", api.url)
    let total = try records(sampleFile).count
    #expect(r.status == 65 && r.stderr.contains("sent 3 cities for a catalogue of \(total)"), "\(r)")
    #expect(r.stderr.split(separator: "\n").count == 1)
    #expect(home.snapshot() == before)
    let allowed = try home.wx("sync", "--url", api.url, "--allow-shrink")
    #expect(allowed.status == 0 && allowed.stderr.contains("synced 3 cities"), "\(allowed)")
  }

  @Test func oneCityIsOneCity() throws {
    let home = TempHome()
    let api = try FakeAPI(data: try writeRecords([weatherRecord(id: 1, city: "Solo")], in: home))
    let r = try home.wx("sync", "--url", api.url)
    #expect(r.status == 0 && r.stderr.hasPrefix("wx: synced 1 city from "), "\(r)")
  }

  @Test func aZeroHTTPTimeoutIsRefusedButAZeroLockWaitIsNot() throws {
    let home = TempHome()
    let api = try FakeAPI()
    let r = try home.wx("sync", "--url", api.url, env: ["WX_HTTP_TIMEOUT": "0"])
    #expect(
      r.status == 78 && r.stderr == "wx: WX_HTTP_TIMEOUT=0 is not a number of seconds (more than 0, at most 3600)\n", "\(r)")
    #expect(try home.wx("sync", "--url", api.url, env: ["WX_LOCK_TIMEOUT": "0"]).status == 0)
  }

  @Test(arguments: ["nan", "-nan", "1e9", "Fri, 01 Jan 2100 00:00:00 GMT"])
  func anAbsurdRetryAfterGivesUpCleanly(_ value: String) throws {
    let home = TempHome()
    let api = try FakeAPI(mode: "retry-after:" + value)
    let r = try home.wx("sync", "--url", api.url)
    #expect(!r.signalled && r.status == 69 && r.stderr.contains("rate-limiting"), "\(value): \(r)")
  }

  @Test func accuWeatherDataIsCleanedAndChecked() throws {
    let home = TempHome()
    let hostile =
      [weatherRecord(id: 1, city: "\u{1B}[2JAccu\u{202E}ville")] + (2...5).map { weatherRecord(id: $0, city: "C\($0)") }
    let api = try FakeAPI(data: try writeRecords(hostile, in: home), extra: ["--api-key", "k"])
    let r = try home.wx("sync", "--provider", "accuweather", "--api-key", "k", "--url", api.base)
    #expect(r.status == 0, "\(r)")
    let names = try #require(try home.wx("list", "--json").json()["items"] as? [[String: Any]]).compactMap {
      $0["city"] as? String
    }
    #expect(names.contains("[2JAccuville"), "\(names)")
    let hot = [weatherRecord(id: 1, city: "Furnace", temperature: 900)]
    let bad = try FakeAPI(data: try writeRecords(hot, in: home, name: "hot.json"), extra: ["--api-key", "k"])
    let h = try home.wx("sync", "--provider", "accuweather", "--api-key", "k", "--url", bad.base)
    #expect(h.status == 65 && h.stderr.contains("outside -100…70 °C") && !h.stderr.contains("apikey=k"), "\(h)")
  }
}
