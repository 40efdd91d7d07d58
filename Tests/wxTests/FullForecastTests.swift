import Foundation
import Testing

/// The full forecast from Open-Meteo (issue 23): what a sync asks for and stores, how an
/// answer is read (streamed, bounded), and what `show`, `forecast --hourly` and the one-line
/// format print from it.
@Suite struct FullForecastTests {
  static func sync(_ home: TempHome, _ api: OpenMeteoAPI, _ more: String...) throws -> Run {
    try home.run(["sync", "--provider", "open-meteo", "--url", api.forecast] + more)
  }

  /// One answer of 120 MB (50 valid locations, the first also holding a 120 MB array the
  /// decoder does not ask for) is read in flat memory and the sync succeeds.
  @Test func aHugeAnswerIsReadInFlatMemory() throws {
    let home = TempHome()
    try home.wx("list")
    let api = try OpenMeteoAPI(mode: "huge:120")
    let m = try home.peakMemory(["sync", "--provider", "open-meteo", "--url", api.forecast, "--quiet"])
    #expect(m.status == 0, "\(m.run)")
    #expect(m.peakKiB < 64 * 1024, "peak RSS \(m.peakKiB / 1024) MiB for 120 MiB answers")
    #expect(try home.wx("show", "London", "--json").json()["source"] as? String == "open-meteo")
  }

  /// An Open-Meteo sync's memory does not grow with the places it fetches: the fetched cities
  /// are encoded into a spill file as each batch arrives, and the plan holds names, not
  /// weather (12 KB a place before: 79 MiB at 5,000). 50,000 places: `make stress`.
  @Test(arguments: [5_000] + (ProcessInfo.processInfo.environment["WX_STRESS"] != nil ? [50_000] : []))
  func aSyncOfThousandsOfPlacesRunsInFlatMemory(_ n: Int) throws {
    func peak(_ count: Int) throws -> Int {
      let home = TempHome()
      let list = (0..<count).map { k -> [String: Any] in
        var r = weatherRecord(id: k + 1, city: "Town \(k)")
        (r["latitude"], r["longitude"]) = (Double(k % 170) - 85, Double(k % 359) - 179)
        return r
      }
      let api = try FakeAPI(data: try writeRecords(list, in: home))
      #expect(try home.wx("sync", "--url", api.url, "--quiet", timeout: 600).status == 0)
      let om = try OpenMeteoAPI()
      let m = try home.peakMemory(
        ["sync", "--provider", "open-meteo", "--url", om.forecast, "--max-cities", String(count), "--quiet"], timeout: 1200)
      #expect(m.status == 0, "\(m.run)")
      #expect(try home.wx("show", "Town \(count - 1)", "--json").json()["source"] as? String == "open-meteo")
      return m.peakKiB
    }
    // Both above AtlasLinks.threshold: the links' working tables (a step of about 10 MiB
    // for the atlas's 170,000 places, whatever the catalogue) are in both.
    let small = try peak(1_500), large = try peak(n)
    #expect(large < 64 * 1024, "peak RSS \(large / 1024) MiB for \(n) places")
    #expect(large - small < 12 * 1024, "\(n) places: \(large / 1024) MiB; 1,500: \(small / 1024) MiB")
  }

  /// `current.time` is a local time or bad data: an escape sequence in it is never stored.
  @Test func aCurrentTimeThatIsNoTimeIsBadData() throws {
    let home = TempHome()
    try home.wx("list")
    let before = home.snapshot()
    let api = try OpenMeteoAPI(mode: "bad-time")
    let r = try Self.sync(home, api)
    #expect(r.status == 65 && r.stderr.contains("current time") && r.stderr.contains("is not a local time"), "\(r)")
    #expect(!r.stderr.contains("\u{1B}"), "\(r)")
    #expect(home.snapshot() == before)
  }

  /// 2026-11-23T12:20Z: the stand-in's "now" (its locations' current hour is 12:00 UTC).
  static let now = 1_795_435_200 + 20 * 60
  static let berlin = (latitude: 52.52, longitude: 13.405)

  static func synced(mode: String = "ok") throws -> (TempHome, OpenMeteoAPI, [String: Any]) {
    let home = TempHome()
    let api = try OpenMeteoAPI(mode: mode)
    let r = try sync(home, api)
    try #require(r.status == 0, "\(r)")
    let sent = try #require(try api.sent(latitude: berlin.latitude, longitude: berlin.longitude))
    return (home, api, sent)
  }

  static func at(_ seconds: Int) -> [String: String] { ["WX_NOW": String(seconds)] }

  /// Every value sent is stored and shown in JSON under the documented keys, in the unit
  /// asked; hours start at the current one.
  @Test func showCarriesTheFullForecast() throws {
    let (home, _, sent) = try Self.synced()
    let current = try #require(sent["current"] as? [String: Any])
    let daily = try #require(sent["daily"] as? [String: Any])
    let hourly = try #require(sent["hourly"] as? [String: [Any]])
    #expect(hourly["time"]?.count == 48)
    let show = try home.wx("show", "Berlin", "--json", env: Self.at(Self.now)).json()
    #expect(show["feels_like"] as? Double == current["apparent_temperature"] as? Double)
    #expect(show["wind_direction"] as? Double == (current["wind_direction_10m"] as? Int).map(Double.init))
    #expect(show["wind_gusts"] as? Double == current["wind_gusts_10m"] as? Double)
    #expect(show["precipitation"] as? Double == current["precipitation"] as? Double)
    #expect(show["wind_unit"] as? String == "kmh")
    #expect(show["sunrise"] as? String == ((daily["sunrise"] as? [String])?[0]).map { String($0.suffix(5)) })
    #expect(show["sunset"] as? String == ((daily["sunset"] as? [String])?[0]).map { String($0.suffix(5)) })
    #expect(show["uv_index"] as? Double == hourly["uv_index"]?[0] as? Double)
    #expect(show["precipitation_probability"] as? Double == (hourly["precipitation_probability"]?[0] as? Int).map(Double.init))
    let hours = try #require(show["hourly"] as? [[String: Any]])
    #expect(hours.count == 48)
    for (k, h) in hours.enumerated() {
      #expect(h["time"] as? String == hourly["time"]?[k] as? String)
      #expect(h["temperature"] as? Double == hourly["temperature_2m"]?[k] as? Double)
      #expect(h["feels_like"] as? Double == hourly["apparent_temperature"]?[k] as? Double)
      #expect(h["wind_speed"] as? Double == hourly["wind_speed_10m"]?[k] as? Double)
      #expect(h["uv_index"] as? Double == hourly["uv_index"]?[k] as? Double)
      #expect(h["precipitation"] as? Double == hourly["precipitation"]?[k] as? Double)
      #expect(
        Set(h.keys) == [
          "time", "temperature", "feels_like", "precipitation_probability", "precipitation",
          "description", "wind_speed", "wind_direction", "uv_index",
        ])
    }
    let days = try #require(show["forecast"] as? [[String: Any]])
    #expect(days.count == 2 && days[1]["uv_index_max"] as? Double == (daily["uv_index_max"] as? [Double])?[1])
    #expect(days[1]["precipitation"] as? Double == (daily["precipitation_sum"] as? [Double])?[1])
    #expect(days[1]["wind_direction"] as? Double == ((daily["wind_direction_10m_dominant"] as? [Int])?[1]).map(Double.init))
    // Fahrenheit and mph, inches: converted when shown, one place.
    let f = try home.wx("show", "Berlin", "--json", "--unit", "f", env: Self.at(Self.now)).json()
    let c = try #require(current["apparent_temperature"] as? Double)
    #expect(f["feels_like"] as? Double == ((c * 9 / 5 + 32) * 10).rounded() / 10 && f["wind_unit"] as? String == "mph")
    // Five hours on, the list starts five hours later; past hours are never the future.
    let later = try home.wx("show", "Berlin", "--json", env: Self.at(Self.now + 5 * 3600)).json()
    let rest = try #require(later["hourly"] as? [[String: Any]])
    #expect(rest.count == 43 && rest.first?["time"] as? String == hourly["time"]?[5] as? String)
    let gone = try home.wx("show", "Berlin", env: Self.at(Self.now + 3 * 86400))
    #expect(gone.stdout.contains("The hourly forecast ended yesterday\nat 13:00 local time"), "\(gone)")
    let goneJSON = try home.wx("show", "Berlin", "--json", env: Self.at(Self.now + 3 * 86400)).json()
    #expect((goneJSON["hourly"] as? [Any])?.isEmpty == true)
  }

  /// The text: feels-like, wind direction, gusts, UV with its category, the sun's times and a
  /// 24-hour strip fitted to the width, in ASCII without Unicode.
  @Test func showPrintsTheExtrasAndAStripThatFits() throws {
    let (home, _, sent) = try Self.synced()
    let env = Self.at(Self.now)
    let text = try home.wx("show", "Berlin", env: env.merging(["COLUMNS": "100"]) { $1 })
    #expect(text.status == 0)
    for part in ["feels like 8 °C", "wind 13.4 km/h SE ↖", "gusts 23.4 km/h", "UV 7 high", "sunrise 07:00", "sunset 16:40"] {
      #expect(text.stdout.contains(part), "\(part): \(text)")
    }
    let lines = text.stdout.split(separator: "\n").map(String.init)
    let temp = try #require(lines.first { $0.hasPrefix("temp  ") }), rain = try #require(lines.first { $0.hasPrefix("rain  ") })
    // 24 hours two columns wide at 100 columns, the hour labels under their cells.
    #expect(temp.count == 6 + 48 + 2 + "5–16 °C".count, "\(temp)")
    #expect(rain.hasSuffix("max 98%"), "\(rain)")
    let labels = try #require(lines.first { $0.hasPrefix("      ") && $0.contains("15    18") })
    let first = try #require((sent["hourly"] as? [String: [Any]])?["time"]?.first as? String)
    #expect(first.hasSuffix("T13:00") && labels.hasPrefix("          15"), "\(labels)")
    for columns in [40, 60] {
      let narrow = try home.wx("show", "Berlin", "--ascii", env: env.merging(["COLUMNS": "\(columns)"]) { $1 })
      #expect(narrow.stdout.utf8.allSatisfy { $0 < 0x80 }, "\(narrow)")
      #expect(narrow.stdout.split(separator: "\n").allSatisfy { $0.count <= columns }, "\(narrow)")
      #expect(
        narrow.stdout.contains("temp  ") && narrow.stdout.contains("wind 13.4") && !narrow.stdout.contains("↖"), "\(narrow)")
    }
    // Too narrow for six hours: no strip, and no empty space left for it.
    let tiny = try home.wx("show", "Berlin", env: env.merging(["COLUMNS": "20"]) { $1 })
    #expect(!tiny.stdout.contains("temp ") && !tiny.stdout.contains("\n\n\n"), "\(tiny)")
  }

  /// Nulls stay unknown: "–" and null, never 0; records without hours (freetestapi, an old
  /// catalogue) show none and say nothing.
  @Test func unknownValuesAndRecordsWithoutHours() throws {
    let (home, _, _) = try Self.synced(mode: "nulls")
    let show = try home.wx("show", "Berlin", "--json", env: Self.at(Self.now)).json()
    #expect(show["feels_like"] is NSNull && show["wind_gusts"] is NSNull && show["sunrise"] is NSNull, "\(show)")
    let hours = try #require(show["hourly"] as? [[String: Any]])
    #expect(hours.count == 48 && hours[1]["temperature"] is NSNull && hours[1]["uv_index"] is NSNull)
    #expect(hours[1]["description"] is NSNull && hours[0]["temperature"] as? Double != nil)
    let text = try home.wx("show", "Berlin", env: Self.at(Self.now))
    #expect(text.stdout.contains("feels like –") && text.stdout.contains("sunrise –"), "\(text)")
    let plain = TempHome()
    let sample = try plain.wx("show", "London", "--json")
    let sampleJSON = try sample.json()
    #expect((sampleJSON["hourly"] as? [Any])?.isEmpty == true && sampleJSON["feels_like"] is NSNull)
    let words = try plain.wx("show", "London")
    #expect(!words.stdout.contains("feels like") && !words.stdout.contains("temp  "), "\(words)")
    let old = TempHome()
    try FileManager.default.copyItem(atPath: supportFile("catalogue-v1.gdbm"), toPath: old.catalogue)
    chmod(old.catalogue, 0o600)
    let v1 = try old.wx("show", "London", "--json")
    let v1JSON = try v1.json()
    #expect(v1.status == 0 && (v1JSON["hourly"] as? [Any])?.isEmpty == true, "\(v1)")
  }

  /// `wx forecast --hourly`: a row per hour from the current local hour, the same items as
  /// `show`; records without hours and hours all past say so once.
  @Test func hourlyForecastFromTheCurrentHour() throws {
    let (home, _, sent) = try Self.synced()
    let times = try #require((sent["hourly"] as? [String: [Any]])?["time"] as? [String])
    let env = Self.at(Self.now + 3600 + 59 * 60)  // 14:19 UTC: 15:19 in Berlin (UTC+1 here), its 15:00 hour
    let json = try home.wx("forecast", "Berlin", "--hourly", "--hours", "6", "--json", env: env).json()
    let hours = try #require(json["hourly"] as? [[String: Any]])
    #expect(hours.map { $0["time"] as? String } == Array(times[2..<8]), "\(hours)")
    let show = try #require(try home.wx("show", "Berlin", "--json", env: env).json()["hourly"] as? [[String: Any]])
    #expect(hours.map { $0["time"] as? String } == show.prefix(6).map { $0["time"] as? String })
    #expect(json["unit"] as? String == "celsius" && json["wind_unit"] as? String == "kmh")
    #expect((try home.wx("forecast", "Berlin", "--hourly", "--json", env: env).json()["hourly"] as? [Any])?.count == 24)
    #expect(
      (try home.wx("forecast", "Berlin", "--hourly", "--hours", "48", "--json", env: env).json()["hourly"] as? [Any])?.count == 46
    )
    let text = try home.wx("forecast", "Berlin", "--hourly", "--hours", "3", env: env.merging(["COLUMNS": "120"]) { $1 })
    let rows = text.stdout.split(separator: "\n").filter { $0.contains(":00  ") }
    #expect(
      rows.count == 3 && rows[0].hasPrefix("Today 2026-11-23  15:00") && rows[1].hasPrefix("                  16:00"), "\(text)")
    let narrow = try home.wx("forecast", "Berlin", "--hourly", env: env.merging(["COLUMNS": "40"]) { $1 })
    #expect(narrow.stdout.split(separator: "\n").allSatisfy { $0.count <= 40 } && narrow.stdout.contains("15:00"), "\(narrow)")
    let ended = try home.wx("forecast", "Berlin", "--hourly", env: Self.at(Self.now + 3 * 86400))
    #expect(
      ended.stdout.contains("The hourly forecast ended yesterday\nat 13:00 local time") && !ended.stdout.contains(":00  "),
      "\(ended)")
    let sample = TempHome()
    let none = try sample.wx("forecast", "London", "--hourly")
    #expect(none.status == 0 && none.stdout.components(separatedBy: "No hourly forecast").count == 2, "\(none)")
    #expect((try sample.wx("forecast", "London", "--hourly", "--json").json()["hourly"] as? [Any])?.isEmpty == true)
    for bad in [["--hours", "3"], ["--hourly", "--hours", "0"], ["--hourly", "--hours", "49"], ["--hourly", "--hottest"]] {
      let r = try home.run(["forecast", "Berlin"] + bad)
      #expect(r.status == 64, "\(bad): \(r)")
    }
  }

  /// Wind units apart from temperature: saved with `wx unit wind`, once with `--wind`;
  /// `wx unit f` saves only the temperature unit.
  @Test func windUnitsApartFromTemperature() throws {
    let home = TempHome()
    let kmh = try #require(try home.wx("show", "Oslo", "--json").json()["wind_speed"] as? Double)
    #expect(try home.wx("unit", "wind").stdout == "kmh\n")
    #expect(try home.wx("unit", "wind", "knots").stdout == "knots\n")
    #expect(try home.wx("unit", "f").stdout == "fahrenheit\nwind knots\n")
    let show = try home.wx("show", "Oslo", "--json").json()
    #expect(show["unit"] as? String == "fahrenheit" && show["wind_unit"] as? String == "knots")
    #expect(show["wind_speed"] as? Double == (kmh / 1.852 * 10).rounded() / 10, "\(show)")
    #expect(try home.wx("show", "Oslo").stdout.contains(" kn\n"))
    let once = try home.wx("list", "--json", "--wind", "bft", "--per-page", "1").json()
    let item = try #require((once["items"] as? [[String: Any]])?.first)
    #expect(item["wind_unit"] as? String == "beaufort" && (item["wind_speed"] as? Double).map { $0 == $0.rounded() } == true)
    #expect(try home.wx("unit", "wind").stdout == "knots\n")  // --wind saved nothing
    #expect(try home.wx("unit", "wind", "auto").stdout == "mph\n")
    #expect(try home.wx("unit").stdout == "fahrenheit\n")
    for bad in [["wind", "furlongs"], ["kelvin"], ["wind", "mph", "c"]] {
      let r = try home.run(["unit"] + bad)
      #expect(r.status == 64 && r.stderr.contains("unit"), "\(bad): \(r)")
    }
    #expect(try home.run(["show", "Oslo", "--wind", "furlongs"]).status == 64)
  }

  /// `wx show --format`: wttr.in's specifiers on one line, offline, escaped, and the last
  /// city shown left alone.
  @Test func oneLineFormat() throws {
    let (home, _, _) = try Self.synced()
    let env = Self.at(Self.now)
    let j = try home.wx("show", "Berlin", "--json", env: env).json()
    try home.wx("show", "Oslo")
    let r = try home.wx("show", "Berlin", "--format", "%l|%c|%C|%t|%f|%h|%w|%p|%u|%S|%s|%%", env: env)
    func whole(_ key: String) -> String { (j[key] as? Double).map { String(Int(($0).rounded())) } ?? "?" }
    let expected =
      "Berlin, Germany|❄|Slight snow fall|\(whole("temperature")) °C|\(whole("feels_like")) °C|"
      + "\(whole("humidity"))%|13.4 km/h SE ↖|0.1 mm|\(whole("uv_index"))|07:00|16:40|%\n"
    #expect(r.status == 0 && r.stdout == expected, "\(r)")
    #expect(try home.wx("show", "--format", "%l", env: env).stdout == "Oslo, Norway\n")  // the last city is still Oslo
    let ascii = try home.wx("show", "Berlin", "--format", "%c %w", env: env.merging(["LANG": "C"]) { $1 })
    #expect(ascii.stdout == "snow 13.4 km/h SE\n", "\(ascii)")
    let hostile = try home.wx("show", "Berlin", "--format", "\u{1B}]0;pwned\u{07}%t", env: env)
    #expect(!hostile.stdout.contains("\u{1B}") && hostile.stdout.contains("\\x1b]0;pwned\\x07"), "\(hostile)")
    let sample = TempHome()
    #expect(try sample.wx("show", "London", "--format", "%t %f %u %S").stdout == "18 °C – – –\n")
    for bad in [["--format", "%Q"], ["--format", "50%"], ["--format", "%t", "--json"]] {
      let e = try home.run(["show", "Berlin"] + bad)
      #expect(e.status == 64 && e.stderr.contains("--format"), "\(bad): \(e)")
    }
  }
}
