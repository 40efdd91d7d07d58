import Foundation
import Testing

/// AccuWeather's answers as a careless or hostile server sends them: the key echoed back is
/// never printed or stored, keys follow freetestapi's rules for ids, and what AccuWeather does
/// not say (a country, coordinates) is unknown, never "Unknown" or 0°N 0°E, so an Open-Meteo
/// sync after it skips those cities instead of fetching the weather of the Gulf of Guinea.
@Suite struct AccuWeatherHardeningTests {
  static let key = "K3y-s3cret/+ü"

  static func sync(_ home: TempHome, _ api: FakeAPI, _ more: [String] = []) throws -> Run {
    try home.run(["sync", "--provider", "accuweather", "--api-key", key, "--url", api.base, "--count", "4"] + more)
  }

  @Test(arguments: [("reason400", 65), ("reason404", 65), ("field", 0), ("content-type", 65), ("redirect", 69)])
  func anEchoedKeyIsNeverPrintedOrStored(_ echo: String, _ status: Int) throws {
    let home = TempHome()
    let api = try FakeAPI(extra: ["--api-key", Self.key, "--accu-delay-ms", "0", "--accu-echo", echo])
    let r = try Self.sync(home, api)
    #expect(r.status == Int32(status), "\(echo) \(r)")
    let encoded = Self.key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    for form in [Self.key, encoded, encoded.lowercased()] {
      #expect(!r.stderr.contains(form), "\(echo): the key is printed: \(r.stderr)")
    }
    if echo == "field" {
      for name in home.snapshot().keys {
        #expect(!(home.snapshot()[name]!.range(of: Data(Self.key.utf8)) != nil), "stored in \(name)")
      }
      let list = try home.wx("list", "--json")
      #expect(!list.stdout.contains(Self.key) && list.stdout.contains("…"), "\(list)")
    } else {
      #expect(r.stderr.contains("…"), "\(echo): \(r.stderr)")
    }
  }

  @Test(arguments: ["0", "-5", "abc", "1e3", "12.5", "", "100000"])
  func keysFollowTheRulesForIds(_ bad: String) throws {
    let home = TempHome()
    try #require(try home.wx("list").status == 0)
    let before = home.snapshot()
    let api = try FakeAPI(extra: ["--api-key", Self.key, "--accu-delay-ms", "0", "--accu-key", "2=\(bad)"])
    let r = try Self.sync(home, api)
    if bad == "100000" {
      // The first location's key again: the same location, kept once (and --count counts
      // locations, so the fifth comes in).
      #expect(r.status == 0, "\(r)")
      let items = try #require(try home.wx("list", "--json").json()["items"] as? [[String: Any]])
      #expect(items.count == 4 && Set(items.compactMap { $0["id"] as? Int }) == [100000, 100002, 100003, 100004], "\(items)")
    } else {
      #expect(r.status == 65, "\(bad): \(r)")
      #expect(r.stderr.contains("location 2") && r.stderr.contains("Key"), "\(r)")
      #expect(home.snapshot() == before, "a refused sync changed the stores")
    }
  }

  @Test func unknownCountryAndCoordinatesAreNullAndTheHourlyPhraseIsKept() throws {
    let home = TempHome()
    let api = try FakeAPI(extra: ["--api-key", Self.key, "--accu-delay-ms", "0", "--accu-geo", "--accu-no-country"])
    #expect(try Self.sync(home, api).status == 0)
    let data = try records(sampleFile)
    let located = try #require(data[0]["city"] as? String)
    let unlocated = try #require(data[1]["city"] as? String)
    let a = try home.wx("show", located, "--json").json()
    #expect(a["latitude"] as? Double == (data[0]["latitude"] as? NSNumber)?.doubleValue, "\(a)")
    #expect(a["description"] as? String == "Partly sunny", "the IconPhrase is the description: \(a)")
    let b = try home.wx("show", unlocated, "--json").json()
    #expect(b["latitude"] is NSNull && b["longitude"] is NSNull, "\(b)")
    #expect(b["country"] is NSNull, "\(b)")
    let text = try home.wx("show", unlocated)
    #expect(text.stdout.contains("coordinates unknown") && !text.stdout.contains("Unknown"), "\(text)")
    #expect(!text.stdout.contains("\(unlocated),"), "no empty country after the name: \(text)")
    #expect(!text.stdout.contains("0.0°N 0.0°E"), "\(text)")
  }

  @Test func openMeteoSkipsCitiesWithoutCoordinatesAndSaysHowMany() throws {
    let home = TempHome()
    let api = try FakeAPI(extra: ["--api-key", Self.key, "--accu-delay-ms", "0", "--accu-geo"])
    #expect(try Self.sync(home, api).status == 0)
    let meteo = try OpenMeteoAPI()
    let r = try home.wx("sync", "--provider", "open-meteo", "--url", meteo.forecast)
    #expect(r.status == 0, "\(r)")
    #expect(
      r.stderr.contains("the weather of 2 of 4 cities") && r.stderr.contains("skipped 2 cities without coordinates"), "\(r)")
    let asked = try meteo.sent()
    #expect(asked.count == 2, "\(asked)")
    for location in asked {
      #expect(!((location["latitude"] as? Double) == 0 && (location["longitude"] as? Double) == 0), "fetched 0,0: \(location)")
    }
    // The skipped cities keep their AccuWeather records.
    let second = try #require(try records(sampleFile)[1]["city"] as? String)
    #expect(try home.wx("show", second, "--json").json()["description"] as? String == "Partly sunny")
    // With none located, Open-Meteo is asked nothing.
    let none = TempHome()
    #expect(try Self.sync(none, try FakeAPI(extra: ["--api-key", Self.key, "--accu-delay-ms", "0"])).status == 0)
    let refused = try none.wx("sync", "--provider", "open-meteo", "--url", meteo.forecast)
    #expect(refused.status == 64 && refused.stderr.contains("coordinates"), "\(refused)")
  }
}
