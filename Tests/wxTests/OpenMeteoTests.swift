import Foundation
import Testing

@Suite struct OpenMeteoTests {
  /// The sample's cities (what a fresh home's catalogue holds), by name.
  static var sample: [[String: Any]] { (try? records(sampleFile)) ?? [] }

  static func sync(_ home: TempHome, _ api: OpenMeteoAPI, _ more: String...) throws -> Run {
    try home.run(["sync", "--provider", "open-meteo", "--url", api.forecast] + more)
  }

  @Test func storesTheWeatherSentForEachCityByPosition() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    let r = try Self.sync(home, api)
    #expect(r.status == 0, "\(r)")
    // A first sync in a new state folder replaces the sample: no "showing sample data" note
    // while it does (a helper's pass).
    #expect(!r.stderr.contains("showing sample data"), "\(r)")
    let items = try #require(try home.wx("list", "--json", "--per-page", "1000").json()["items"] as? [[String: Any]])
    #expect(items.count == Self.sample.count)
    let all = try api.sent()
    for item in items {
      let name = item["city"] as? String
      let record = try #require(
        Self.sample.first { $0["city"] as? String == name && $0["country"] as? String == item["country"] as? String })
      let sent = try #require(
        try api.sent(latitude: record["latitude"] as! Double, longitude: record["longitude"] as! Double, in: all), "\(name ?? "")"
      )
      let current = try #require(sent["current"] as? [String: Any])
      #expect(item["temperature"] as? Double == current["temperature_2m"] as? Double, "\(item)")
      #expect(item["humidity"] as? Double == current["relative_humidity_2m"] as? Double, "\(item)")
      #expect(item["wind_speed"] as? Double == current["wind_speed_10m"] as? Double, "\(item)")
      let code = current["weather_code"] as? Int
      let words = ["0": "Clear sky", "3": "Overcast", "61": "Slight rain", "95": "Thunderstorm", "71": "Slight snow fall"]
      if let code, let expected = words[String(code)] { #expect(item["description"] as? String == expected) }
    }
    let s = try api.stats()
    let batches = (Self.sample.count + 49) / 50
    #expect(s.requests <= batches && s.sizes.allSatisfy { $0 <= 50 } && s.sizes.reduce(0, +) == Self.sample.count, "\(s)")
    #expect(s.peak >= 1 && s.peak <= 3, "\(s)")
  }

  @Test func showSaysWhereAndWhenAndKeepsLocalDates() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    #expect(try Self.sync(home, api, "--days", "5").status == 0)
    let show = try home.wx("show", "Seoul", "--json").json()
    let sent = try #require(try api.sent(latitude: 37.5665, longitude: 126.978))
    let current = try #require(sent["current"] as? [String: Any])
    let time = try #require(current["time"] as? String)
    #expect(show["source"] as? String == "open-meteo")
    #expect(show["observed_at"] as? String == time + ":00+08:00", "\(show)")
    let days = try #require(show["forecast"] as? [[String: Any]])
    let dates = try #require((sent["daily"] as? [String: Any])?["time"] as? [String])
    #expect(days.map { $0["date"] as? String } == dates.map { $0 })
    #expect(days.count == 5)
    let text = try home.wx("show", "Seoul")
    #expect(text.stdout.contains("observed \(time.suffix(5)) today, Open-Meteo"), "\(text)")
    let status = try home.wx("status")
    #expect(status.stdout.contains("open-meteo") && status.stdout.contains("Weather data by Open-Meteo.com"), "\(status)")
  }

  @Test func nullsAreUnknownNeverZeroAndSortLast() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI(mode: "nulls")
    #expect(try Self.sync(home, api).status == 0)
    let items = try #require(
      try home.wx("list", "--sort", "temperature", "--json", "--per-page", "1000").json()["items"] as? [[String: Any]])
    let known = items.prefix { !($0["temperature"] is NSNull) }
    #expect(known.count < items.count && items[known.count...].allSatisfy { $0["temperature"] is NSNull })
    #expect(items.allSatisfy { $0["humidity"] is NSNull && $0["wind_speed"] is NSNull })
    let unknown = try #require(items.last?["city"] as? String)
    let show = try home.wx("show", unknown)
    #expect(show.stdout.contains("humidity – · wind –"), "\(show)")
    #expect(!show.stdout.contains("0 °C") || show.stdout.contains("–"), "\(show)")
    let json = try home.wx("show", unknown, "--json").json()
    #expect(json["temperature"] is NSNull && json["humidity"] is NSNull)
    let day2 = try #require((json["forecast"] as? [[String: Any]])?[1])
    #expect(day2["temperature"] is NSNull)
  }

  static let failures: [(mode: String, status: Int32, words: String)] = [
    ("error", 65, "Cannot initialize WeatherVariable"), ("429-always", 69, "Minutely API request limit"),
    ("wrong-length", 65, "locations in the answer"), ("fail-after:1", 65, " of 2)"), ("html", 65, "HTML page"),
  ]

  @Test(arguments: failures.map(\.mode))
  func aFailedBatchFailsTheSyncAndLeavesEveryStore(_ mode: String) throws {
    let expected = Self.failures.first { $0.mode == mode }!
    let home = TempHome()
    try home.wx("fav", "add", "London")
    try home.wx("unit", "f")
    let before = home.snapshot()
    let api = try OpenMeteoAPI(mode: mode)
    let r = try Self.sync(home, api)
    #expect(r.status == expected.status, "\(mode): \(r)")
    #expect(r.stderr.hasPrefix("wx: ") && r.stderr.split(separator: "\n").count == 1, "\(mode): \(r.stderr)")
    #expect(r.stderr.contains(expected.words), "\(mode): \(r.stderr)")
    #expect(home.snapshot() == before, "\(mode) changed a store file")
  }

  @Test func aRateLimitIsWaitedOutOnce() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI(mode: "429")
    let r = try Self.sync(home, api)
    #expect(r.status == 0, "\(r)")
    // Two batches and the one refused request asked again once, after its Retry-After: 1.
    #expect(try api.stats().requests == 3)
    // The stand-in refuses a request asked again before its Retry-After second, as the API does.
    #expect(try api.early() == 0, "the Retry-After second was not waited")
    let always = try OpenMeteoAPI(mode: "429-always")
    let refused = try Self.sync(home, always)
    #expect(refused.status == 69, "\(refused)")
    // The API's sentence and wx's run on with one mark between them.
    #expect(refused.stderr.contains("Please try again in one minute; try again later (your catalogue"), "\(refused)")
    let asked = try always.stats().requests
    #expect(asked >= 2 && asked <= 4, "each batch asks at most twice, and the first failure ends the sync: \(asked)")
  }

  /// One location is answered with a single object, not an array; its forecast days are
  /// stored as sent (temperature, description and date of each day).
  @Test func aBatchOfOneIsASingleObjectAndItsForecastIsStored() throws {
    let home = TempHome()
    try home.wx("fav", "add", "London")
    let api = try OpenMeteoAPI()
    let r = try home.wx(
      "sync", "--provider", "open-meteo", "--favourites", "--days", "5",
      env: ["WX_OPEN_METEO_URL": api.forecast])
    #expect(r.status == 0, "\(r)")
    #expect(try api.stats().sizes == [1])
    let city = try home.wx("show", "London", "--json").json()
    let sent = try #require(
      try api.sent(latitude: city["latitude"] as! Double, longitude: city["longitude"] as! Double))
    let daily = try #require(sent["daily"] as? [String: Any])
    let days = try #require(city["forecast"] as? [[String: Any]])
    #expect(days.count == 5, "\(days)")
    let words = [0: "Clear sky", 1: "Mainly clear", 2: "Partly cloudy", 3: "Overcast", 61: "Slight rain", 95: "Thunderstorm"]
    for (k, day) in days.enumerated() {
      #expect(day["date"] as? String == (daily["time"] as? [String])?[k], "\(day)")
      #expect(day["temperature"] as? Double == (daily["temperature_2m_max"] as? [Double])?[k], "\(day)")
      if let code = (daily["weather_code"] as? [Int])?[k], let expected = words[code] {
        #expect(day["description"] as? String == expected, "day \(k): \(day)")
      }
    }
  }

  /// A server slower than WX_HTTP_TIMEOUT: unreachable (69), named, every store as it was.
  @Test func aSlowAnswerTimesOutAndLeavesEveryStore() throws {
    let home = TempHome()
    try home.wx("fav", "add", "London")
    let before = home.snapshot()
    let api = try OpenMeteoAPI(mode: "slow:4")
    let r = try home.run(["sync", "--provider", "open-meteo", "--url", api.forecast], env: ["WX_HTTP_TIMEOUT": "1"])
    #expect(r.status == 69 && r.stderr.contains("127.0.0.1"), "\(r)")
    #expect(r.stderr.split(separator: "\n").count == 1, "\(r)")
    #expect(home.snapshot() == before)
  }

  /// `count` catalogue records, "Town 0" and on, spread over the globe. (Built a field at a
  /// time: as one literal of mixed values in a closure, each took 1.4 s to type-check.)
  static func towns(_ count: Int) -> [[String: Any]] {
    (0..<count).map { i in
      var record: [String: Any] = ["id": i + 1, "city": "Town \(i)", "country": "Testland"]
      let latitude: Double = Double(i % 170) - 85
      let longitude: Double = Double(i % 350) - 175
      record["latitude"] = latitude
      record["longitude"] = longitude
      record["temperature"] = 10
      record["weather_description"] = "Cloudy"
      record["humidity"] = 50
      record["wind_speed"] = 5
      record["forecast"] = [Any]()
      return record
    }
  }

  /// Ten batches of answers slow enough to overlap: never more than 3 in flight, and more
  /// than one (the requests do overlap, so the bound is really tested).
  @Test func atMostThreeBatchesAreInFlight() throws {
    let home = TempHome()
    let cities = Self.towns(500)
    let data = try writeRecords(cities, in: home, name: "towns.json")
    let list = try FakeAPI(data: data)
    try #require(try home.wx("sync", "--url", list.url).status == 0)
    let api = try OpenMeteoAPI(mode: "slow:0.4")
    let r = try Self.sync(home, api)
    #expect(r.status == 0, "\(r)")
    let s = try api.stats()
    #expect(s.requests == 10 && s.sizes.allSatisfy { $0 == 50 }, "\(s)")
    #expect(s.peak >= 2 && s.peak <= 3, "\(s)")
  }

  @Test func favouritesRefreshOnlyTheFavourites() throws {
    let home = TempHome()
    try home.wx("fav", "add", "London", "Berlin")
    let before = try #require(try home.wx("list", "--json", "--per-page", "1000").json()["items"] as? [[String: Any]])
    let api = try OpenMeteoAPI()
    let r = try home.wx("sync", "--provider", "open-meteo", "--favourites", env: ["WX_OPEN_METEO_URL": api.forecast])
    #expect(r.status == 0, "\(r)")
    #expect(try api.stats().sizes == [2])
    let after = try #require(try home.wx("list", "--json", "--per-page", "1000").json()["items"] as? [[String: Any]])
    #expect(after.count == before.count)
    for (a, b) in zip(before, after) where !["London", "Berlin"].contains(a["city"] as? String) {
      #expect(NSDictionary(dictionary: a) == NSDictionary(dictionary: b))
    }
    #expect(try home.wx("show", "London", "--json").json()["source"] as? String == "open-meteo")
    // A city the refresh left alone keeps its provenance: the sample's.
    #expect(try home.wx("show", "Oslo", "--json").json()["source"] as? String == "sample")
    let status = try home.wx("status", "--json").json()
    #expect(status["refreshed"] as? Int == 2 && status["list_provider"] as? String == "sample", "\(status)")
  }

  @Test func aLargeCatalogueNeedsFavouritesOrMaxCities() throws {
    let home = TempHome()
    let big = home.path + "/../wx-big-\(UUID().uuidString).json"
    defer { try? FileManager.default.removeItem(atPath: big) }
    let cities = Self.towns(501)
    try JSONSerialization.data(withJSONObject: cities).write(to: URL(fileURLWithPath: big))
    let fake = try FakeAPI(data: big)
    #expect(try home.wx("sync", "--url", fake.url).status == 0)
    let api = try OpenMeteoAPI()
    let before = home.snapshot()
    let refused = try Self.sync(home, api)
    #expect(refused.status == 64 && refused.stderr.contains("--max-cities"), "\(refused)")
    #expect(home.snapshot() == before)
    #expect(try api.stats().requests == 0)
    let r = try Self.sync(home, api, "--max-cities", "120")
    #expect(r.status == 0, "\(r)")
    let s = try api.stats()
    #expect(s.requests == 3 && s.sizes.reduce(0, +) == 120 && s.peak <= 3, "\(s)")
  }

  @Test func hottestAndArtFollowTheCodes() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    #expect(try Self.sync(home, api).status == 0)
    // Rain-free: the chance of precipitation of the current hour known and under 50 % (the
    // stand-in's first hour is the current one), else no wet weather code.
    let wet: Set<Int> = [51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 77, 80, 81, 82, 85, 86, 95, 96, 99]
    var dry = 0
    let all = try api.sent()
    for record in Self.sample {
      let sent = try #require(
        try api.sent(latitude: record["latitude"] as! Double, longitude: record["longitude"] as! Double, in: all))
      let code = try #require((sent["current"] as? [String: Any])?["weather_code"] as? Int)
      let chance = ((sent["hourly"] as? [String: Any])?["precipitation_probability"] as? [Any])?.first as? Int
      if let chance { dry += chance < 50 ? 1 : 0 } else if !wet.contains(code) { dry += 1 }
    }
    let hottest = try home.wx("hottest", "--json", "--per-page", "1000").json()
    #expect(hottest["total"] as? Int == dry, "\(hottest)")
    // Berlin's code in the stand-in is 71 (snow): the snow picture.
    let berlin = try home.wx("show", "Berlin", "--ascii")
    #expect(berlin.stdout.contains("Slight snow fall") && berlin.stdout.contains("*  *  *"), "\(berlin)")
  }

  @Test func anOldFormatCatalogueStillReads() throws {
    let home = TempHome()
    try FileManager.default.copyItem(atPath: supportFile("catalogue-v1.gdbm"), toPath: home.catalogue)
    chmod(home.catalogue, 0o600)  // as wx writes its files (git checks the fixture out 0644)
    let show = try home.wx("show", "London", "--json")
    #expect(show.status == 0, "\(show)")
    let json = try show.json()
    #expect(json["temperature"] as? Double == 18 && json["humidity"] as? Double == 63 && json["wind_speed"] as? Double == 12.2)
    #expect(json["observed_at"] is NSNull && (json["forecast"] as? [Any])?.count == 2)
    #expect(try home.wx("doctor").status == 0)
  }

  @Test func badDaysAndProviderOnlyOptionsAreUsageErrors() throws {
    let home = TempHome()
    let days = try home.wx("sync", "--provider", "open-meteo", "--days", "17")
    #expect(days.status == 64 && days.stderr.contains("--days must be between 1 and 16"), "\(days)")
    let favourites = try home.wx("sync", "--provider", "freetestapi", "--favourites")
    #expect(favourites.status == 64 && favourites.stderr.contains("open-meteo only"), "\(favourites)")
    // Without --provider, an option only Open-Meteo takes means Open-Meteo.
    let inferred = try home.wx("sync", "--favourites")
    #expect(inferred.status == 64 && inferred.stderr.contains("no favourites"), "\(inferred)")
    let none = try home.wx("sync", "--provider", "open-meteo", "--favourites")
    #expect(none.status == 64 && none.stderr.contains("no favourites"), "\(none)")
    // AccuWeather's options are not silently ignored by another provider either.
    for extra in [["--count", "5"], ["--api-key", "k"], ["--provider", "open-meteo", "--count", "3"]] {
      let r = try home.run(["sync"] + extra)
      #expect(r.status == 64 && r.stderr.contains("apply to --provider accuweather only"), "\(extra) \(r)")
    }
  }

  /// An empty key is no key; and a key in the environment is AccuWeather's alone, so a 401
  /// from an API that takes none does not blame it.
  @Test func anEmptyKeyIsNoKeyAndOnlyAccuWeatherUsesOne() throws {
    let home = TempHome()
    let empty = try home.wx("sync", "--provider", "accuweather", "--api-key", "", "--url", "http://127.0.0.1:9/")
    #expect(empty.status == 78 && empty.stderr.contains("needs an API key"), "\(empty)")
    let api = try FakeAPI(mode: "status:401")
    let refused = try home.wx("sync", "--url", api.url, env: ["WX_ACCUWEATHER_KEY": "k"])
    #expect(refused.status == 78 && refused.stderr.contains("refused access (HTTP 401)"), "\(refused)")
    #expect(!refused.stderr.contains("key"), "\(refused)")
  }
}
