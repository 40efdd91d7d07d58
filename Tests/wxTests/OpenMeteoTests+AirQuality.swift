import Foundation
import Testing

/// Air quality through Open-Meteo, the shrink check after a weather refresh, and AccuWeather's
/// base URL and unknown values.
extension OpenMeteoTests {
  @Test func aqiSyncAddsUSAQIReadingsToTheHistory() throws {
    let home = TempHome()
    try home.wx("fav", "add", "London", "Berlin")
    let api = try OpenMeteoAPI()
    let env = ["WX_OPEN_METEO_AQ_URL": api.airQuality]
    #expect(try home.wx("aqi", "sync", "--favourites", env: env).status == 0)
    let r = try home.wx("aqi", "sync", "--favourites", env: env)
    #expect(r.status == 0, "\(r)")
    #expect(try api.stats().sizes == [2, 2])
    let sent = try #require(try api.sent(latitude: 51.5074, longitude: -0.1278))
    let current = try #require(sent["current"] as? [String: Any])
    let show = try home.wx("aqi", "show", "London", "--json").json()
    let readings = try #require(show["readings"] as? [[String: Any]])
    // A reading keeps its own time (`current.time`): the same one fetched twice is kept once.
    #expect(readings.count == 1 && readings.last?["aqi"] as? Double == current["us_aqi"] as? Double, "\(show)")
    #expect(readings.last?["time"] as? String == "2026-11-23T12:00:00Z", "\(show)")
    #expect(readings.last?["scale"] as? String == "US AQI", "\(show)")
    #expect(readings.last?["european_aqi"] as? Double == current["european_aqi"] as? Double, "\(show)")
    #expect(readings.last?["pm2_5"] as? Double == current["pm2_5"] as? Double, "\(show)")
    let text = try home.wx("aqi", "show", "London")
    #expect(text.stdout.contains("European AQI ") && text.stdout.contains("PM2.5 "), "\(text)")
    let usNames = ["Good", "Moderate", "Unhealthy for Sensitive Groups", "Unhealthy", "Very Unhealthy", "Hazardous"]
    #expect(usNames.contains(readings.last?["category"] as? String ?? ""), "\(show)")
    let list = try home.wx("aqi", "list")
    #expect(list.stdout.contains("Berlin") && list.stdout.contains("US AQI"), "\(list)")
    let status = try home.wx("status", "--json").json()
    #expect(status["attribution"] as? String == "Air quality data by Open-Meteo.com (CC BY 4.0)", "\(status)")

    let before = home.snapshot()
    _ = try api.get("/__mode?set=error")
    let failed = try home.wx("aqi", "sync", "--favourites", env: env)
    #expect(failed.status == 65 && failed.stderr.contains("Cannot initialize"), "\(failed)")
    // It names the store it left alone: the air-quality history, not the catalogue.
    #expect(
      failed.stderr.hasSuffix("; the air-quality history is unchanged\n") && !failed.stderr.contains("catalogue"), "\(failed)")
    #expect(home.snapshot() == before)
  }

  /// Feed readings (NAQI) and `wx aqi sync` readings (US AQI) of one city share its history
  /// but never a chart, a minimum or a maximum.
  @Test func aqiShowChartsOneScaleOfAMixedHistory() throws {
    let home = TempHome()
    try home.wx("fav", "add", "London")
    let server = try WSServer([aqiFrame([("London", 450)]) + "\nsleep 30\n" + aqiFrame([("London", 420)])])
    #expect(try watch(home, server, count: 2).status == 0)
    let api = try OpenMeteoAPI()
    #expect(try home.wx("aqi", "sync", "--favourites", env: ["WX_OPEN_METEO_AQ_URL": api.airQuality]).status == 0)
    let us = try home.wx("aqi", "show", "London", "--scale", "us", "--json").json()
    let readings = try #require(us["readings"] as? [[String: Any]])
    #expect(us["scale"] as? String == "US AQI" && readings.count == 1, "\(us)")
    #expect(us["min"] as? Double == readings[0]["aqi"] as? Double && us["max"] as? Double == readings[0]["aqi"] as? Double)
    #expect((us["other_scales"] as? [[String: Any]])?.first?["readings"] as? Int == 2, "\(us)")
    let naqi = try home.wx("aqi", "show", "London", "--scale", "naqi", "--json").json()
    #expect(naqi["scale"] as? String == "NAQI" && naqi["min"] as? Double == 420 && naqi["max"] as? Double == 450, "\(naqi)")
    // The feed's "London" and Open-Meteo's "London, United Kingdom": one place, one history,
    // in the order observed (the feed's readings arrived after Open-Meteo's observation), the
    // chart on the latest reading's scale.
    let text = try home.wx("aqi", "show", "London")
    #expect(text.stdout.hasPrefix("London, United Kingdom · air quality (NAQI), 2 readings\n"), "\(text)")
    #expect(text.stdout.hasSuffix("also 1 US AQI reading (--scale us)\n"), "\(text)")
    let none = try home.wx("aqi", "show", "Berlin", "--scale", "us")
    #expect(none.status == 66, "\(none)")
    try home.wx("fav", "add", "Oslo")
    let server2 = try WSServer([aqiFrame([("Oslo", 20)])])
    #expect(try watch(home, server2, count: 1).status == 0)
    let oslo = try home.wx("aqi", "show", "Oslo", "--scale", "us")
    #expect(oslo.status == 66 && oslo.stderr.contains("no US AQI readings for \"Oslo\""), "\(oslo)")
  }

  /// Cities whose names fold alike are recorded as "Name, Country"; `wx aqi show` still finds
  /// each by its name as `wx show` does: spelled exactly, case aside, or else ambiguous (64).
  @Test func aqiShowFindsACityRecordedWithItsCountry() throws {
    let home = TempHome()
    try home.wx("fav", "add", "Zürich")
    try home.wx("fav", "add", "Zurich, Canada")
    let api = try OpenMeteoAPI()
    #expect(try home.wx("aqi", "sync", "--favourites", env: ["WX_OPEN_METEO_AQ_URL": api.airQuality]).status == 0)
    // As `wx show` takes them: Zürich has a hundred times the people of Zurich, Ontario.
    for (typed, recorded) in [
      ("Zürich", "Zürich, Switzerland"), ("ZURICH", "Zürich, Switzerland"), ("Zurich, Canada", "Zurich, Canada"),
      ("Zűrich", "Zürich, Switzerland"),
    ] {
      let r = try home.wx("aqi", "show", typed, "--json")
      #expect(r.status == 0 && (try? r.json())?["city"] as? String == recorded, "\(typed): \(r)")
    }
    #expect(try home.wx("aqi", "show", "Zurichville").status == 66)
  }

  /// The helpers' pass: two favourite Springfields of the United States shared one history
  /// ("Springfield, United States"), and `wx aqi show` did not find a place as `wx show` does
  /// (tokio, new york city). Now each place has its own, and `aqi show` asks the place book.
  @Test func aqiKeepsTwoPlacesOfOneNameApartAndResolvesLikeShow() throws {
    let home = TempHome()
    for place in ["Springfield, IL", "Springfield, MO", "tokyo", "new york city"] {
      #expect(try home.wx("fav", "add", place).status == 0, "\(place)")
    }
    let api = try OpenMeteoAPI()
    let sync = try home.wx("aqi", "sync", "--favourites", env: ["WX_OPEN_METEO_AQ_URL": api.airQuality])
    #expect(sync.status == 0 && sync.stderr.contains("recorded air quality for 4 cities"), "\(sync)")
    var seen: Set<String> = []
    for (typed, recorded) in [
      ("Springfield, IL", "Springfield, Illinois, United States"),
      ("springfield, missouri", "Springfield, Missouri, United States"),
      ("tokio", "東京, Japan"), ("new york city", "New York, United States"),
    ] {
      let r = try home.wx("aqi", "show", typed, "--json")
      let city = (try? r.json())?["city"] as? String
      #expect(r.status == 0 && city == recorded, "\(typed): \(r)")
      if let city { seen.insert(city) }
    }
    #expect(seen.count == 4)
    let neither = try home.wx("aqi", "show", "Springfield, Ohio")
    #expect(neither.status == 66 && neither.stderr.contains("no air-quality readings"), "\(neither)")
    // The place `wx show` shows, not another of its name with readings (the helpers' pass:
    // `paris` was ambiguous between the readings of Paris, France and of Paris, Texas).
    let api2 = try OpenMeteoAPI()
    try home.wx("fav", "add", "Paris, US")
    try home.wx("fav", "add", "Paris, France")
    #expect(try home.wx("aqi", "sync", "--favourites", env: ["WX_OPEN_METEO_AQ_URL": api2.airQuality]).status == 0)
    #expect(try home.wx("aqi", "show", "paris", "--json").json()["city"] as? String == "Paris, France")
    #expect(try home.wx("aqi", "show", "Paris, US", "--json").json()["city"] as? String == "Paris, United States")
  }

  /// The helpers' pass: Open-Meteo recorded a place's readings under its bare name when no
  /// other synced place had it, and a bare name is the feed's, of any country: with Paris,
  /// Texas the only Paris synced, `wx aqi show paris` (Paris, France, as `wx show paris`)
  /// charted Texas's air. Now every Open-Meteo reading names its country.
  @Test func aqiShowNeverChartsAnotherPlaceOfTheName() throws {
    let home = TempHome()
    #expect(try home.wx("fav", "add", "Paris, US").status == 0)
    let api = try OpenMeteoAPI()
    #expect(try home.wx("aqi", "sync", "--favourites", env: ["WX_OPEN_METEO_AQ_URL": api.airQuality]).status == 0)
    let france = try home.wx("aqi", "show", "paris")
    #expect(france.status == 66 && france.stderr.contains("no air-quality readings"), "\(france)")
    // Which place it was read as, and the namesake that has readings (a helper's pass).
    #expect(
      france.stderr.contains("(Paris, Île-de-France, France); closest recorded: Paris, United States"), "\(france)")
    #expect(try home.wx("aqi", "show", "Paris, TX", "--json").json()["city"] as? String == "Paris, United States")
    let list = try home.wx("aqi", "list", "--json").json()
    #expect((list["items"] as? [[String: Any]])?.compactMap { $0["city"] as? String } == ["Paris, United States"])
  }

  @Test func aWeatherRefreshDoesNotLiftTheShrinkCheck() throws {
    let home = TempHome()
    let full = try FakeAPI()
    #expect(try home.wx("sync", "--url", full.url).status == 0)
    let api = try OpenMeteoAPI()
    #expect(try Self.sync(home, api).status == 0)
    let few = home.path + "/../wx-few-\(UUID().uuidString).json"
    defer { try? FileManager.default.removeItem(atPath: few) }
    try JSONSerialization.data(withJSONObject: Array(Self.sample.prefix(5))).write(to: URL(fileURLWithPath: few))
    let small = try FakeAPI(data: few)
    let before = home.snapshot()
    let r = try home.wx("sync", "--provider", "freetestapi", "--url", small.url)
    #expect(r.status == 65 && r.stderr.contains("--allow-shrink"), "\(r)")
    #expect(home.snapshot() == before)
  }

  /// A base URL with a query of its own keeps it after the paths and the key wx adds.
  @Test func accuWeatherBaseURLMayCarryAQuery() throws {
    let home = TempHome()
    let api = try FakeAPI(extra: ["--api-key", "k", "--accu-delay-ms", "0"])
    let r = try home.wx(
      "sync", "--provider", "accuweather", "--api-key", "k", "--url", api.base + "/?language=en", "--count", "2")
    #expect(r.status == 0, "\(r)")
  }

  @Test func accuWeatherUnknownsAreDashesNotZeros() throws {
    let home = TempHome()
    let api = try FakeAPI(extra: ["--api-key", "k", "--accu-delay-ms", "0"])
    #expect(try home.wx("sync", "--provider", "accuweather", "--api-key", "k", "--url", api.base, "--count", "2").status == 0)
    let first = try #require(try records(sampleFile).first?["city"] as? String)
    let json = try home.wx("show", first, "--json").json()
    #expect(json["humidity"] is NSNull && json["wind_speed"] is NSNull, "\(json)")
    let text = try home.wx("show", first)
    #expect(text.stdout.contains("humidity – · wind –"), "\(text)")
  }
}
