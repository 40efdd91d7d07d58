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
}
