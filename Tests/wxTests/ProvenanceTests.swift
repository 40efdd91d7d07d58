import Foundation
import Testing

/// Issue 29: every value says where it came from and how old it is; units are kept as the
/// API says them; wx keeps itself current without fetching what is young.
@Suite struct ProvenanceTests {
  /// Oslo's observation in the Open-Meteo stand-in: 2026-11-23T12:00 UTC, 13:00 local (UTC+1).
  static let osloObserved: Int64 = 1_795_435_200

  static func syncFavourites(_ home: TempHome, _ api: OpenMeteoAPI, env: [String: String] = [:]) throws -> Run {
    try home.run(["sync", "--provider", "open-meteo", "--url", api.forecast, "--favourites"], env: env)
  }

  static func items(_ home: TempHome, env: [String: String] = [:]) throws -> [[String: Any]] {
    try #require(try home.run(["list", "--json", "--per-page", "1000"], env: env).json()["items"] as? [[String: Any]])
  }

  @Test func theSamplesCitiesStaySampleRowByRowAfterARefreshOfSome() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    #expect(try home.wx("fav", "add", "Oslo").status == 0)
    let r = try Self.syncFavourites(home, api)
    #expect(r.status == 0, "\(r)")
    let items = try Self.items(home)
    let oslo = try #require(items.first { $0["city"] as? String == "Oslo" })
    #expect(oslo["source"] as? String == "open-meteo" && oslo["sample"] as? Bool == false, "\(oslo)")
    #expect(oslo["observed_at"] as? String == "2026-11-23T13:00:00+01:00", "\(oslo)")
    let others = items.filter { $0["city"] as? String != "Oslo" }
    #expect(others.count > 50)
    #expect(
      others.allSatisfy {
        $0["source"] as? String == "sample" && $0["sample"] as? Bool == true && $0["observed_at"] is NSNull
          && $0["current_from"] as? String == "sample"
      },
      "\(others.prefix(2))")
    #expect(oslo["current_from"] as? String == "observation", "\(oslo)")
    // In text, each row says so; Oslo's row has no age (its values are fresh).
    let list = try home.wx("list", "--per-page", "1000")
    let rows = list.stdout.split(separator: "\n")
    let osloRow = try #require(rows.first { $0.contains("Oslo") })
    #expect(!osloRow.contains("sample"), "\(osloRow)")
    #expect(rows.filter { $0.contains(" sample ") && !$0.hasPrefix("page") }.count == others.count, "\(list.stdout)")
    // The footer counts them too.
    #expect(rows.last?.contains("\(others.count) of \(items.count) cities sample data") == true, "\(list.stdout)")
    // And hottest, top, fav say it too.
    let top = try home.wx("top", "--json").json()
    #expect((top["items"] as? [[String: Any]])?.allSatisfy { $0["sample"] as? Bool == true } == true)
    let fav = try home.wx("fav", "--json").json()
    #expect((fav["items"] as? [[String: Any]])?.first?["source"] as? String == "open-meteo")
    // A sync of the whole catalogue replaces them: no sample row is left.
    #expect(try home.run(["sync", "--provider", "open-meteo", "--url", api.forecast]).status == 0)
    #expect(try Self.items(home).allSatisfy { $0["source"] as? String == "open-meteo" })
  }

  @Test func freetestapiSaysItsRecordsWereServedNotObserved() throws {
    let home = TempHome()
    let api = try FakeAPI()
    #expect(try home.wx("sync", "--url", api.url).status == 0)
    let later = String(Int(TempHome.sampleNow)! + 5 * 3600)
    let items = try Self.items(home, env: ["WX_NOW": later])
    #expect(items.allSatisfy { $0["source"] as? String == "freetestapi" && $0["age_seconds"] as? Int == 5 * 3600 })
    let show = try home.wx("show", "Oslo", env: ["WX_NOW": later])
    #expect(show.stdout.contains("served 11:00 today (5h ago) by freetestapi"), "\(show)")
    // Once its forecast is wholly past, the hint names what brings a current one.
    let days = try home.wx("show", "Oslo", env: ["WX_NOW": String(Int(TempHome.sampleNow)! + 3 * 86_400)])
    #expect(days.stdout.contains("run `wx sync --provider open-meteo`"), "\(days)")
    // Rows mark values over three hours old with their age.
    let list = try home.wx("list", env: ["WX_NOW": later])
    #expect(list.stdout.contains(" 5h "), "\(list)")
    #expect(!(try home.wx("list").stdout.contains(" Age ")))
  }

  @Test func showSaysWhenInWordsAndUsesTheStoredHourForAnOldObservation() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    #expect(try home.wx("fav", "add", "Oslo").status == 0)
    #expect(try Self.syncFavourites(home, api).status == 0)
    // Three hours on: the stored hour stands for now, labelled.
    let threeHours = ["WX_NOW": String(Self.osloObserved + 3 * 3600)]
    let sent = try #require(try api.sent(latitude: 59.9139, longitude: 10.7522))
    let hourly = try #require(sent["hourly"] as? [String: Any])
    let times = try #require(hourly["time"] as? [String])
    let temps = try #require(hourly["temperature_2m"] as? [Any])
    let k = try #require(times.firstIndex(of: "2026-11-23T16:00"))
    let json = try home.run(["show", "Oslo", "--json"], env: threeHours).json()
    #expect(json["current_from"] as? String == "forecast", "\(json)")
    #expect(json["temperature"] as? Double == temps[k] as? Double, "\(json)")
    #expect(json["age_seconds"] as? Int == 3 * 3600)
    let text = try home.run(["show", "Oslo"], env: threeHours)
    #expect(text.stdout.contains("forecast for 16:00, from data of 13:00; observed 13:00 today (3h ago), Open-Meteo"), "\(text)")
    // Past the stored hours: the last observation, with its date and age.
    let threeDays = ["WX_NOW": String(Self.osloObserved + 3 * 86_400)]
    let old = try home.run(["show", "Oslo"], env: threeDays)
    #expect(old.stdout.contains("observed 2026-11-23 13:00 (3d ago), Open-Meteo"), "\(old)")
    #expect(try home.run(["show", "Oslo", "--json"], env: threeDays).json()["current_from"] as? String == "observation")
    // At 40 columns the line is whole.
    let narrow = try home.run(["show", "Oslo"], env: threeDays.merging(["COLUMNS": "40"]) { $1 })
    #expect(narrow.stdout.contains("2026-11-23 13:00 (3d ago)"), "\(narrow)")
    // Six calendar days on (01:00 on the 29th) but five whole days old: the line says the age
    // the rows say (`5d`), not "6 days ago" beside a `5d`.
    let night = ["WX_NOW": String(Self.osloObserved + 5 * 86_400 + 12 * 3600)]
    let late = try home.run(["show", "Oslo"], env: night)
    #expect(late.stdout.contains("observed 2026-11-23 13:00 (5d ago), Open-Meteo"), "\(late)")
    let favs = try home.run(["fav"], env: night)
    #expect(favs.stdout.contains(" 5d"), "\(favs)")
  }

  @Test func maxAgeMarksStaleValuesAndExitsOne() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    #expect(try home.wx("fav", "add", "Oslo").status == 0)
    #expect(try Self.syncFavourites(home, api).status == 0)
    let fresh = try home.run(
      ["show", "Oslo", "--format", "%t|%a", "--max-age", "90m"], env: ["WX_NOW": String(Self.osloObserved + 600)])
    #expect(fresh.status == 0 && fresh.stderr.isEmpty, "\(fresh)")
    #expect(fresh.stdout.hasSuffix("|10m\n"), "\(fresh)")
    let later = ["WX_NOW": String(Self.osloObserved + 100 * 3600)]
    let stale = try home.run(["show", "Oslo", "--format", "%c %t|%a", "--max-age", "3h"], env: later)
    #expect(stale.status == 1 && stale.stdout == "? ?|4d\n" && stale.stderr.isEmpty, "\(stale)")
    // The sample's values were never observed: always stale.
    let sample = try home.wx("show", "Paris, France", "--format", "%t %a", "--max-age", "2d")
    #expect(sample.status == 1 && sample.stdout == "? sample\n" && sample.stderr.isEmpty, "\(sample)")
    #expect(try home.wx("show", "Oslo", "--max-age", "soon").status == 64)
  }

  @Test func theUnitsAnAnswerNamesAreConvertedOrRefused() throws {
    let reference = TempHome()
    let api = try OpenMeteoAPI()
    #expect(try reference.run(["sync", "--provider", "open-meteo", "--url", api.forecast]).status == 0)
    let expected = try Self.items(reference)
    for mode in ["imperial", "ms", "knots"] {
      let home = TempHome()
      let other = try OpenMeteoAPI(mode: mode)
      let r = try home.run(["sync", "--provider", "open-meteo", "--url", other.forecast])
      #expect(r.status == 0, "\(mode): \(r)")
      let got = try Self.items(home)
      for (a, b) in zip(expected, got) {
        let (ta, tb) = (a["temperature"] as? Double, b["temperature"] as? Double)
        #expect((ta == nil) == (tb == nil) && abs((ta ?? 0) - (tb ?? 0)) <= 0.1, "\(mode): \(a) \(b)")
        let (wa, wb) = (a["wind_speed"] as? Double, b["wind_speed"] as? Double)
        #expect(abs((wa ?? 0) - (wb ?? 0)) <= 0.1, "\(mode): \(a) \(b)")
      }
    }
    // A unit wx does not read: exit 65, the catalogue byte-identical.
    let home = TempHome()
    _ = try home.wx("list")
    let before = try Data(contentsOf: URL(fileURLWithPath: home.catalogue))
    let kelvin = try OpenMeteoAPI(mode: "kelvin")
    let r = try home.run(["sync", "--provider", "open-meteo", "--url", kelvin.forecast])
    #expect(r.status == 65 && r.stderr.contains("\"K\"") && r.stderr.contains("not a unit of temperature"), "\(r)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: home.catalogue)) == before)
  }

  @Test func forecastDaysKeepTheirLow() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    #expect(try home.run(["sync", "--provider", "open-meteo", "--url", api.forecast]).status == 0)
    let sent = try #require(try api.sent(latitude: 59.9139, longitude: 10.7522))
    let lows = try #require((sent["daily"] as? [String: Any])?["temperature_2m_min"] as? [Double])
    let days = try #require(try home.wx("show", "Oslo", "--json").json()["forecast"] as? [[String: Any]])
    #expect(days.map { $0["temperature_min"] as? Double } == lows.prefix(days.count).map { $0 }, "\(days)")
    #expect(days.allSatisfy { $0["temperature_max"] as? Double == $0["temperature"] as? Double })
    let text = try home.wx("show", "Oslo")
    #expect(text.stdout.contains("High") && text.stdout.contains("Low"), "\(text)")
  }

  @Test func syncIfOlderFetchesNothingWhileYoungAndSyncUsesTheLastProvider() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    #expect(try home.run(["sync", "--provider", "open-meteo", "--url", api.forecast]).status == 0)
    let requests = try api.stats().requests
    // Young: no request at all (and no URL needed: nothing is fetched).
    let young = try home.run(
      ["sync", "--if-older", "25m", "--url", api.forecast], env: ["WX_NOW": String(Int(TempHome.sampleNow)! + 600)])
    #expect(young.status == 0 && young.stderr.contains("nothing fetched"), "\(young)")
    #expect(try api.stats().requests == requests)
    let quiet = try home.run(["sync", "--if-older", "25m", "--quiet"], env: ["WX_NOW": String(Int(TempHome.sampleNow)! + 600)])
    #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet)")
    // Older: `wx sync` without --provider refreshes from Open-Meteo, the provider last used.
    let old = try home.run(
      ["sync", "--if-older", "25m"], env: ["WX_NOW": String(Int(TempHome.sampleNow)! + 3600), "WX_OPEN_METEO_URL": api.forecast])
    #expect(old.status == 0, "\(old)")
    #expect(try api.stats().requests > requests)
    #expect(try home.wx("sync", "--if-older", "soon").status == 64)
  }

  /// The helpers' new-user pass: after an Open-Meteo sync, `wx sync --url` of a forecast
  /// endpoint is an Open-Meteo sync (it asked the endpoint for a catalogue page: exit 65); a
  /// favourites sync over the sample is timed from its sync, not from its observation (15
  /// minutes older), and says so.
  @Test func aURLAloneIsTheLastProvidersAndAFavouritesSyncIsTimedFromItself() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    let t0 = Int(TempHome.sampleNow)!
    #expect(try home.run(["fav", "add", "Oslo"], env: ["WX_NOW": String(t0)]).status == 0)
    let first = try home.run(
      ["sync", "--provider", "open-meteo", "--favourites", "--url", api.forecast], env: ["WX_NOW": String(t0)])
    #expect(first.status == 0, "\(first)")
    let requests = try api.stats().requests
    for (later, said) in [(300, "synced 5m ago"), (1500, "synced 25m ago")] {
      let r = try home.run(
        ["sync", "--if-older", "30m", "--url", api.forecast], env: ["WX_NOW": String(t0 + later)])
      #expect(r.status == 0 && r.stderr.contains(said) && r.stderr.contains("nothing fetched"), "\(r)")
    }
    #expect(try api.stats().requests == requests)
    let again = try home.run(["sync", "--url", api.forecast], env: ["WX_NOW": String(t0 + 3600)])
    let after = try api.stats().requests
    #expect(again.status == 0 && after > requests, "\(again)")
    #expect(try home.wx("status", "--json").json()["provider"] as? String == "open-meteo")
  }

  @Test func aUTCOffsetBeyondEighteenHoursIsBadData() throws {
    let home = TempHome()
    _ = try home.wx("list")
    let before = try Data(contentsOf: URL(fileURLWithPath: home.catalogue))
    let api = try OpenMeteoAPI(mode: "bad-offset")
    let r = try home.run(["sync", "--provider", "open-meteo", "--url", api.forecast])
    #expect(r.status == 65 && r.stderr.contains("utc_offset_seconds"), "\(r)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: home.catalogue)) == before)
  }

  @Test func refreshFetchesThePlaceAndAnswersFromTheStoreWhenUnreachable() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    let r = try home.run(["show", "Oslo", "--refresh", "--json"], env: ["WX_OPEN_METEO_URL": api.forecast])
    #expect(r.status == 0, "\(r)")
    #expect(try r.json()["source"] as? String == "open-meteo" && (try api.stats().sizes == [1]), "\(r)")
    // The rest of the catalogue is as it was: the sample's.
    #expect(try home.wx("show", "Paris, France", "--json").json()["source"] as? String == "sample")
    // Unreachable: the stored weather, with its age and a warning; exit 0.
    let before = try Data(contentsOf: URL(fileURLWithPath: home.catalogue))
    let down = try home.run(["forecast", "Oslo", "--refresh"], env: ["WX_OPEN_METEO_URL": "http://127.0.0.1:1/v1/forecast"])
    #expect(down.status == 0 && down.stderr.contains("warning: not refreshed") && down.stdout.contains("Open-Meteo"), "\(down)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: home.catalogue)) == before)
    // With --format, nothing but the line.
    let line = try home.run(
      ["show", "Oslo", "--refresh", "--format", "%t"], env: ["WX_OPEN_METEO_URL": "http://127.0.0.1:1/v1/forecast"])
    #expect(line.status == 0 && line.stderr.isEmpty && line.stdout.hasSuffix("°C\n"), "\(line)")
    // A read command without --refresh never asks: the stand-in saw one request in all.
    _ = try home.wx("show", "Oslo")
    #expect(try api.stats().requests == 1)
  }

  @Test func statusCountsCitiesBySourceWithTheirObservationSpan() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    #expect(try home.wx("fav", "add", "Oslo", "Berlin").status == 0)
    #expect(try Self.syncFavourites(home, api).status == 0)
    let status = try home.wx("status", "--json").json()
    let by = try #require(status["by_source"] as? [String: Int])
    #expect(by["open-meteo"] == 2 && by["sample"] == (by.values.reduce(0, +) - 2) && by["freetestapi"] == 0, "\(by)")
    #expect(status["oldest_observation"] as? String == "2026-11-23T12:00:00Z", "\(status)")
    let text = try home.wx("status")
    #expect(text.stdout.contains("2 from Open-Meteo") && text.stdout.contains("from the bundled sample"), "\(text)")
  }

  /// The helpers' new-user pass: the age line is wrapped, never cut, at 40 columns; the
  /// hourly view says it too; an observation ahead of the clock is not "today"; a sync of
  /// one city does not make `--if-older` skip the rest.
  @Test func theAgeIsNeverCutAndOneCityDoesNotMakeTheRestYoung() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    #expect(try home.run(["sync", "--provider", "open-meteo", "--url", api.forecast]).status == 0)
    let later = ["WX_NOW": String(Self.osloObserved + 4 * 3600), "COLUMNS": "40"]
    for args in [["show", "Oslo"], ["forecast", "Oslo"], ["forecast", "Oslo", "--hourly", "--hours", "3"]] {
      let r = try home.run(args, env: later)
      let text = r.stdout.replacingOccurrences(of: "\n", with: " ")
      #expect(text.contains("observed 13:00 today (4h ago), Open-Meteo"), "\(args): \(r.stdout)")
      #expect(r.stdout.split(separator: "\n").allSatisfy { $0.count <= 40 }, "\(args): \(r.stdout)")
    }
    let hourly = try home.run(["forecast", "Oslo", "--hourly", "--json"], env: later).json()
    #expect(hourly["source"] as? String == "open-meteo" && hourly["age_seconds"] as? Int == 4 * 3600, "\(hourly)")
    let ahead = try home.run(["show", "Oslo"], env: ["WX_NOW": String(Self.osloObserved - 2 * 86_400)])
    #expect(ahead.stdout.contains("2026-11-23 13:00 (ahead of this computer's clock)"), "\(ahead)")
    // Ahead the same day, by 70 minutes: said so too, and `%a` is `ahead`, not `now`.
    let soon = ["WX_NOW": String(Self.osloObserved - 4200)]
    let sameDay = try home.run(["show", "Oslo"], env: soon)
    #expect(sameDay.stdout.contains("13:00 (ahead of this computer's clock)"), "\(sameDay)")
    #expect(try home.run(["show", "Oslo", "--format", "%a"], env: soon).stdout == "ahead\n")
    // JSON's age is negative, not "0 seconds old"; a row's Age says `ahead` as `%a` does.
    #expect(try home.run(["show", "Oslo", "--json"], env: soon).json()["age_seconds"] as? Int == -4200)
    let rows = try home.run(["list", "--per-page", "1000"], env: soon).stdout.split(separator: "\n")
    #expect(rows.first { $0.contains("Oslo") }?.contains(" ahead") == true, "\(rows)")
    // And `wx status` says so of its observation times, not "just now".
    let status = try home.run(["status"], env: soon).stdout
    let observed = status.split(separator: "\n").first { $0.hasPrefix("observed") } ?? ""
    #expect(observed.hasSuffix("(ahead of this computer's clock)"), "\(status)")
    // One city refreshed two hours on: the rest are two hours old, so --if-older 25m fetches.
    let refresh = try home.run(
      ["show", "Oslo", "--refresh"], env: ["WX_NOW": String(Self.osloObserved + 7200), "WX_OPEN_METEO_URL": api.forecast])
    #expect(refresh.status == 0, "\(refresh)")
    let requests = try api.stats().requests
    let timer = try home.run(
      ["sync", "--if-older", "25m", "--quiet"],
      env: ["WX_NOW": String(Self.osloObserved + 7800), "WX_OPEN_METEO_URL": api.forecast])
    let after = try api.stats().requests
    #expect(timer.status == 0 && after > requests, "\(timer)")
  }

  /// AccuWeather's values are dated by the hour it forecast for (`EpochDateTime`); an
  /// air-quality answer without `current` is bad data (exit 65), not "0 cities".
  @Test func accuWeatherKeepsItsHourAndAnAirAnswerWithoutCurrentIsBadData() throws {
    let home = TempHome()
    let api = try FakeAPI(extra: ["--api-key", "k3y", "--accu-delay-ms", "0"])
    #expect(try home.wx("sync", "--provider", "accuweather", "--api-key", "k3y", "--url", api.base, "--count", "3").status == 0)
    let items = try #require(try home.wx("list", "--json").json()["items"] as? [[String: Any]])
    #expect(
      items.allSatisfy { $0["source"] as? String == "accuweather" && $0["observed_at"] as? String == "2026-11-18T11:06:40Z" },
      "\(items)")
    let air = TempHome()
    try air.wx("fav", "add", "London")
    let om = try OpenMeteoAPI(mode: "no-current")
    let r = try air.wx("aqi", "sync", "--favourites", env: ["WX_OPEN_METEO_AQ_URL": om.airQuality])
    #expect(r.status == 65 && r.stderr.contains("no \"current\" object"), "\(r)")
  }

  /// At 20 to 40 columns the age is the last thing cut: every row of the sample still says
  /// `sample` in list, top, hottest, search and fav.
  @Test(arguments: [20, 30, 40]) func theAgeIsTheLastThingANarrowScreenCuts(_ width: Int) throws {
    let home = TempHome()
    try home.wx("fav", "add", "Oslo", "Paris, France")
    for args in [
      ["list", "--per-page", "5"], ["top"], ["hottest", "--per-page", "5"], ["search", "par", "--per-page", "1"], ["fav"],
    ] {
      let r = try home.run(args, env: ["COLUMNS": String(width)])
      let rows = r.stdout.split(separator: "\n").dropFirst(args[0] == "top" ? 2 : 1).filter {
        // Not the footer: the sample's says `sample data` (cut: `sample…`), with no sync time.
        !$0.hasPrefix("page") && !$0.contains("synced") && !$0.contains("favourite") && !$0.contains("·")
          && !$0.hasPrefix("sample")
      }
      #expect(!rows.isEmpty && rows.allSatisfy { $0.contains(" sample") }, "\(width) \(args): \(r.stdout)")
    }
  }
}
