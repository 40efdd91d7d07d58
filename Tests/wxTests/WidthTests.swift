import Foundation
import Testing
import WXCore

@testable import wx

/// Text fits the terminal's width, never wraps, and JSON is never cut. The command lines the
/// fast path takes run in-process (``runInProcess(_:in:width:unicode:)``) at each width;
/// `status` and `aqi list` (contexts made from the environment) and a real terminal's width
/// (`script`), `COLUMNS` and a C locale (read from the environment) run as the binary.
@Suite struct WidthTests {
  static let commands: [[String]] = [
    ["list"], ["list", "--per-page", "60"], ["show", "Ho Chi Minh City"], ["forecast", "São Tomé"], ["top", "--count", "60"],
    ["hottest"], ["search", "s"], ["fav"], ["show", "Paris"], ["list", "--ascii"], ["search", "sa", "--ascii"],
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
    for columns in [40, 52, 80] {
      let r = try runInProcess(args, in: home, width: columns)
      #expect(widest(r.stdout) <= columns, "\(args) at \(columns): \(r.stdout)")
    }
  }

  /// `COLUMNS` is the width, read from the environment by the binary.
  @Test func statusFitsTheColumnsTheEnvironmentSays() throws {
    let home = TempHome()
    try home.wx("fav", "add", "Ho Chi Minh City", "São Tomé", "Winston-Salem")
    for columns in ["40", "52", "80"] {
      let r = try home.run(["status"], env: ["COLUMNS": columns])
      #expect(widest(r.stdout) <= Int(columns)!, "status at \(columns): \(r.stdout)")
      // Broken onto more lines, never cut: the paths to copy and the atlas's licence credit
      // lost their ends to "…" at 40 columns.
      let lines = r.stdout.split(separator: "\n").map { $0.drop { $0 == " " } }
      let joined = lines.joined()
      #expect(!r.stdout.contains("…") && lines.joined(separator: " ").contains("CC BY 4.0)"), "\(columns): \(r.stdout)")
      #expect(joined.contains(home.path + "/catalogue.gdbm") && joined.contains(home.path + "/prefs.gdbm"), "\(r.stdout)")
    }
    let list = try home.run(["list"], env: ["COLUMNS": "40"])
    let piped = try home.wx("list")
    // Honoured: the columns that do not fit are dropped.
    #expect(list.status == 0 && widest(list.stdout) <= 40 && !list.stdout.contains("Humidity"), "\(list.stdout)")
    #expect(piped.stdout.contains("Humidity"), "\(piped.stdout)")
  }

  /// A sentence for people is broken between words, not cut (`wx fav` with no favourites
  /// lost the end of its command at 40 columns), and the command in it stays on one line.
  @Test func aHintIsBrokenBetweenWordsNotCut() throws {
    let home = TempHome()
    let narrow = try home.run(["fav"], env: ["COLUMNS": "40"])
    #expect(narrow.stdout == "No favourites yet. Add one with\n`wx fav add CITY`.\n", "\(narrow)")
    #expect(try home.run(["fav"], env: ["COLUMNS": "80"]).stdout == "No favourites yet. Add one with `wx fav add CITY`.\n")
  }

  /// JSON is data: a narrow terminal never cuts it (`wx status --json` was cut to the width
  /// with "…" and stopped being JSON).
  @Test(arguments: [
    ["list", "--json"], ["show", "Paris, FR", "--json"], ["search", "sa", "--json"], ["top", "--json"], ["hottest", "--json"],
    ["forecast", "Paris, FR", "--json"], ["fav", "list", "--json"],
  ])
  func jsonIsNeverCutToTheWidth(_ args: [String]) throws {
    let home = TempHome()
    try home.wx("fav", "add", "Ho Chi Minh City")
    let piped = try runInProcess(args, in: home)
    let narrow = try runInProcess(args, in: home, width: 40)
    #expect(narrow.status == 0 && !narrow.stdout.contains("…"), "\(args): \(narrow.stdout)")
    #expect((try? narrow.json()) != nil, "\(args) at 40 columns is not JSON: \(narrow.stdout)")
    #expect(maskingAges(narrow.stdout) == maskingAges(piped.stdout), "\(args)")
  }

  @Test func statusJSONIsNeverCutToTheWidth() throws {
    let home = TempHome()
    try home.wx("fav", "add", "Ho Chi Minh City")
    let piped = try home.run(["status", "--json"])
    let narrow = try home.run(["status", "--json"], env: ["COLUMNS": "40"])
    #expect(narrow.status == 0 && !narrow.stdout.contains("…"), "\(narrow.stdout)")
    #expect((try? narrow.json()) != nil, "status --json at 40 columns is not JSON: \(narrow.stdout)")
    #expect(maskingAges(narrow.stdout) == maskingAges(piped.stdout))
  }

  /// Without Unicode ("9 C" for "9 °C"), every row of a table is as wide as its header: the
  /// cells were measured as printed (every column right of Temp sat one cell left before).
  @Test(arguments: [["list", "--ascii"], ["hottest", "--ascii"], ["search", "sa", "--ascii"], ["list"], ["top", "--ascii"]])
  func asciiTablesStayAligned(_ args: [String]) throws {
    let home = TempHome()
    try home.wx("list")
    let r = try runInProcess(args, in: home, unicode: false)
    let table = r.stdout.split(separator: "\n").filter {
      !$0.isEmpty && !$0.contains("page") && !$0.contains("cities") && !$0.contains("synced") && !$0.hasPrefix("sample data")
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
    try home.wx("list")
    let wide = try runInProcess(["list"], in: home)
    #expect(wide.stdout.contains("Humidity") && wide.stdout.contains("Wind"), "a pipe keeps full rows")
    let r = try runInProcess(["list"], in: home, width: 40)
    let header = r.stdout.split(separator: "\n").first.map(String.init) ?? ""
    #expect(header.hasPrefix("City"), "\(header)")
    #expect(header.contains("Temp") && !header.contains("Humidity") && !header.contains("Wind"), "\(header)")
    #expect(r.stdout.contains("…"), "long names are cut with an ellipsis")
    let mid = try runInProcess(["list"], in: home, width: 64)
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
    #expect(try runInProcess(["list"], in: home).stdout.contains(long))
    let cut = try runInProcess(["list"], in: home, width: 60)
    #expect(!cut.stdout.contains(long) && widest(cut.stdout) <= 60, "\(cut.stdout)")
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

  /// The helpers' new-user pass: a footer too wide for the terminal lost its age and its
  /// sample mark first (`synced 2026-…` at 40 columns). Now the sync's date goes, then the
  /// sample's words are shortened, then the page and the count: the age and the mark stay.
  @Test(arguments: [
    (["list"], 20), (["list"], 30), (["list"], 40), (["list"], 60), (["top"], 40), (["fav"], 40), (["fav"], 20),
    (["show", "Oslo"], 40),
  ])
  func footersKeepTheAgeAndTheSampleMark(_ args: [String], _ width: Int) throws {
    let home = TempHome()
    #expect(try home.wx("fav", "add", "Oslo").status == 0)
    // The bundled sample alone was never synced: its footer says what it is, with no age.
    let sample = try home.run(args, env: ["COLUMNS": String(width)])
    let mark = try #require(sample.stdout.split(separator: "\n").last.map(String.init))
    #expect(mark.contains("sample") && !mark.contains("synced") && !mark.contains("ago"), "\(args): \(sample.stdout)")
    // Oslo synced from Open-Meteo, the 61 other cities still the sample's, two days later.
    let api = try OpenMeteoAPI()
    #expect(try OpenMeteoTests.sync(home, api, "--favourites").status == 0)
    let later = ["WX_NOW": String(Int(TempHome.sampleNow)! + 2 * 86_400 + 3600), "COLUMNS": String(width)]
    let r = try home.run(args, env: later)
    let footer = try #require(r.stdout.split(separator: "\n").last.map(String.init))
    #expect(r.status == 0 && footer.contains("2d ago") && footer.contains("sample"), "\(args) at \(width): \(r.stdout)")
    #expect(widest(r.stdout) <= width && !footer.contains("…"), "\(args) at \(width): \(r.stdout)")
    // Nor does `wx status` give the sample's list an age (it read "list from sample, <the
    // time the state folder was made> (just now)").
    let status = try home.run(["status"], env: ["WX_NOW": later["WX_NOW"]!])
    #expect(status.stdout.contains("list      the bundled sample's (never synced)"), "\(status)")
    // A pipe gets the footer whole.
    let whole = try home.run(args, env: ["WX_NOW": later["WX_NOW"]!])
    #expect(whole.stdout.contains("61 of 62 cities sample data") && whole.stdout.contains("synced 20"), "\(whole)")
  }

  @Test func asciiSpellsTheTypography() throws {
    let home = TempHome()
    try home.wx("list")
    for args in [["show", "Paris, France", "--ascii"], ["list", "--ascii"], ["forecast", "Lima", "--ascii"]] {
      let r = try runInProcess(args, in: home, width: 40)
      #expect(r.status == 0, "\(r)")
      for ch in ["°", "·", "…", "–", "’"] { #expect(!r.stdout.contains(ch), "\(args) prints \(ch): \(r.stdout)") }
    }
    // The locale is read from the environment: the binary.
    let c = try home.run(["show", "Paris, France"], env: ["LANG": "C", "LC_ALL": "C"])
    #expect(c.status == 0 && !c.stdout.contains("°"), "a C locale gets ASCII too: \(c)")
  }
}
