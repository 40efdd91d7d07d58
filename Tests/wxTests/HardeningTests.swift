import Foundation
import Testing
import WXCore

/// A catalogue written straight through WXCore, as an older wx or a foreign file could have
/// left it: nothing of sync's own cleaning applies, so the renderers are on their own.
func publish(_ cities: [City], in home: TempHome) throws {
  let h = Home(directory: home.path, sampleCandidates: [])
  let lock = try h.writers.acquire()
  defer { lock.release() }
  try h.publishCatalogue(
    cities,
    meta: CatalogueMeta(
      generation: 1, source: "test", provider: "test", syncedAt: Clock.now(), count: cities.count, isSample: false),
    holding: lock)
}

func city(_ id: Int, _ name: String, _ country: String, _ description: String = "Sunny", temperature: Double = 20)
  -> City
{
  City(
    id: id, name: name, country: country, latitude: 1.5, longitude: -2.5, temperatureC: temperature,
    description: description, humidity: 50, windKmh: 10,
    forecast: [
      ForecastDay(date: "2026-11-24", temperatureC: temperature + 1, description: description, humidity: 40, windKmh: 5),
      ForecastDay(date: "2026-11-25", temperatureC: temperature - 1, description: "Cloudy", humidity: 60, windKmh: 7),
    ])
}

/// Every control a hostile API or file could slip into a text field.
let hostileBits = [
  "\u{1B}]0;pwned\u{07}", "\u{1B}[2J", "\r", "\n", "\u{0}", "\u{9B}31m", "\u{85}", "\u{202E}", "\u{2066}", "\t",
  "\u{7F}", "\u{1B}[31m", "\u{8}",
]

/// The bytes that may not reach a terminal: C0 but newline, DEL, C1, bidi controls; ESC only
/// as a colour sequence, and only when colour was asked for.
func unsafeBytes(_ s: String, colours: Bool) -> [String] {
  var found: [String] = []
  var t = s
  if colours {
    t = t.replacingOccurrences(of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
  }
  for u in t.unicodeScalars {
    let v = u.value
    if (v < 0x20 && v != 0x0A) || v == 0x7F || (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v)
      || (0x2066...0x2069).contains(v)
    {
      found.append(String(format: "U+%04X", v))
    }
  }
  return found
}

@Suite struct EscapingTests {
  static let cities: [City] =
    hostileBits.enumerated().map { (i, bit) in
      var c = city(
        900 + i, "Evil\(bit)City\(i)", "Bad\(bit)Land", "Rain\(bit)y", temperature: Double(i))
      c.forecast[0].date = "2026\(bit)-11-24"
      c.forecast[1].description = "Cl\(bit)oud"
      return c
    } + [city(1, "Oslo", "Norway")]

  func hostileHome() throws -> TempHome {
    let home = TempHome()
    try publish(Self.cities, in: home)
    _ = try FavouritesStore(path: home.favourites, writers: .init(directory: home.path, deadline: 5))
      .add(Array(Self.cities.prefix(5)), now: 1_700_000_000)
    return home
  }

  static let commands: [[String]] = [
    ["list"], ["list", "--sort", "name"], ["list", "--sort", "temperature", "--per-page", "50"], ["show", "900"],
    ["show", "Evil"], ["show", "Evil\u{1B}[2J\u{7}nothing"], ["forecast", "901"], ["forecast", "902", "--hottest"],
    ["search", "evil"], ["search", "bad\u{1B}]0;x\u{7}zzz"], ["top", "--count", "20"], ["hottest"], ["fav"],
    ["fav", "list", "--sort", "name"], ["fav", "remove", "Nowhere\u{1B}[2J"], ["status"], ["doctor"],
    ["show", "--ascii", "903"], ["fav", "add", "904"],
  ]

  @Test(arguments: commands)
  func noControlByteReachesTheTerminal(_ args: [String]) throws {
    let home = try hostileHome()
    let takesColour = !["status", "doctor"].contains(args[0]) && !(args[0] == "fav" && args.count > 1 && args[1] != "list")
    for colours in takesColour ? [false, true] : [false] {
      let r = try home.run(args + (colours ? ["--color", "always"] : []))
      #expect(!r.signalled, "\(args) \(r)")
      #expect(unsafeBytes(r.stdout, colours: colours).isEmpty, "\(args) stdout: \(r.stdout.debugDescription)")
      #expect(unsafeBytes(r.stderr, colours: false).isEmpty, "\(args) stderr: \(r.stderr.debugDescription)")
    }
  }

  /// JSON escapes controls, C1 and bidi characters as `\u` too: a person may read it.
  @Test func jsonCarriesNoRawControl() throws {
    let home = try hostileHome()
    for args in [
      ["list"], ["show", "900"], ["search", "evil"], ["top", "--count", "20"], ["fav"], ["forecast", "901"], ["hottest"],
    ] {
      let r = try home.run(args + ["--json"])
      #expect(r.status == 0, "\(args) \(r)")
      #expect(unsafeBytes(r.stdout, colours: false).isEmpty, "\(args) --json: \(r.stdout.debugDescription)")
    }
  }

  @Test func textShowsTheControlsAsEscapes() throws {
    let home = try hostileHome()
    let r = try home.wx("show", "901")
    #expect(r.status == 0, "\(r)")
    #expect(r.stdout.contains("Evil\\x1b[2JCity1"), "\(r.stdout.debugDescription)")
    let e = try home.wx("show", "900", "--json")
    let json = try e.json()
    #expect(json["city"] as? String == "Evil\u{1B}]0;pwned\u{07}City0", "JSON keeps the data, escaped by JSON")
    #expect(!e.stdout.contains("\u{1B}"))
  }

  @Test func hostileAirQualityNamesAreEscaped() throws {
    let home = TempHome()
    let store = AQIStore(path: home.path + "/aqi.gdbm", writers: .init(directory: home.path, deadline: 5))
    try store.record([AQIReading(city: "Del\u{1B}[2Jhi\u{202E}", aqi: 150)], at: Clock.now())
    for args in [
      ["aqi", "list"], ["aqi", "list", "--json"], ["aqi", "show", "del\u{1B}[2Jhi\u{202E}"],
      ["aqi", "show", "del\u{1B}[2Jhi\u{202E}", "--json"], ["aqi", "show", "nowhere\u{1B}[2J"],
    ] {
      let r = try home.run(args)
      #expect(unsafeBytes(r.stdout + r.stderr, colours: false).isEmpty, "\(args) \(r)")
    }
  }

  @Test func echoedArgumentsAreCut() throws {
    let home = TempHome()
    let long = String(repeating: "q", count: 100 * 1024)  // the kernel takes at most 128 KiB an argument
    for args in [["show", long], ["search", long], ["fav", "remove", long], ["forecast", long]] {
      let r = try home.run(args)
      #expect(r.status != 0)
      #expect(r.stderr.utf8.count < 1000, "\(args.first!): \(r.stderr.utf8.count) bytes")
      #expect(r.stderr.contains("qqq…"), "\(r.stderr.prefix(200))")
    }
  }
}

@Suite struct WidthTests {
  static let commands: [[String]] = [
    ["list"], ["list", "--per-page", "60"], ["show", "Ho Chi Minh City"], ["forecast", "São Tomé"], ["top", "--count", "60"],
    ["hottest"], ["search", "s"], ["fav"], ["show", "Paris"], ["status"], ["list", "--ascii"], ["search", "sa", "--ascii"],
  ]

  func widest(_ s: String) -> Int {
    s.split(separator: "\n").map { line in
      line.replacingOccurrences(of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression).count
    }.max() ?? 0
  }

  @Test(arguments: commands)
  func fortyColumnsNeverWrap(_ args: [String]) throws {
    let home = TempHome()
    try home.wx("fav", "add", "Ho Chi Minh City", "São Tomé", "Winston-Salem")
    for columns in ["40", "52", "80"] {
      let r = try home.run(args, env: ["COLUMNS": columns])
      #expect(widest(r.stdout) <= Int(columns)!, "\(args) at \(columns): \(r.stdout)")
    }
  }

  /// JSON is data: a narrow terminal never cuts it (`wx status --json` was cut to the width
  /// with "…" and stopped being JSON).
  @Test(arguments: [
    ["status", "--json"], ["list", "--json"], ["show", "Paris, FR", "--json"], ["search", "sa", "--json"],
    ["top", "--json"], ["hottest", "--json"], ["forecast", "Paris, FR", "--json"], ["fav", "list", "--json"],
  ])
  func jsonIsNeverCutToTheWidth(_ args: [String]) throws {
    let home = TempHome()
    try home.wx("fav", "add", "Ho Chi Minh City")
    let piped = try home.run(args)
    let narrow = try home.run(args, env: ["COLUMNS": "40"])
    #expect(narrow.status == 0 && !narrow.stdout.contains("…"), "\(args): \(narrow.stdout)")
    #expect((try? narrow.json()) != nil, "\(args) at 40 columns is not JSON: \(narrow.stdout)")
    #expect(maskingAges(narrow.stdout) == maskingAges(piped.stdout), "\(args)")
  }

  /// Without Unicode ("9 C" for "9 °C"), every row of a table is as wide as its header: the
  /// cells were measured as printed (every column right of Temp sat one cell left before).
  @Test(arguments: [["list", "--ascii"], ["hottest", "--ascii"], ["search", "sa", "--ascii"], ["list"], ["top", "--ascii"]])
  func asciiTablesStayAligned(_ args: [String]) throws {
    let home = TempHome()
    let r = try home.run(args, env: ["LC_ALL": "C", "LANG": "C"])
    let table = r.stdout.split(separator: "\n").filter {
      !$0.isEmpty && !$0.contains("page") && !$0.contains("cities") && !$0.contains("synced")
    }
    .drop { !$0.contains("City") }
    try #require(table.count > 3, "\(r)")
    let widths = table.map { Self.columns(String($0)) }
    #expect(Set(widths).count == 1, "\(args): \(widths)\n\(r.stdout)")
  }

  /// Terminal columns of a line: CJK and full-width characters take two, combining marks none.
  static func columns(_ line: String) -> Int {
    line.unicodeScalars.reduce(0) { n, u in
      switch u.value {
      case 0x300...0x36F: return n
      case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60: return n + 2
      default: return n + 1
      }
    }
  }

  @Test func narrowListsKeepCityTemperatureAndDropColumnsInOrder() throws {
    let home = TempHome()
    let wide = try home.wx("list")
    #expect(wide.stdout.contains("Humidity") && wide.stdout.contains("Wind"), "a pipe keeps full rows")
    let r = try home.run(["list"], env: ["COLUMNS": "40"])
    let header = r.stdout.split(separator: "\n").first.map(String.init) ?? ""
    #expect(header.hasPrefix("City"), "\(header)")
    #expect(header.contains("Temp") && !header.contains("Humidity") && !header.contains("Wind"), "\(header)")
    #expect(r.stdout.contains("…"), "long names are cut with an ellipsis")
    let mid = try home.run(["list"], env: ["COLUMNS": "64"])
    #expect(mid.stdout.contains("Conditions") && !mid.stdout.contains("Humidity"), "\(mid.stdout)")
  }

  @Test func airQualityTablesKeepTheirNumbersWhenNarrow() throws {
    let home = TempHome()
    let store = AQIStore(path: home.path + "/aqi.gdbm", writers: .init(directory: home.path, deadline: 5))
    try store.record([AQIReading(city: String(repeating: "Llanfair", count: 6), aqi: 42)], at: Clock.now())
    let r = try home.run(["aqi", "list"], env: ["COLUMNS": "40"])
    #expect(r.status == 0, "\(r)")
    #expect(widest(r.stdout) <= 40 && r.stdout.contains("42.00"), "\(r.stdout)")
  }

  @Test func pipesGetWholeNames() throws {
    let home = TempHome()
    let long = "Taumatawhakatangihangakoauauotamateaturipukakapikimaungahoronukupokaiwhenuakitanatahu"
    try publish([city(1, long, "New Zealand")], in: home)
    #expect(try home.wx("list").stdout.contains(long))
    #expect(!(try home.run(["list"], env: ["COLUMNS": "60"]).stdout.contains(long)))
  }

  @Test func aRealFortyColumnTerminal() throws {
    let home = TempHome()
    try home.wx("list")
    let r = try runProcess(
      "/usr/bin/script", ["-qec", "stty cols 40 rows 30; '\(wxBinary)' list", "/dev/null"],
      environment: ["WX_HOME": home.path, "LANG": "C.UTF-8", "TERM": "xterm", "PATH": "/usr/bin:/bin", "TZ": "UTC"])
    let text = r.stdout.replacingOccurrences(of: "\r", with: "")
    #expect(text.contains("Temp"), "\(text)")
    #expect(widest(text) <= 40, "\(text)")
  }

  @Test func asciiSpellsTheTypography() throws {
    let home = TempHome()
    for args in [["show", "Paris, France", "--ascii"], ["list", "--ascii"], ["forecast", "Lima", "--ascii"]] {
      let r = try home.run(args, env: ["COLUMNS": "40"])
      #expect(r.status == 0, "\(r)")
      for ch in ["°", "·", "…", "–", "’"] { #expect(!r.stdout.contains(ch), "\(args) prints \(ch): \(r.stdout)") }
    }
    let c = try home.run(["show", "Paris, France"], env: ["LANG": "C", "LC_ALL": "C"])
    #expect(!c.stdout.contains("°"), "a C locale gets ASCII too")
  }
}

@Suite struct NameMatchingTests {
  static let extra: [City] = [
    city(1, "N'Djamena", "Chad"), city(2, "Winston-Salem", "United States"), city(3, "Saint-Étienne", "France"),
    city(4, "St. Louis", "United States"), city(5, "L’Aquila", "Italy"), city(6, "Hawaiʻi Kai", "United States"),
    city(7, "Paris", "France"), city(8, "Paris", "United States"), city(9, "東京", "Japan"),
    city(10, "London", "United Kingdom"), city(11, "Sydney", "Australia"), city(12, "Sydney", "Canada"),
    city(13, "Vienna", "Austria"), city(14, "New York", "United States"), city(15, "York", "United Kingdom"),
    city(16, "Salem", "United States"), city(17, "Oslo", "Norway"), city(18, "Lima", "Peru"),
  ]

  func home() throws -> TempHome {
    let h = TempHome()
    try publish(Self.extra, in: h)
    return h
  }

  @Test(
    arguments: [
      ("ndj", "N'Djamena"), ("ndjamena", "N'Djamena"), ("n’dja", "N'Djamena"), ("djamena", "N'Djamena"),
      ("winston salem", "Winston-Salem"), ("winstonsalem", "Winston-Salem"), ("n djamena", "N'Djamena"), ("n dja", "N'Djamena"),
      ("saint etienne", "Saint-Étienne"),
      ("saint-etienne", "Saint-Étienne"), ("st louis", "St. Louis"), ("st. louis", "St. Louis"), ("aquila", "L’Aquila"),
      ("laquila", "L’Aquila"), ("l'aquila", "L’Aquila"), ("hawaii", "Hawaiʻi Kai"), ("salem", "Salem"),
    ] as [(String, String?)])
  func punctuationDoesNotMatter(_ query: String, _ expected: String?) throws {
    let h = try home()
    let r = try h.run(["search", query, "--json"])
    let names = ((try? r.json())?["items"] as? [[String: Any]])?.compactMap { $0["city"] as? String } ?? []
    if let expected {
      #expect(names.contains(expected), "search \(query): \(names) \(r)")
    } else {
      #expect(!names.contains("Winston-Salem"), "search \(query): \(names)")
    }
  }

  @Test func showFavAndForecastMatchTheSameWay() throws {
    let h = try home()
    for q in ["ndjamena", "winston salem", "saint etienne", "st louis", "laquila"] {
      let r = try h.run(["show", q, "--json"])
      #expect(r.status == 0, "show \(q): \(r)")
    }
    #expect(try h.wx("fav", "add", "ndjamena").status == 0)
    #expect(try h.wx("forecast", "winston salem").status == 0)
    let favs = try h.wx("fav", "--json").json()["items"] as? [[String: Any]]
    #expect(favs?.first?["city"] as? String == "N'Djamena")
    #expect(try h.wx("fav", "remove", "n djamena").status == 0, "an apostrophe typed as a space")
    #expect(try h.wx("fav", "remove", "ndjamena").status == 66, "removed once")
  }

  @Test(arguments: [
    ("Paris, US", 8), ("Paris, usa", 8), ("Paris, United States", 8), ("Paris, FR", 7), ("Paris, fra", 7),
    ("Paris, France", 7), ("Paris, Fr", 7), ("東京, JP", 9), ("東京, jpn", 9), ("London, UK", 10), ("London, GB", 10),
    ("London, gbr", 10), ("Sydney, AU", 11), ("Sydney, Aus", 11), ("Sydney, CA", 12), ("Sydney, Can", 12),
  ])
  func countryCodesAndShortNames(_ query: String, _ id: Int) throws {
    let r = try home().run(["show", query, "--json"])
    #expect(r.status == 0, "\(query): \(r)")
    #expect((try? r.json())?["id"] as? Int == id, "\(query): \(r.stdout)")
  }

  @Test func aCountryThatFitsNoneSaysSo() throws {
    let r = try home().run(["show", "Paris, DE"])
    #expect(r.status == 66, "\(r)")
    #expect(r.stderr.contains("Paris, France") && r.stderr.contains("Paris, United States"), "\(r.stderr)")
  }

  @Test func unquotedWordsAreOneName() throws {
    let h = try home()
    let show = try h.run(["show", "New", "York", "--json"])
    #expect(show.status == 0 && (try? show.json())?["id"] as? Int == 14, "\(show)")
    #expect(try h.wx("forecast", "New", "York").status == 0)
    #expect(try h.wx("show", "Paris,", "US", "--json").status == 0)
    let add = try h.wx("fav", "add", "New", "York")
    #expect(add.status == 0 && add.stdout == "added New York, United States\n", "\(add)")
    var favs = try h.wx("fav", "--json").json()["items"] as? [[String: Any]] ?? []
    #expect(favs.map { $0["city"] as? String } == ["New York"], "\(favs)")
    let two = try h.wx("fav", "add", "Oslo", "Lima")
    #expect(two.status == 0 && two.stdout.contains("added Oslo") && two.stdout.contains("added Lima"), "\(two)")
    #expect(try h.wx("fav", "remove", "New", "York").status == 0)
    favs = try h.wx("fav", "--json").json()["items"] as? [[String: Any]] ?? []
    #expect(favs.count == 2, "\(favs)")
  }
}

@Suite struct SmallThingsTests {
  /// A 100 KiB WX_HOME (near the 128 KiB an environment string may hold) is cut in messages,
  /// keeping its ends (it names a file under a file).
  @Test func aHugeStateFolderIsNotEchoedWhole() throws {
    let home = TempHome()
    try Data("x".utf8).write(to: URL(fileURLWithPath: home.path + "/file"))
    let huge = home.path + "/file/" + String(repeating: "b", count: 100 * 1024)
    for args in [["list"], ["fav", "add", "Oslo"], ["doctor"]] {
      let r = try home.run(args, env: ["WX_HOME": huge])
      #expect(r.status == 74 || r.status == 78, "\(args) \(r.status)")
      #expect(r.stdout.utf8.count + r.stderr.utf8.count < 2_000, "\(args): \(r.stderr.utf8.count) bytes")
      #expect((r.stderr + r.stdout).contains(home.path + "/file/bbb"), "\(args): the start is kept")
    }
  }

  /// Seconds are plain decimals: `0x10`, `1e1`, `inf` and ` 5` are refused (78), not read.
  @Test(arguments: ["0x10", "1e1", "inf", " 5", "5 ", "1.2.3", "", "-1"])
  func secondsArePlainDecimals(_ value: String) throws {
    let home = TempHome()
    let r = try home.wx("sync", "--url", "http://127.0.0.1:9/", env: ["WX_HTTP_TIMEOUT": value.isEmpty ? "." : value])
    #expect(r.status == 78 && r.stderr.contains("WX_HTTP_TIMEOUT"), "\(value) \(r)")
  }

  /// Every page arithmetic is checked: a page however large is past the end (64), never a
  /// trap (SIGILL, 132), whether or not the query matches.
  @Test(arguments: [
    (["search", "par", "--page", "9223372036854775807"], 64),
    (["search", "par", "--page", "461168601842738790", "--per-page", "20"], 64),
    (["search", "zzzq", "--page", "9223372036854775807"], 64), (["search", "zzzq", "--page", "2"], 1),
    (["list", "--page", "9223372036854775807", "--per-page", "1000"], 64),
    (["hottest", "--page", "9223372036854775807", "--per-page", "1000"], 64), (["search", "par", "--page", "2"], 64),
    (["search", "par", "--page", "9223372036854775807", "--json"], 64),
  ])
  func hugePagesArePastTheEndOf(_ args: [String], _ status: Int) throws {
    let home = TempHome()
    let run = try home.run(args)
    #expect(!run.signalled && run.status == Int32(status), "\(args) \(run)")
    if status == 64 { #expect(run.stderr.contains("is past the end"), "\(run)") }
  }

  @Test func negativePagesAreBadPagesNotMissingValues() throws {
    let home = TempHome()
    for args in [
      ["list", "--page", "-1"], ["search", "a", "--page", "-3"], ["hottest", "--per-page", "-1"], ["top", "--count", "-2"],
    ] {
      let r = try home.run(args)
      #expect(r.status == 64, "\(args) \(r)")
      #expect(!r.stderr.contains("Missing value"), "\(args) \(r.stderr)")
    }
  }

  @Test func searchNeedsALetterOrDigit() throws {
    let home = TempHome()
    for q in ["", ".", "-", "'", "  ", "?!"] {
      let r = try home.run(["search", q])
      #expect(r.status == 64, "search \(q.debugDescription): \(r)")
    }
    let none = try home.wx("search", "qqqq")
    #expect(none.status == 1)
    #expect(none.stderr.contains("no city name or word in it starts with \"qqqq\""), "\(none.stderr)")
  }

  /// A 120 KB argument is cut in every message that echoes it, the argument parser's too
  /// (only city and search words were cut before).
  @Test func aHugeArgumentIsNeverEchoedWhole() throws {
    let home = TempHome()
    let huge = String(repeating: "a", count: 120_000)  // one argument may hold at most 128 KiB
    for args in [
      ["list", "--page", huge], [huge], ["list", "--unit", huge], ["list", "--" + huge], ["help", huge],
      ["show", huge], ["search", huge + "?"], ["fav", "add", huge], ["list", "--sort", huge], ["aqi", "show", huge],
    ] {
      let r = try home.run(args)
      #expect(r.status != 0 && r.stderr.utf8.count < 400, "\(args.map { $0.prefix(12) }): \(r.stderr.utf8.count) bytes")
      let lines = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("wx: showing sample data") }
      #expect(lines.count == 1 && r.stdout.utf8.count < 400, "\(args.map { $0.prefix(12) }): \(lines.map { $0.prefix(80) })")
    }
  }

  @Test func helpForAnUnknownCommandIsAUsageError() throws {
    let r = try TempHome().wx("help", "bogus")
    #expect(r.status == 64 && r.stderr.contains("bogus"), "\(r)")
    #expect(try TempHome().wx("help", "list").status == 0)
  }

  @Test func hottestWithNothingDrySaysSo() throws {
    let home = TempHome()
    try publish([city(1, "Wetville", "Norway", "Heavy rain"), city(2, "Dampton", "Norway", "Showers")], in: home)
    let r = try home.wx("hottest")
    #expect(r.status == 0, "\(r)")
    #expect(r.stdout.contains("No rain-free cities"), "\(r.stdout)")
    #expect(try home.wx("hottest", "--json").json()["total"] as? Int == 0)
  }
}

@Suite struct ReadOnlyFolderTests {
  /// An empty state folder that cannot be written (immutable: even root cannot write to it)
  /// still answers from the bundled sample, with one warning, and leaves nothing behind.
  @Test func anEmptyReadOnlyFolderShowsTheSample() throws {
    let home = TempHome()
    let chattr = try runProcess("/usr/bin/chattr", ["+i", home.path], environment: ["PATH": "/usr/bin:/bin"])
    try #require(chattr.status == 0, "chattr +i is needed for this test: \(chattr)")
    defer { _ = try? runProcess("/usr/bin/chattr", ["-i", home.path], environment: ["PATH": "/usr/bin:/bin"]) }
    let before = Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? [])
    let r = try home.wx("top")
    #expect(r.status == 0, "\(r)")
    #expect(r.stdout.contains("New York"), "\(r.stdout)")
    #expect(r.stderr.components(separatedBy: "warning").count == 2, "one warning: \(r.stderr)")
    let after = Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? [])
    #expect(after.subtracting(before).filter { $0.hasPrefix("wx-sample-") }.isEmpty, "the temporary copy is gone")
    #expect(try home.wx("show", "Oslo").status == 0)
  }
}

@Suite struct SyncProgressTests {
  /// On a terminal, sync's progress line clears itself with a real `ESC [ K` (wx's own
  /// sequence), not an escaped `\x1b[K` printed as text; in a pipe there is no progress line.
  @Test func progressUsesRealControlsOnATerminalOnly() throws {
    let home = TempHome()
    let api = try FakeAPI()
    let tty = try runProcess(
      "/usr/bin/script", ["-qec", "'\(wxBinary)' sync --url \(api.url) --per-page 10", "/dev/null"],
      environment: ["WX_HOME": home.path, "LANG": "C.UTF-8", "TERM": "xterm", "PATH": "/usr/bin:/bin", "HOME": home.path])
    #expect(tty.status == 0, "\(tty)")
    #expect(tty.stdout.contains("\r\u{1B}[Kwx: page"), "\(tty.stdout.debugDescription)")
    #expect(!tty.stdout.contains("\\x1b") && !tty.stdout.contains("\\x0d"), "\(tty.stdout.debugDescription)")
    let pipe = try home.wx("sync", "--url", api.url, "--per-page", "10")
    #expect(pipe.status == 0 && !pipe.stderr.contains("page") && !pipe.stderr.contains("\u{1B}"), "\(pipe)")
  }
}

/// Output that cannot be written is an error (74), not an empty success: a script must not
/// take an empty file for the answer. A reader that stops early (`| head`) is not one.
@Suite struct OutputFailureTests {
  /// Runs `wx args` in `home` through sh with `redirect` applied to its standard output.
  static func run(_ home: TempHome, _ args: [String], redirect: String) throws -> Run {
    try runProcess(
      "/bin/sh", ["-c", "\"$0\" \"$@\" \(redirect)", wxBinary] + args,
      environment: [
        "PATH": "/usr/bin:/bin", "HOME": home.path, "WX_HOME": home.path, "LANG": "C.UTF-8",
        "WX_DATA_DIR": repositoryRoot + "/Data", "TZ": "UTC", "WX_ATLAS": "off",
      ])
  }

  @Test(arguments: [
    ["list"], ["show", "Oslo"], ["search", "par"], ["top"], ["status", "--json"], ["doctor"], ["unit"], ["fav", "list"],
    ["--help"], ["--version"], ["completion", "bash"], ["list", "--json"],
  ])
  func aFullDiskIsAnIOError(_ args: [String]) throws {
    let home = TempHome()
    let run = try Self.run(home, args, redirect: ">/dev/full")
    #expect(run.status == 74, "\(args) \(run)")
    #expect(run.stderr.hasSuffix("wx: cannot write the output: No space left on device (ENOSPC)\n"), "\(args) \(run)")
  }

  /// A closed standard output is reported; the stores wx opens never land on descriptor 1.
  @Test func aClosedStandardOutputIsReportedAndNoStoreTakesItsPlace() throws {
    let home = TempHome()
    let run = try Self.run(home, ["fav", "add", "Oslo"], redirect: ">&-")
    #expect(run.status == 74, "\(run)")
    #expect(run.stderr.contains("wx: cannot write the output: standard output is closed"), "\(run)")
    #expect(try home.wx("fav", "list").stdout.contains("Oslo"))
    let list = try Self.run(home, ["list"], redirect: ">&-")
    #expect(list.status == 74 && list.stderr.split(separator: "\n").count == 1, "\(list)")
  }

  /// With SIGPIPE ignored (as some shells and supervisors leave it), a reader that has gone
  /// gives EPIPE: wx stops quietly, as it does when SIGPIPE ends it.
  @Test func aReaderThatIsGoneIsNoError() throws {
    let home = TempHome()
    #expect(try home.wx("list").status == 0)
    let run = try runProcess(
      "/bin/sh", ["-c", "trap '' PIPE; { sleep 0.3; \"$0\" list; echo \"status $?\" >&2; } | true", wxBinary],
      environment: [
        "PATH": "/usr/bin:/bin", "HOME": home.path, "WX_HOME": home.path, "LANG": "C.UTF-8",
        "WX_DATA_DIR": repositoryRoot + "/Data", "TZ": "UTC", "WX_ATLAS": "off",
      ])
    #expect(run.stderr == "status 0\n", "\(run)")
  }

  /// And without the trap, as shells leave it: `wx list | head -1` exits 0, not 141 (SIGPIPE).
  @Test(arguments: [["list"], ["list", "--json"], ["search", "a"], ["completion", "bash"]])
  func aReaderThatStopsIsNoErrorWithSIGPIPEAsShellsLeaveIt(_ args: [String]) throws {
    let home = TempHome()
    #expect(try home.wx("list").status == 0)
    let run = try runProcess(
      "/bin/sh", ["-c", "{ sleep 0.3; \"$0\" \"$@\"; echo \"status $?\" >&2; } | true", wxBinary] + args,
      environment: [
        "PATH": "/usr/bin:/bin", "HOME": home.path, "WX_HOME": home.path, "LANG": "C.UTF-8",
        "WX_DATA_DIR": repositoryRoot + "/Data", "TZ": "UTC",
      ])
    #expect(run.stderr == "status 0\n", "\(args) \(run)")
  }
}

/// Spaces and punctuation alone name no city: every command that takes a name says so the
/// same way (64), rather than looking it up and finding nothing (66).
@Suite struct EmptyNameTests {
  @Test(arguments: ["", ",", " - ", "'", "\u{200B}"])
  func aNameWithoutALetterOrDigitIsAUsageError(_ name: String) throws {
    let home = TempHome()
    for (command, what) in [
      (["show"], "CITY"), (["forecast"], "CITY"), (["fav", "add"], "CITY"), (["fav", "remove"], "CITY"), (["search"], "PREFIX"),
    ] {
      let run = try home.run(command + [name])
      #expect(run.status == 64, "\(command) \(run)")
      #expect(run.stderr.hasPrefix("wx: \(what) must contain at least one letter or digit"), "\(command) \(run)")
    }
    #expect(try home.wx("show", "Oslo").status == 0)
    #expect(try home.wx("show").stdout.contains("Oslo"))
  }
}

/// A service account's home (`/nonexistent`) is not created to hold wx's folder.
@Suite struct MissingHomeTests {
  @Test func aHomeThatDoesNotExistIsAConfigurationError() throws {
    let home = TempHome()
    let missing = home.path + "/nonexistent"
    for args in [["list"], ["status"], ["fav", "add", "Oslo"]] {
      let run = try home.run(args, env: ["WX_HOME": "", "XDG_DATA_HOME": "", "HOME": missing])
      #expect(run.status == 78, "\(args) \(run)")
      #expect(
        run.stderr == "wx: the home folder \"\(missing)\" does not exist: set WX_HOME to a folder for wx's files\n", "\(run)")
    }
    #expect(!FileManager.default.fileExists(atPath: missing))
    // An existing home is used as before.
    let ok = try home.run(["fav", "add", "Oslo"], env: ["WX_HOME": "", "XDG_DATA_HOME": ""])
    #expect(ok.status == 0, "\(ok)")
    #expect(FileManager.default.fileExists(atPath: home.path + "/.local/share/wx/favourites.gdbm"))
  }
}
