import Foundation
import Testing

/// End-to-end tests of the core commands: the built `wx`, a temp WX_HOME, a loopback API.
@Suite struct CoreCommandTests {
  /// Zürich (Switzerland) and Zurich (Canada) fold alike: the atlas knows Zürich has a
  /// hundred times the people, so however it is typed it is Zürich, and wx says another
  /// place shares the name; Paris is Paris, France, beside ten smaller Parises.
  @Test func aNameSpelledExactlyPicksItsCity() throws {
    let home = TempHome()
    for typed in ["Zürich", "zürich", "ZURICH"] {
      let r = try home.wx("show", typed, "--json")
      #expect(r.status == 0 && (try? r.json())?["country"] as? String == "Switzerland", "\(typed): \(r)")
      #expect(r.stderr.contains("1 other place shares the name: `wx show 'Zurich, Canada'`"), "\(r)")
    }
    let paris = try home.wx("show", "paris")
    #expect(paris.status == 0 && paris.stderr.contains("\"paris\" is Paris, Île-de-France, France"), "\(paris)")
    let all = try home.wx("search", "Paris", "--json")
    #expect(
      ((try all.json()["items"] as? [[String: Any]]) ?? []).filter { $0["city"] as? String == "Paris" }.count >= 10, "\(all)")
    #expect(try home.wx("show", "krakow", "--json").json()["city"] as? String == "Kraków")
  }

  @Test func firstRunSeedsFromTheBundledSampleAndSaysSo() throws {
    let home = TempHome()
    let expected = try records(sampleFile)
    let r = try home.wx("list", "--json")
    #expect(r.status == 0, "\(r)")
    #expect(r.stderr.contains("sample data"))
    let json = try r.json()
    #expect(json["total"] as? Int == expected.count)
    let items = try #require(json["items"] as? [[String: Any]])
    #expect(items.count == min(20, expected.count))
    #expect(items.first?["city"] as? String == expected.first?["city"] as? String)
    // The second run reads the seeded store and says nothing on stderr.
    let again = try home.wx("list")
    #expect(again.status == 0 && again.stderr.isEmpty, "\(again)")
    #expect(again.stdout.contains("sample data, run `wx sync`"))
  }

  /// Against a server that ignores `page`, the growing limit doubles: 20,000 cities at 100 a
  /// page take O(log n) requests (they took 201, and 22 s).
  @Test func aServerThatIgnoresPagesTakesLogarithmicallyManyRequests() throws {
    let home = TempHome()
    let data = home.path + "/data.json"
    try ReliabilityTests.catalogue(20_000, tag: "A", at: data)
    let api = try FakeAPI(data: data, mode: "ignore-page")
    let r = try home.wx("sync", "--url", api.url, "--per-page", "100")
    #expect(r.status == 0, "\(r)")
    #expect(try home.wx("status", "--json").json()["count"] as? Int == 20_000)
    let hits = try #require(Int(try api.control("/__hits").filter(\.isNumber)))
    // Page 1, page 2 (all repeats), then 200, 400 … 25,600: 11 requests.
    #expect(hits <= 12, "\(hits) requests")
  }

  @Test func syncsAllRecordsFromAServerThatIgnoresPage() throws {
    let data = sharedFixture ?? sampleFile
    let expected = try records(data)
    let api = try FakeAPI(data: data, mode: "ignore-page")
    let home = TempHome()
    let r = try home.wx("sync", "--url", api.url, "--per-page", "20")
    #expect(r.status == 0, "\(r)")
    let status = try home.wx("status", "--json").json()
    #expect(status["count"] as? Int == expected.count)
    #expect(status["sample"] as? Bool == false)
    #expect(status["synced_at"] is String && status["age_seconds"] is Int, "\(status)")
    // Records sharing an id stay distinct (the live API's two id-45 records).
    let ids = expected.compactMap { $0["id"] as? Int }
    for id in Set(ids) where ids.filter({ $0 == id }).count > 1 {
      let show = try home.wx("show", String(id))
      #expect(show.status == 64, "\(show)")
      #expect(show.stderr.contains("pick one"))
    }
  }

  @Test(.enabled(if: sharedFixture != nil, "../shared/fixtures is absent"))
  func sharedFixtureSyncsWith51RecordsAndTheirTraps() throws {
    let fixture = try #require(sharedFixture)
    let api = try FakeAPI(data: fixture, mode: "ignore-page")
    let home = TempHome()
    try #require(try home.wx("sync", "--url", api.url).status == 0)
    let page3 = try home.wx("list", "--page", "3", "--json").json()
    #expect(page3["total"] as? Int == 51)
    #expect(page3["pages"] as? Int == 3)
    #expect((page3["items"] as? [Any])?.count == 11)
    let sp = try home.wx("show", "sao paulo", "--json").json()
    #expect(sp["city"] as? String == "São Paulo")
    let canberra = try home.wx("show", "Canberra", "--json").json()
    #expect(canberra["id"] as? Int == 45)
    let wellington = try home.wx("show", "wellington", "--json").json()
    #expect(wellington["id"] as? Int == 45)
  }

  @Test func paginationArithmetic() throws {
    let expected = try records(sampleFile).count
    let api = try FakeAPI(mode: "paged")
    let home = TempHome()
    try #require(try home.wx("sync", "--url", api.url, "--per-page", "7").status == 0)
    let pages = (expected + 19) / 20
    let last = try home.wx("list", "--page", String(pages), "--json").json()
    #expect(last["pages"] as? Int == pages)
    #expect(last["total"] as? Int == expected)
    #expect((last["items"] as? [Any])?.count == expected - (pages - 1) * 20)
    let text = try home.wx("list", "--page", "2")
    #expect(text.stdout.contains("page 2 of \(pages) · \(expected) cities · synced"))
    let past = try home.wx("list", "--page", String(pages + 1))
    #expect(past.status == 64)
    #expect(past.stderr.hasPrefix("wx: page \(pages + 1) is past the end"))
    #expect(past.stderr.split(separator: "\n").count == 1)
    // Every record appears exactly once across the pages.
    var seen: [String] = []
    for p in 1...pages {
      let items = try #require(try home.wx("list", "--page", String(p), "--json").json()["items"] as? [[String: Any]])
      seen += items.map { "\($0["city"]!)|\($0["country"]!)" }
    }
    #expect(seen.count == expected && Set(seen).count == expected)
  }

  @Test func readsWorkOfflineAfterTheServerIsGone() throws {
    let api = try FakeAPI()
    let home = TempHome()
    try #require(try home.wx("sync", "--url", api.url).status == 0)
    api.stop()
    #expect(try home.wx("list").status == 0)
    #expect(try home.wx("show", "London").status == 0)
    #expect(try home.wx("search", "par").status == 0)
    let again = try home.wx("sync", "--url", api.url)
    #expect(again.status == 69, "\(again)")
    #expect(again.stderr.contains("unchanged"))
  }

  @Test func citiesResolveByFoldedNameCountryOrId() throws {
    let home = TempHome()
    let zurich = try home.wx("show", "zurich, switzerland", "--json").json()
    #expect(zurich["city"] as? String == "Zürich")
    #expect(try home.wx("show", "LODZ", "--json").json()["city"] as? String == "Łódź")
    #expect(try home.wx("show", "malmo", "--json").json()["city"] as? String == "Malmö")
    // Of the sample's three, the one of Texas by its state, Canada's by its country.
    #expect(try home.wx("show", "Paris, TX", "--json").json()["country"] as? String == "United States")
    #expect(try home.wx("show", "Paris, Canada", "--json").json()["country"] as? String == "Canada")
    let byCountry = try home.wx("show", "Paris, France", "--json").json()
    #expect(byCountry["country"] as? String == "France")
    let byID = try home.wx("show", String(byCountry["id"] as! Int), "--json").json()
    #expect(byID["city"] as? String == "Paris")
    let missing = try home.wx("show", "Parisss")
    #expect(missing.status == 66)
    #expect(missing.stderr.contains("closest") && missing.stderr.contains("Paris"))
  }

  @Test func unitSwitchingConvertsOnlyWhenRendering() throws {
    let home = TempHome()
    let london = try home.wx("show", "London")
    #expect(london.stdout.contains("18 °C"), "\(london)")
    #expect(try home.wx("unit").stdout == "celsius\n")
    #expect(try home.wx("unit", "fahrenheit").status == 0)
    #expect(try home.wx("show", "London").stdout.contains("64 °F"))
    let json = try home.wx("show", "London", "--json").json()
    #expect(json["temperature"] as? Double == 64.4)
    #expect(json["unit"] as? String == "fahrenheit")
    #expect(try home.wx("show", "London", "--unit", "c").stdout.contains("18 °C"))
    #expect(try home.wx("unit").stdout == "fahrenheit\n")
    #expect(try home.wx("unit", "kelvin").status == 64)
  }

  @Test func lastCityIsRemembered() throws {
    let home = TempHome()
    // No city given and none shown before: a usage error, like any missing argument.
    for command in [["show"], ["forecast"]] {
      let none = try home.run(command)
      #expect(
        none.status == 64 && none.stderr.hasSuffix("wx: no city given and none shown before; try `wx show London`\n"), "\(none)")
    }
    try #require(try home.wx("show", "Berlin").status == 0)
    let again = try home.wx("show", "--json")
    #expect(try again.json()["city"] as? String == "Berlin")
  }

  @Test func statusReportsSourceAgeAndFiles() throws {
    let home = TempHome()
    let s = try home.wx("status", "--json").json()
    #expect(s["sample"] as? Bool == true)
    #expect((s["source"] as? String)?.hasPrefix("sample:") == true)
    // Never synced, as the text says: no sync time and no age.
    #expect(s["synced_at"] is NSNull && s["age_seconds"] is NSNull && s["list_synced_at"] is NSNull, "\(s)")
    let files = try #require(s["files"] as? [[String: Any]])
    #expect(files.contains { $0["name"] as? String == "catalogue" && ($0["bytes"] as? Int ?? 0) > 0 })
    // Every store doctor checks, the alerts sent included.
    #expect(
      files.compactMap { $0["name"] as? String }
        == ["catalogue", "preferences", "favourites", "air quality", "alerts sent", "atlas"], "\(files)")
    // The atlas read is the shared one (the state folder has none): its path and size, not "absent".
    let atlas = try #require(files.first { $0["name"] as? String == "atlas" })
    #expect(atlas["path"] as? String == sharedData + "/atlas.gdbm" && (atlas["bytes"] as? Int ?? 0) > 0, "\(atlas)")
    let text = try home.wx("status")
    #expect(text.stdout.contains("cities") && text.stdout.contains("catalogue"))
    #expect(text.stdout.contains("synced    never\n"), "\(text)")
  }

  @Test func stateFolderAndFilesArePrivate() throws {
    let home = TempHome()
    let sub = home.path + "/nested/state"
    let r = try home.wx("show", "London", env: ["WX_HOME": sub])
    #expect(r.status == 0, "\(r)")
    let attrs = try FileManager.default.attributesOfItem(atPath: sub)
    #expect((attrs[.posixPermissions] as? Int) == 0o700)
    for name in ["catalogue.gdbm", "prefs.gdbm"] {
      let a = try FileManager.default.attributesOfItem(atPath: sub + "/" + name)
      #expect((a[.posixPermissions] as? Int) == 0o600, "\(name)")
    }
  }

  @Test func colourFollowsFlagAndNoColor() throws {
    let home = TempHome()
    #expect(!(try home.wx("list").stdout.contains("\u{1B}[")))  // not a TTY
    #expect(try home.wx("list", "--color", "always").stdout.contains("\u{1B}["))
    #expect(!(try home.wx("list", "--color", "never").stdout.contains("\u{1B}[")))
    #expect(!(try home.wx("list", env: ["NO_COLOR": "1"]).stdout.contains("\u{1B}[")))
  }

  @Test func badEnvironmentIsAConfigurationError() throws {
    let home = TempHome()
    let r = try home.wx("list", env: ["WX_LOCK_TIMEOUT": "soon"])
    #expect(r.status == 78)
    #expect(r.stderr.hasPrefix("wx: WX_LOCK_TIMEOUT"))
    let url = try home.wx("sync", "--url", "ftp://example.invalid/x")
    #expect(url.status == 78, "\(url)")
  }

  /// `--help` fits `COLUMNS`: ArgumentParser wraps its paragraphs, wx the usage line.
  @Test func helpFitsTheColumnsItIsGiven() throws {
    let home = TempHome()
    for width in [40, 60] {
      let help = try home.wx("show", "--help", env: ["COLUMNS": String(width)])
      #expect(help.status == 0)
      let lines = help.stdout.split(separator: "\n")
      #expect(lines.allSatisfy { $0.count <= width }, "\(width): \(help.stdout)")
      let usage = help.stdout.components(separatedBy: "USAGE: ").last?.components(separatedBy: "\n\n").first ?? ""
      #expect(
        usage.split(whereSeparator: \.isWhitespace).joined(separator: " ")
          == "wx show [<city> ...] [--format <format>] [--max-age <duration>] [--refresh] [--waybar] [--i3blocks] [--json] [--unit <unit>] [--wind <wind>] [--color <color>] [--ascii]",
        "\(usage)")
    }
    let wide = try home.wx("show", "--help", env: ["COLUMNS": "200"])
    #expect(
      wide.stdout.contains(
        "\nUSAGE: wx show [<city> ...] [--format <format>] [--max-age <duration>] [--refresh] [--waybar] [--i3blocks] [--json] [--unit <unit>] [--wind <wind>] [--color <color>] [--ascii]\n"
      ))
  }

  /// `wx --version` takes nothing after it: the extra word is a usage error, not ignored.
  @Test func versionTakesNoArguments() throws {
    let home = TempHome()
    #expect(try home.wx("--version").stdout == "wx 1.0.0\n")
    let extra = try home.wx("--version", "extra")
    #expect(extra.status == 64 && extra.stdout.isEmpty, "\(extra)")
    #expect(extra.stderr == "wx: --version takes nothing after it, got \"extra\" (see `wx --help`)\n", "\(extra)")
  }
}
