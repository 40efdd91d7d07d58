import Foundation
import Testing
import WXCore

@testable import wx

/// What a new user hit trying the hourly and daily forecasts, the units and the messages
/// (round 5), each turned into a test.
@Suite struct NewUserRound5Tests {
  static let plain = Terminal(color: false, unicode: true, width: nil)

  /// At 40 columns the hourly table has no room for its Date column: each day's date is a line
  /// of its own above its first hour, named as the daily table names it, so today's 14:00 is
  /// never mistaken for tomorrow's. Every line fits.
  @Test func hourlyAtFortyColumnsKeepsTheDates() throws {
    let (home, _, _) = try FullForecastTests.synced()
    let env = FullForecastTests.at(FullForecastTests.now).merging(["COLUMNS": "40"]) { $1 }
    let r = try home.wx("forecast", "Berlin", "--hourly", "--hours", "14", env: env)
    try #require(r.status == 0, "\(r)")
    // Berlin's local time is UTC+1: 13:00 to 02:00, across midnight.
    #expect(r.stdout.contains("\nToday 2026-11-23\n13:00 "), "\(r)")
    #expect(r.stdout.contains("\n23:00 ") && r.stdout.contains("\nTomorrow 2026-11-24\n00:00 "), "\(r)")
    for line in r.stdout.split(separator: "\n") {
      #expect(line.unicodeScalars.count <= 40, "\(line)")
    }
    // Wide enough, the date keeps its column: no line of its own.
    let wide = try home.wx("forecast", "Berlin", "--hourly", "--hours", "14", env: env.merging(["COLUMNS": "200"]) { $1 })
    #expect(wide.stdout.contains("\nToday 2026-11-23     13:00  "), "\(wide)")
    #expect(!wide.stdout.contains("\nToday 2026-11-23\n"), "\(wide)")
  }

  /// A small amount that is not zero never reads as zero: precipitation in inches or mm,
  /// wind in any unit but Beaufort (whose force 0 is a measure), UV and chances; JSON keeps
  /// the digits that make it non-zero. Zero stays zero.
  @Test func smallAmountsAreNotZero() {
    let m = Units.celsius, f = Units.fahrenheit
    #expect(f.formatPrecipitation(0.1) == "<0.01 in" && f.formatPrecipitation(0) == "0 in")
    #expect(f.formatPrecipitation(0.3) == "0.01 in")
    #expect(m.formatPrecipitation(0.04) == "<0.1 mm" && m.formatPrecipitation(0) == "0 mm")
    #expect(m.formatPrecipitation(0.1) == "0.1 mm")
    #expect(Units(.celsius, wind: .ms).formatWind(0.1) == "<0.1 m/s" && Units(.celsius, wind: .ms).formatWind(0) == "0 m/s")
    #expect(Units(.celsius, wind: .knots).formatWind(0.05) == "<0.1 kn" && f.formatWind(0.05) == "<0.1 mph")
    #expect(Units(.celsius, wind: .beaufort).formatWind(0.1) == "0 Bft")
    #expect(Fields.uv(0.3) == "<1 low" && Fields.uv(0) == "0 low" && Fields.uv(0.5) == "1 low")
    #expect(Fields.percent(0.3) == "<1%" && Fields.percent(0) == "0%")
    #expect(f.jsonPrecipitation(0.1) == 0.004 && f.jsonPrecipitation(0) == 0 && f.jsonPrecipitation(0.5) == 0.02)
    #expect(Units(.celsius, wind: .ms).jsonWind(0.1) == 0.03 && Units(.celsius, wind: .ms).jsonWind(0) == 0)
    #expect(f.jsonWind(0.05) == 0.03 && f.jsonWind(0.1) == 0.1)
  }

  /// End to end: the stand-in's 0.1 mm hours read `<0.01 in` in Fahrenheit, never `0 in`,
  /// and 0.004 in JSON.
  @Test func aTraceOfRainInInchesIsNotZero() throws {
    let (home, _, _) = try FullForecastTests.synced()
    let env = FullForecastTests.at(FullForecastTests.now).merging(["COLUMNS": "200"]) { $1 }
    try #require(try home.wx("unit", "f").status == 0)
    let json = try home.wx("forecast", "Berlin", "--hourly", "--hours", "48", "--json", env: env).json()
    try home.wx("unit", "c")
    let metric = try home.wx("forecast", "Berlin", "--hourly", "--hours", "48", "--json", env: env).json()
    let inches = try #require((json["hourly"] as? [[String: Any]])?.map { $0["precipitation"] as? Double })
    let mm = try #require((metric["hourly"] as? [[String: Any]])?.map { $0["precipitation"] as? Double })
    try #require(mm.contains(0.1), "the stand-in sends 0.1 mm somewhere: \(mm)")
    for (i, m) in zip(inches, mm) where (m ?? 0) > 0 { #expect((i ?? 0) > 0, "\(m ?? 0) mm is \(i ?? 0) in") }
    try home.wx("unit", "f")
    let text = try home.wx("forecast", "Berlin", "--hourly", "--hours", "48", env: env)
    #expect(text.stdout.contains("<0.01 in"), "\(text)")
  }

  /// An Open-Meteo answer's bad time is quoted in the message as every other message quotes
  /// untrusted text (`\x1b`), not as JSON (`\u001b`).
  @Test func aBadTimeIsQuotedAsEveryMessageQuotes() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI(mode: "bad-time")
    let r = try FullForecastTests.sync(home, api)
    #expect(r.status == 65 && r.stderr.contains(#"current time "2026-11-23T1\x1b[2J" is not a local time"#), "\(r)")
    #expect(!r.stderr.contains("\\u00"), "\(r)")
  }

  /// A forecast whose hours are all past says when it ended in words, in the city's local
  /// time (today, yesterday, or so many days ago, at the end of its last hour), in lines that
  /// fit 40 columns.
  @Test func anEndedForecastSaysWhenInWords() throws {
    let (home, _, _) = try FullForecastTests.synced()
    // Berlin (UTC+1): 48 hours from 13:00 on the 23rd, the last 12:00–13:00 on the 25th.
    let day = 86_400, start = FullForecastTests.now
    for (at, words) in [
      (start + 2 * day + 3600, "today at 13:00"), (start + 3 * day, "yesterday at 13:00"),
      (start + 5 * day, "3 days ago at 13:00"),
    ] {
      let env = FullForecastTests.at(at)
      let r = try home.wx("forecast", "Berlin", "--hourly", env: env)
      let (when, clock) = (words.dropLast(9), words.suffix(8))  // "today", "at 13:00"
      let said = "The hourly forecast ended \(when)\n\(clock) local time; run `wx sync`.\n"
      #expect(r.stdout.contains(said), "\(r)")
      // `wx show` says the same, each line within 40 columns.
      let show = try home.wx("show", "Berlin", env: env.merging(["COLUMNS": "40"]) { $1 })
      #expect(show.stdout.contains(said), "\(show)")
      #expect(!r.stdout.contains("T12:00") && !show.stdout.contains("T12:00"), "\(r)\n\(show)")
    }
  }

  /// `wx forecast` (daily) shows what Open-Meteo sends for each day — chance of rain,
  /// precipitation, wind and its direction, UV maximum, sunrise and sunset — and leaves out a
  /// column no day knows (Open-Meteo sends no daily humidity; freetestapi none of the new ones).
  @Test func theDailyForecastShowsTheNewFields() throws {
    let (home, _, sent) = try FullForecastTests.synced()
    let daily = try #require(sent["daily"] as? [String: Any])
    let env = FullForecastTests.at(FullForecastTests.now)
    let wide = try home.wx("forecast", "Berlin", env: env.merging(["COLUMNS": "200"]) { $1 })
    let lines = wide.stdout.split(separator: "\n")
    try #require(lines.count >= 4, "\(wide)")
    for column in ["Day", "Date", "Conditions", "High", "Low", "Rain", "Precip", "Wind", "Dir", "UV", "Sunrise", "Sunset"] {
      #expect(lines[1].contains(column), "\(column): \(wide)")
    }
    #expect(!lines[1].contains("Humidity"), "\(wide)")
    let rise = try #require((daily["sunrise"] as? [String])?[0]).suffix(5)
    let set = try #require((daily["sunset"] as? [String])?[0]).suffix(5)
    #expect(lines[2].hasPrefix("Today ") && lines[2].contains(rise) && lines[2].contains(set), "\(wide)")
    let narrow = try home.wx("forecast", "Berlin", env: env.merging(["COLUMNS": "40"]) { $1 })
    #expect(narrow.stdout.contains("2026-11-23") && narrow.stdout.contains("2026-11-24"), "\(narrow)")
    for line in narrow.stdout.split(separator: "\n") { #expect(line.count <= 40, "\(line)") }
    // Unknown values read "–", never 0; a column every day leaves unknown is not shown.
    let (nulls, _, _) = try FullForecastTests.synced(mode: "nulls")
    let n = try nulls.wx("forecast", "Berlin", env: env.merging(["COLUMNS": "200"]) { $1 })
    #expect(n.status == 0 && !n.stdout.contains("Sunrise"), "\(n)")
    // freetestapi's records (the sample) keep their table as it was.
    let sample = try TempHome().wx("forecast", "London", env: ["COLUMNS": "200"])
    let head = try #require(sample.stdout.split(separator: "\n").dropFirst().first)
    #expect(
      head.split(separator: " ", omittingEmptySubsequences: true) == ["Day", "Date", "Conditions", "Temp", "Humidity", "Wind"])
  }

  /// A record without hours says so in lines that fit 40 columns, the command whole.
  @Test func noHourlyForecastFitsFortyColumns() throws {
    let r = try TempHome().wx("forecast", "London", "--hourly", env: ["COLUMNS": "40"])
    #expect(
      r.status == 0
        && r.stdout.contains(
          "\nNo hourly forecast in the sample.\nOpen-Meteo sends 48 hours:\n  wx sync --provider open-meteo\n"),
      "\(r)")
    for line in r.stdout.split(separator: "\n").dropLast() {  // the last, the sync's age, is cut as everywhere
      #expect(line.count <= 40 && !line.hasSuffix("…"), "\(line)")
    }
  }

  /// The command `wx show` gives for an atlas place is never cut: on a narrow screen the
  /// country goes by its code, and an apostrophe is quoted as people write it; the shorter
  /// argument names the same place.
  @Test func anAtlasPlacesCommandIsNeverCut() throws {
    let home = try AtlasCommandTests().home()
    let narrow = try home.wx("show", "'s-Hertogenbosch", env: AtlasCommandTests.on.merging(["COLUMNS": "40"]) { $1 })
    #expect(narrow.status == 0 && narrow.stdout.contains("    --city \"'s-Hertogenbosch, NL\"\n"), "\(narrow)")
    for line in narrow.stdout.split(separator: "\n") where line.contains("--") {
      #expect(line.count <= 40 && !line.contains("…"), "\(line)")
    }
    let wide = try home.wx("show", "'s-Hertogenbosch", "--json", env: AtlasCommandTests.on)
    #expect(
      try wide.json()["weather_command"] as? String
        == "wx sync --provider open-meteo --city \"'s-Hertogenbosch, The Netherlands\"", "\(wide)")
    let short = try home.wx("show", "'s-Hertogenbosch, NL", "--json", env: AtlasCommandTests.on).json()
    #expect(short["geonameid"] as? Int == (try wide.json()["geonameid"] as? Int), "\(short)")
  }

  /// In a locale that is not UTF-8, help is spelled in ASCII as the rest of wx's output is:
  /// `1-48`, not `1–48`; arrows in words.
  @Test func helpIsASCIIOutsideAUTF8Locale() throws {
    let home = TempHome()
    for command in [["forecast"], ["browse"], ["list"], ["sync"]] {
      let r = try home.run(command + ["--help"], env: ["LANG": "C", "COLUMNS": "80"])
      #expect(r.status == 0 && r.stdout.utf8.allSatisfy { $0 < 0x80 }, "\(command): \(r)")
      let utf8 = try home.run(command + ["--help"], env: ["COLUMNS": "80"])
      #expect(utf8.stdout.utf8.contains { $0 >= 0x80 }, "\(command): \(utf8)")
    }
    #expect(try home.wx("forecast", "--help", env: ["LANG": "C"]).stdout.contains("(1-48, default 24)"))
  }

  /// In `wx browse`, an atlas place found by a search is not shown with a catalogue id (its
  /// GeoNames id is no id `wx show` takes), and its detail says how to get its weather, in
  /// lines that fit 40 columns, not "No forecast … for this ~".
  @Test func anAtlasPlaceInBrowseSaysHowToGetItsWeather() throws {
    let home = try AtlasCommandTests().home()
    let r = try BrowseTests().browse(
      home,
      [
        BrowseTests.wait("62 cities"), BrowseTests.keys("ljub"), BrowseTests.wait("Ljubljana"), BrowseTests.keys("\r"),
        BrowseTests.wait("--favourites"), BrowseTests.snap("detail"),
      ] + BrowseTests.quit, size: [40, 30], env: ["NO_COLOR": "1", "WX_ATLAS": "on"])
    // The screen's lines without the spaces that pad them to its width.
    let detail = r.screen("detail").map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
    #expect(detail.contains("Ljubljana, Slovenia  GeoNames 3196359") && !detail.contains("id 3196359"), "\(detail)")
    #expect(detail.contains(" No weather for it yet: make it a\n favourite (f), then fetch it with\n"), "\(detail)")
    #expect(detail.contains("   wx sync --provider open-meteo\n     --favourites"), "\(detail)")
    // Nothing is cut but the key hints at the foot, which are cut on every screen this narrow.
    #expect(!detail.contains("No forecast") && !detail.split(separator: "\n").dropLast().joined().contains("…"), "\(detail)")
  }

  /// `wx forecast` resolves a name as `wx show` does: an atlas place without weather shows
  /// what wx knows of it and the command that fetches its weather (exit 0), not "no city named
  /// …; closest: Lagos"; a catalogue city still gets its forecast.
  @Test func theForecastOfAnAtlasPlaceSaysHowToGetItsWeather() throws {
    let home = try AtlasCommandTests().home()
    for args in [["forecast", "Ljubljana"], ["forecast", "Ljubljana", "--hourly"]] {
      let r = try home.run(args, env: AtlasCommandTests.on)
      #expect(
        r.status == 0 && r.stdout.contains("Ljubljana, Slovenia")
          && r.stdout.contains("wx sync --provider open-meteo --city 'Ljubljana, Slovenia'"), "\(args): \(r)")
    }
    let json = try home.wx("forecast", "Ljubljana", "--json", env: AtlasCommandTests.on).json()
    #expect(json["geonameid"] as? Int == 3_196_359 && (json["days"] as? [Any])?.isEmpty == true, "\(json)")
    let london = try home.wx("forecast", "London", env: AtlasCommandTests.on)
    #expect(london.status == 0 && london.stdout.contains("London, United Kingdom\nDay "), "\(london)")
  }
}
