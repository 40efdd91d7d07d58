import Foundation
import Testing

/// Issue 31, the small honest things: a mistyped command says which one was meant; a scale
/// of whole numbers prints whole.
@Suite struct DailyUseTests {
  @Test func aMistypedCommandSuggestsTheClosestOne() throws {
    let home = TempHome()
    let cases: [(String, String)] = [("shw", "show"), ("lsit", "list"), ("serch", "search"), ("forcast", "forecast"), ("Show", "show")]
    for (typed, meant) in cases {
      let r = try home.wx(typed, "paris")
      #expect(r.status == 64 && r.stderr == "wx: no command named \"\(typed)\"; did you mean `wx \(meant)`? (see `wx --help`)\n", "\(r)")
    }
    let none = try home.wx("xyzzy")
    #expect(none.status == 64 && none.stderr == "wx: no command named \"xyzzy\" (see `wx --help`)\n", "\(none)")
    // An escape sequence typed as a command is never echoed raw.
    let hostile = try home.wx("\u{1B}]0;owned\u{7}")
    #expect(hostile.status == 64 && !hostile.stderr.contains("\u{1B}"), "\(hostile)")
    #expect(try home.wx("help").status == 0)
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
  }
}
