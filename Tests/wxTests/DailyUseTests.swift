import Foundation
import Testing

/// Issue 31, the small honest things: a mistyped command says which one was meant; a scale
/// of whole numbers prints whole.
@Suite struct DailyUseTests {
  @Test func aMistypedCommandSuggestsTheClosestOne() throws {
    let home = TempHome()
    let cases: [(String, String)] = [
      ("shw", "show"), ("lsit", "list"), ("serch", "search"), ("forcast", "forecast"), ("Show", "show"),
    ]
    for (typed, meant) in cases {
      let r = try home.wx(typed, "paris")
      #expect(
        r.status == 64 && r.stderr == "wx: no command named \"\(typed)\"; did you mean `wx \(meant)`? (see `wx --help`)\n", "\(r)"
      )
    }
    // Within a group too: `wx fav ad paris` was "2 unexpected arguments" (a helper's pass).
    for (group, typed, meant) in [("fav", "ad", "add"), ("aqi", "shw", "show"), ("fav", "rmm", "rm")] {
      let r = try home.wx(group, typed, "paris")
      #expect(
        r.status == 64
          && r.stderr
            == "wx: no command named \"\(group) \(typed)\"; did you mean `wx \(group) \(meant)`? (see `wx \(group) --help`)\n",
        "\(r)")
    }
    let none = try home.wx("xyzzy")
    #expect(none.status == 64 && none.stderr == "wx: no command named \"xyzzy\" (see `wx --help`)\n", "\(none)")
    // An escape sequence typed as a command is never echoed raw.
    let hostile = try home.wx("\u{1B}]0;owned\u{7}")
    #expect(hostile.status == 64 && !hostile.stderr.contains("\u{1B}"), "\(hostile)")
    #expect(try home.wx("help").status == 0)
  }

  /// A place wx has no weather for: waybar's tooltip says how to get it, never "invented
  /// sample data, never observed"; with --max-age its text is marked as `--format`'s is
  /// (a helper's pass: "✨ –", exit 1).
  @Test func waybarOfAPlaceWithoutWeatherSaysHowToGetIt() throws {
    let home = TempHome()
    let r = try home.run(["show", "Ljubljana", "--waybar"])
    let bar = try r.json()
    let tooltip = try #require(bar["tooltip"] as? String)
    #expect(tooltip.hasPrefix("Ljubljana, "), "\(tooltip)")
    #expect(
      tooltip.split(separator: "\n").last?.hasPrefix("no weather yet: `wx sync --provider open-meteo --city 'Ljubljana") == true
        && tooltip.hasSuffix("` fetches it") && !tooltip.contains("sample"), "\(tooltip)")
    #expect((bar["class"] as? [String])?.contains("stale") == true, "\(bar)")
    let marked = try home.run(["show", "Ljubljana", "--waybar", "--max-age", "3h"])
    let text = try marked.json()["text"] as? String
    #expect(marked.status == 1 && text == "? ?", "\(marked)")
  }

  @Test func usAQIPrintsWholeNumbers() throws {
    let home = TempHome()
    try home.wx("fav", "add", "London")
    let api = try OpenMeteoAPI()
    #expect(try home.wx("aqi", "sync", "--favourites", env: ["WX_OPEN_METEO_AQ_URL": api.airQuality]).status == 0)
    let sent = try #require(try api.sent(latitude: 51.5074, longitude: -0.1278))
    let us = try #require((sent["current"] as? [String: Any])?["us_aqi"] as? Int)
    let list = try home.wx("aqi")
    #expect(list.stdout.contains(" \(us) ") && !list.stdout.contains("\(us).00"), "\(list)")
    let show = try home.wx("aqi", "show", "London")
    #expect(show.stdout.contains("latest \(us) ") && !show.stdout.contains(".00"), "\(show)")
    // A typo of a recorded name says which (a helper's pass: only "no readings").
    let typo = try home.wx("aqi", "show", "lndon")
    #expect(typo.status == 66 && typo.stderr.contains("closest recorded: London"), "\(typo)")
  }

  /// The seed's hottest rule with real data: rain-free when the chance of precipitation is
  /// known and under 50 %, else when the description names no rain, snow, drizzle, showers
  /// or thunder (a snowing city is not rain-free).
  @Test func hottestFollowsTheChanceOfRainAndLeavesSnowOut() throws {
    let home = TempHome()
    let records = [
      weatherRecord(id: 1, city: "Dryville", description: "Sunny", temperature: 30),
      weatherRecord(id: 2, city: "Snowtown", description: "Light snow", temperature: 31),
      weatherRecord(id: 3, city: "Wetford", description: "Drizzle", temperature: 32),
      weatherRecord(id: 4, city: "Stormham", description: "Thunderstorm", temperature: 33),
    ]
    let api = try FakeAPI(data: try writeRecords(records, in: home))
    #expect(try home.wx("sync", "--url", api.url, "--quiet").status == 0)
    let items = try #require(try home.wx("hottest", "--json").json()["items"] as? [[String: Any]])
    #expect(items.map { $0["city"] as? String } == ["Dryville"], "\(items)")
  }

  @Test func forecastHottestKeepsOnlyDaysUnderHalfAChanceOfRain() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    #expect(try home.run(["sync", "--provider", "open-meteo", "--url", api.forecast, "--days", "7"]).status == 0)
    let sent = try #require(try api.sent(latitude: 59.9139, longitude: 10.7522))
    let daily = try #require(sent["daily"] as? [String: Any])
    let (dates, chances) = (
      try #require(daily["time"] as? [String]), try #require(daily["precipitation_probability_max"] as? [Int])
    )
    let json = try home.wx("forecast", "Oslo", "--hottest", "--json").json()
    let shown = Set(try #require(json["days"] as? [[String: Any]]).compactMap { $0["date"] as? String })
    let dry = Set(zip(dates, chances).filter { $0.1 < 50 }.map(\.0))
    #expect(
      !shown.isEmpty && shown.isSubset(of: dry) && shown.count < dates.count, "\(shown) of \(zip(dates, chances).map { $0 })")
  }

  /// `--waybar`: one JSON object as waybar's custom module reads it; `--i3blocks`: its three
  /// lines. Stale values say so (a class, a colour) without hiding them; `--max-age` marks them.
  @Test func waybarAndI3blocksReadTheStoredWeather() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    try home.wx("fav", "add", "Oslo")
    #expect(try home.run(["sync", "--provider", "open-meteo", "--url", api.forecast, "--favourites"]).status == 0)
    let observed = ProvenanceTests.osloObserved
    let fresh = try home.run(["show", "Oslo", "--waybar"], env: ["WX_NOW": String(observed + 600)])
    #expect(fresh.status == 0 && fresh.stderr.isEmpty && fresh.stdout.split(separator: "\n").count == 1, "\(fresh)")
    let bar = try fresh.json()
    let sent = try #require(try api.sent(latitude: 59.9139, longitude: 10.7522))
    let hourly = try #require(sent["hourly"] as? [String: Any])
    let chance = try #require((hourly["precipitation_probability"] as? [Any])?.first as? Int)
    let text = try #require(bar["text"] as? String)
    #expect(text.hasSuffix("°C") && text.contains(" "), "\(bar)")
    let tooltip = try #require(bar["tooltip"] as? String)
    #expect(tooltip.hasPrefix("Oslo, Norway\n") && tooltip.contains("high") && tooltip.contains("low"), "\(tooltip)")
    #expect(tooltip.contains("observed 13:00 today, Open-Meteo"), "\(tooltip)")
    #expect(bar["percentage"] as? Int == chance, "\(bar)")
    let classes = try #require(bar["class"] as? [String])
    #expect(classes.count == 1 && classes[0].allSatisfy { $0.isLowercase || $0 == "-" }, "\(classes)")
    // Four hours on: the values stay, the class says stale; with --max-age they are marked.
    let later = ["WX_NOW": String(observed + 4 * 3600)]
    let old = try home.run(["show", "Oslo", "--waybar", "--format", "%t"], env: later).json()
    #expect((old["class"] as? [String])?.contains("stale") == true && (old["text"] as? String)?.hasSuffix("°C") == true, "\(old)")
    let marked = try home.run(["show", "Oslo", "--waybar", "--format", "%t", "--max-age", "2h"], env: later)
    let markedText = try marked.json()["text"] as? String
    #expect(marked.status == 1 && markedText == "?", "\(marked)")
    // Four hours on, the stored hours give this hour's chance of rain; four days on, past
    // them, the observation's hour is no longer now: no percentage (the helpers' pass).
    #expect(old["percentage"] is Int, "\(old)")
    let gone = try home.run(["show", "Oslo", "--waybar"], env: ["WX_NOW": String(observed + 4 * 86_400)]).json()
    #expect(gone["percentage"] == nil && (gone["class"] as? [String])?.contains("stale") == true, "\(gone)")
    let chanceThen = try home.run(["show", "Oslo", "--format", "%o|%t"], env: ["WX_NOW": String(observed + 4 * 86_400)])
    #expect(chanceThen.stdout.hasPrefix("–|") && chanceThen.stdout.contains("°C"), "\(chanceThen)")
    // i3blocks: full text, short text, colour (none when fresh).
    let blocks = try home.run(["show", "Oslo", "--i3blocks"], env: ["WX_NOW": String(observed + 600)])
    let lines = blocks.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    // The colour line is empty when fresh (i3blocks keeps its own colour).
    #expect(
      blocks.status == 0 && lines.count >= 2 && (lines.count < 3 || lines[2].isEmpty) && lines[1].hasSuffix("°C"), "\(blocks)")
    let staleBlocks = try home.run(["show", "Oslo", "--i3blocks"], env: later)
    #expect(staleBlocks.stdout.split(separator: "\n").last == "#FF8C00", "\(staleBlocks)")
    #expect(try home.wx("show", "Oslo", "--waybar", "--i3blocks").status == 64)
    #expect(try home.wx("show", "Oslo", "--waybar", "--json").status == 64)
    // The tooltip names the place as `wx show`'s heading does: the region too when another
    // place of the name is in its country (the helpers' pass: two Portlands read alike).
    func place(_ args: String...) throws -> String? {
      let tooltip = try home.run(["show"] + args + ["--waybar"]).json()["tooltip"] as? String
      return tooltip?.split(separator: "\n").first.map(String.init)
    }
    #expect(try place("Oslo") == "Oslo, Norway")
    #expect(try place("Portland, OR") == "Portland, Oregon, United States")
    #expect(try place("Portland, Maine") == "Portland, Maine, United States")
  }

  /// Issue 30's defect: after an AccuWeather sync whose cities have no coordinates, a
  /// favourite of one was written with NaN coordinates that no command could read back (every
  /// command that reads favourites exited 74; doctor said all was healthy).
  @Test func aFavouriteWithoutCoordinatesReadsBack() throws {
    let home = TempHome()
    let api = try FakeAPI(extra: ["--api-key", "k3y", "--accu-delay-ms", "0"])
    #expect(try home.wx("sync", "--provider", "accuweather", "--api-key", "k3y", "--url", api.base, "--count", "3").status == 0)
    let add = try home.wx("fav", "add", "London")
    #expect(add.status == 0, "\(add)")
    let fav = try home.wx("fav", "--json")
    let first = try fav.json()["items"] as? [[String: Any]]
    #expect(fav.status == 0 && first?.first?["city"] as? String == "London", "\(fav)")
    #expect(try home.wx("doctor").status == 0)
    #expect(try home.wx("fav", "rm", "London").status == 0)
  }

  /// What Open-Meteo already sends, kept: pressure at sea level, visibility, dew point and
  /// cloud cover (show, JSON), and more of wttr.in's specifiers (%o %P %x %m %M); the moon is
  /// computed locally from the date.
  @Test func pressureVisibilityDewPointCloudsAndMoreSpecifiers() throws {
    let home = TempHome()
    let api = try OpenMeteoAPI()
    #expect(try home.run(["sync", "--provider", "open-meteo", "--url", api.forecast]).status == 0)
    let sent = try #require(try api.sent(latitude: 59.9139, longitude: 10.7522))
    let current = try #require(sent["current"] as? [String: Any])
    let json = try home.wx("show", "Oslo", "--json").json()
    #expect(json["pressure"] as? Double == current["pressure_msl"] as? Double, "\(json)")
    #expect(json["visibility"] as? Double == current["visibility"] as? Double, "\(json)")
    #expect(json["dew_point"] as? Double == current["dew_point_2m"] as? Double, "\(json)")
    #expect(json["cloud_cover"] as? Double == (current["cloud_cover"] as? Int).map(Double.init), "\(json)")
    // 2026-11-23 11:00 UTC (TempHome's clock): a day before the full moon of 2026-11-24
    // (published 14:53 UTC; the mean lunation says 16:20): moon day 13, the full moon's eighth.
    let moon = try #require(json["moon_phase"] as? [String: Any])
    #expect(
      moon["name"] as? String == "full moon" && (moon["fraction"] as? Double).map { abs($0 - 0.459) < 0.01 } == true, "\(moon)")
    let text = try home.wx("show", "Oslo")
    #expect(text.stdout.contains("hPa") && text.stdout.contains("dew point") && text.stdout.contains("clouds"), "\(text)")
    let line = try home.wx("show", "Oslo", "--format", "%P|%x|%m|%M")
    let parts = line.stdout.dropLast().split(separator: "|").map(String.init)
    #expect(parts.count == 4 && parts[0].hasSuffix(" hPa") && parts[2] == "🌕" && parts[3] == "13", "\(line)")
    let ascii = try home.wx("show", "Oslo", "--format", "%m", "--ascii")
    #expect(ascii.stdout == "full moon\n", "\(ascii)")
  }

  /// `--ascii` and a non-UTF-8 locale print names in their ASCII spelling, never raw bytes, with
  /// the columns kept; completion inserts the ASCII spelling there, and wx reads it back.
  @Test func asciiTerminalsGetAsciiNamesAndCompletions() throws {
    let home = TempHome()
    let env = ["WX_ATLAS": "on"]
    for (args, locale) in [
      (["search", "krak", "--ascii"], "C.UTF-8"), (["search", "krak"], "C"), (["search", "lodz"], "POSIX"),
    ] {
      let r = try home.run(args, env: env.merging(["LANG": locale, "LC_ALL": locale]) { $1 })
      #expect(r.status == 0 && r.stdout.utf8.allSatisfy { $0 < 0x80 }, "\(args) \(locale): \(r)")
      #expect(r.stdout.contains("Krakow") || r.stdout.contains("Lodz"), "\(r)")
      // Columns line up: every row's Country starts where the header's does.
      let lines = r.stdout.split(separator: "\n").filter { $0.contains("Poland") || $0.contains("Country") }
      let columns = Set(
        lines.map {
          $0.range(of: $0.contains("Country") ? "Country" : "Poland", options: .backwards)!.lowerBound.utf16Offset(in: $0)
        })
      #expect(columns.count == 1, "\(r.stdout)")
    }
    // waybar's text in an ASCII locale: the condition as a word, never `?` (the stale mark).
    let bar = try home.run(["show", "Oslo", "--waybar"], env: env.merging(["LC_ALL": "C"]) { $1 })
    #expect(bar.stdout.hasPrefix("{\"text\":\"clouds 1 C\""), "\(bar)")
    let show = try home.run(["show", "Kraków", "--json", "--ascii"], env: env)
    #expect(show.stdout.contains("Krak\u{00F3}w") || show.stdout.contains("Kraków"), "JSON keeps the name: \(show)")
    // Completion in the C locale: ASCII names, which wx resolves to the place meant.
    let offers = try home.run(["__complete", "zsh", "--", "show", "lod"], env: env.merging(["LC_ALL": "C"]) { $1 })
    // (Lod, Israel first: named exactly what was typed, as search ranks it.)
    #expect(offers.stdout.split(separator: "\n").contains("Lodz") && offers.stdout.utf8.allSatisfy { $0 < 0x80 }, "\(offers)")
    let back = try home.run(["show", "Lodz", "--json"], env: env).json()
    #expect(back["city"] as? String == "Łódź")
    let utf8 = try home.run(["__complete", "zsh", "--", "show", "lod"], env: env.merging(["LC_ALL": "C.UTF-8"]) { $1 })
    #expect(utf8.stdout.split(separator: "\n").contains("Łódź"), "\(utf8)")
  }

  /// Several places on one bar: `wx show A B C --format` and `wx fav --format`, one line each
  /// in the order named (a name of several words stays one place).
  @Test func severalPlacesOneLineEach() throws {
    let home = TempHome()
    let env = ["WX_ATLAS": "on"]
    let three = try home.run(["show", "Oslo", "Tokyo", "New", "York", "--format", "%l|%t"], env: env)
    #expect(three.status == 0, "\(three)")
    let lines = three.stdout.split(separator: "\n").map { $0.split(separator: "|").first.map(String.init) ?? "" }
    #expect(lines == ["Oslo, Norway", "東京, Japan", "New York, United States"], "\(three)")
    let one = try home.run(["show", "New", "York", "--format", "%l"], env: env)
    #expect(one.stdout == "New York, United States\n", "\(one)")
    // Not a place among them: the error names the word, as `wx fav add` does.
    let bad = try home.run(["show", "Oslo", "Qqqzz", "--format", "%l"], env: env)
    #expect(bad.status == 66 && bad.stderr.hasPrefix("wx: no city or place named \"Qqqzz\""), "\(bad)")
    let shared = try home.run(["show", "Oslo", "Springfield", "--format", "%l"], env: env)
    #expect(shared.status == 64 && shared.stderr.hasPrefix("wx: \"Springfield\" matches"), "\(shared)")
    #expect(try home.run(["show", "Oslo", "Oslo", "--format", "%l"], env: env).stdout == "Oslo, Norway\n")
    // A bar module shows one place; --max-age marks each place's stale values.
    let bar = try home.run(["show", "Oslo", "Tokyo", "--waybar"], env: env)
    #expect(bar.status == 64 && bar.stderr.contains("use --format for several"), "\(bar)")
    let old = try home.run(["show", "Oslo", "Lima", "--format", "%l %t", "--max-age", "3h"], env: env)
    #expect(old.status == 1 && old.stdout == "Oslo, Norway ?\nLima, Peru ?\n", "\(old)")
    // The favourites, one line each.
    #expect(try home.run(["fav", "add", "Lima", "Oslo"], env: env).status == 0)
    let favs = try home.run(["fav", "--format", "%l %t"], env: env)
    #expect(favs.stdout == "Lima, Peru 20 °C\nOslo, Norway 1 °C\n", "\(favs)")
    #expect(try home.run(["fav", "--format", "%t", "--json"], env: env).status == 64)
    #expect(try home.run(["fav", "--format", "%q"], env: env).status == 64)
  }

  /// Two places of one name and country on one bar are told apart by region, as the
  /// favourites' table tells them (they read "Springfield, United States" twice); a place
  /// alone keeps its country.
  @Test func placesOfOneNameOnOneBarSayTheirRegion() throws {
    let home = TempHome()
    let env = ["WX_ATLAS": "on"]
    #expect(try home.run(["fav", "add", "Springfield, IL", "Springfield, MO", "Oslo"], env: env).status == 0)
    let favs = try home.run(["fav", "--format", "%l|%t"], env: env)
    #expect(
      favs.stdout == "Springfield, Illinois|–\nSpringfield, Missouri|–\nOslo, Norway|1 °C\n" && favs.stderr.isEmpty,
      "\(favs)")
    let shown = try home.run(["show", "Springfield, IL", "Springfield, MO", "--format", "%l"], env: env)
    #expect(shown.stdout == "Springfield, Illinois\nSpringfield, Missouri\n", "\(shown)")
    let one = try home.run(["show", "Springfield, IL", "--format", "%l"], env: env)
    #expect(one.stdout == "Springfield, United States\n", "\(one)")
  }
}
