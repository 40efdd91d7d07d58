import Foundation
import Testing

/// The views from the apps wx grew out of, and the AccuWeather provider.
@Suite struct ViewTests {
  func sample() throws -> [[String: Any]] { try records(sampleFile) }

  static func isRainy(_ d: String) -> Bool {
    let l = d.lowercased()
    // Snow too: a snowing city is not rain-free (issue 31, the seed's hottest rule).
    return l.contains("rain") || l.contains("shower") || l.contains("drizzle") || l.contains("storm")
      || l.contains("snow") || l.contains("sleet") || l.contains("flurr") || l.contains("blizzard") || l == "ice"
  }

  @Test func topShowsTheFirstCitiesInThePersistedUnit() throws {
    let home = TempHome()
    let data = try sample()
    let r = try home.wx("top")
    #expect(r.status == 0)
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "Weather")
    // The sample's values are invented: each row says so in the Age column.
    #expect(lines[1].hasPrefix("City") && lines[1].contains("Temperature") && lines[1].hasSuffix("Age"))
    for (k, rec) in data.prefix(5).enumerated() {
      #expect(lines[2 + k].hasPrefix(rec["city"] as! String) && lines[2 + k].hasSuffix("sample"), "\(lines[2 + k])")
    }
    try home.wx("unit", "f")
    let f = try home.wx("top", "--count", "2", "--json").json()
    let items = try #require(f["items"] as? [[String: Any]])
    #expect(items.count == 2 && f["unit"] as? String == "fahrenheit")
    let c0 = (data[0]["temperature"] as! NSNumber).doubleValue
    #expect(abs((items[0]["temperature"] as! Double) - (c0 * 9 / 5 + 32)) < 0.06)
    #expect(try home.wx("top").stdout.contains("°F"))
  }

  @Test func forecastListsDaysAndHottestFiltersRain() throws {
    let home = TempHome()
    let data = try sample()
    // A city whose forecast mixes rainy and dry days, if the sample has one; else any city.
    let city =
      data.first { r in
        let days = r["forecast"] as! [[String: Any]]
        return days.contains { Self.isRainy($0["weather_description"] as! String) }
          && days.contains { !Self.isRainy($0["weather_description"] as! String) }
      } ?? data[0]
    let name = "\(city["city"]!), \(city["country"]!)"
    let days = city["forecast"] as! [[String: Any]]
    // The sample's first day is today (11:00 UTC; its cities' dates are the same there).
    let now = ["WX_NOW": String(seconds((days[0]["date"] as! String) + "T11:00:00Z"))]
    let text = try home.wx("forecast", name, env: now)
    #expect(text.status == 0, "\(text)")
    #expect(text.stdout.contains("\nToday ") && text.stdout.contains("\nTomorrow "), "\(text)")
    let json = try home.wx("forecast", "--json", env: now).json()  // no CITY: the last city
    #expect(json["city"] as? String == city["city"] as? String)
    let dates = (json["days"] as? [[String: Any]])?.compactMap { $0["date"] as? String } ?? []
    #expect(dates == dates.sorted() && dates.count == days.count)
    let hot = try home.wx("forecast", name, "--hottest", "--json", env: now).json()
    let hotDays = try #require(hot["days"] as? [[String: Any]])
    let expected = days.filter { !Self.isRainy($0["weather_description"] as! String) }
    #expect(hotDays.count == expected.count)
    let temps = hotDays.compactMap { $0["temperature"] as? Double }
    #expect(temps == temps.sorted(by: >))
    #expect(hotDays.allSatisfy { !Self.isRainy($0["description"] as! String) })
  }

  /// The sample's forecast (2026-11-23 and 24) seen on 2026-12-01: wholly past, and said so;
  /// on the 24th, the 23rd is past and counted, not shown.
  @Test func aForecastWhollyInThePastSaysSo() throws {
    let home = TempHome()
    let later = ["WX_NOW": String(seconds("2026-12-01T12:00:00Z"))]
    let text = try home.wx("forecast", "London", env: later)
    #expect(text.status == 0 && text.stdout.contains("wholly past") && !text.stdout.contains("Date"), "\(text)")
    let json = try home.wx("forecast", "London", "--json", env: later).json()
    #expect((json["days"] as? [Any])?.isEmpty == true && (json["past_days"] as? [Any])?.count == 2, "\(json)")
    #expect(json["today"] as? String == "2026-12-01")
    let hottest = try home.wx("forecast", "London", "--hottest", env: later)
    #expect(hottest.stdout.contains("wholly past") && !hottest.stdout.contains("rain-free days in"), "\(hottest)")
    let show = try home.wx("show", "London", "--json", env: later).json()
    #expect((show["forecast"] as? [Any])?.isEmpty == true && (show["past_days"] as? [Any])?.count == 2, "\(show)")
    let between = try home.wx("forecast", "London", env: ["WX_NOW": String(seconds("2026-11-24T12:00:00Z"))])
    #expect(between.stdout.contains("\nToday  2026-11-24") && !between.stdout.contains("2026-11-23  "), "\(between)")
    #expect(between.stdout.contains("1 past day not shown (2026-11-23)."), "\(between)")
    let bad = try home.wx("forecast", "London", env: ["WX_NOW": "soon"])
    #expect(bad.status == 78 && bad.stderr.contains("WX_NOW=soon"), "\(bad)")
  }

  /// A sample (or any JSON answer) opening with a UTF-8 byte order mark reads as without it.
  @Test func aSampleWithAByteOrderMarkReads() throws {
    let home = TempHome()
    let folder = home.path + "/../bom-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: sampleFile))
    try (Data([0xEF, 0xBB, 0xBF]) + bytes).write(to: URL(fileURLWithPath: folder + "/sample-weathers.json"))
    let r = try home.wx("list", "--json", env: ["WX_DATA_DIR": folder])
    let count = try sample().count
    #expect(r.status == 0 && (try? r.json())?["total"] as? Int == count, "\(r)")
  }

  @Test func hottestSkipsRainyCitiesHottestFirstAndPaginates() throws {
    let home = TempHome()
    let data = try sample()
    let dry = data.filter { !Self.isRainy($0["weather_description"] as! String) }
    let page1 = try home.wx("hottest", "--per-page", "10", "--json").json()
    #expect(page1["total"] as? Int == dry.count)
    var all: [[String: Any]] = []
    for p in 1...(page1["pages"] as! Int) {
      all += try home.wx("hottest", "--per-page", "10", "--page", String(p), "--json").json()["items"] as! [[String: Any]]
    }
    #expect(all.count == dry.count)
    let temps = all.map { $0["temperature"] as! Double }
    #expect(temps == temps.sorted(by: >))
    #expect(all.allSatisfy { !Self.isRainy($0["description"] as! String) })
    #expect(try home.wx("hottest", "--page", "99").status == 64)
  }

  @Test func conditionPicturesHaveAnASCIIFallback() throws {
    let home = TempHome()
    let unicode = try home.wx("show", "London")
    let ascii = try home.wx("show", "London", "--ascii")
    let cLocale = try home.wx("show", "London", env: ["LANG": "C", "LC_ALL": "C"])
    func art(_ s: String) -> [Substring] { s.split(separator: "\n").prefix(5).map { $0.prefix(13) } }
    #expect(art(ascii.stdout).allSatisfy { $0.allSatisfy(\.isASCII) })
    #expect(art(cLocale.stdout) == art(ascii.stdout))
    let sunny = try #require(try sample().first { $0["weather_description"] as? String == "Sunny" })
    let sun = try home.wx("show", "\(sunny["city"]!), \(sunny["country"]!)")
    #expect(art(sun.stdout).contains { $0.contains("―") }, "\(sun.stdout)")
    #expect(unicode.status == 0 && !art(unicode.stdout).isEmpty)
  }

  @Test func temperaturesAreColouredByBandOnlyWhenColourIsOn() throws {
    let home = TempHome()
    let data = try sample()
    func band(_ c: Double) -> String {
      c >= 30 ? "31" : c >= 20 ? "38;5;208" : c >= 10 ? "36" : c >= 0 ? "34" : "35"
    }
    let out = try home.wx("list", "--per-page", "100", "--color", "always").stdout
    for rec in data {
      let c = (rec["temperature"] as! NSNumber).doubleValue
      let shown = "\(Int(c.rounded(.toNearestOrAwayFromZero))) °C"
      #expect(out.contains("\u{1B}[\(band(c))m\(shown)\u{1B}[0m"), "\(rec["city"]!) \(c)")
    }
    #expect(!(try home.wx("list", "--color", "auto").stdout.contains("\u{1B}[")))
    #expect(!(try home.wx("show", "London", "--color", "auto", env: ["NO_COLOR": "1"]).stdout.contains("\u{1B}[")))
  }
}
