import Foundation
import Testing

/// What a new user hit trying the full forecast, wind units and names together (round 4),
/// each turned into a test.
@Suite struct NewUserRound4Tests {
  /// A status-bar format may begin with a dash (`--format "- %t"`), as with `--format=`;
  /// a trailing lone `%` is named as such, not quoted as if typed.
  @Test func aFormatMayBeginWithADash() throws {
    let home = TempHome()
    for args in [
      ["show", "London", "--format", "- %t"], ["show", "--format", "- %t", "London"], ["show", "London", "--format=- %t"],
    ] {
      let r = try home.run(args)
      #expect(r.status == 0 && r.stdout == "- 18 °C\n", "\(args): \(r)")
    }
    let lone = try home.wx("show", "London", "--format", "%t %")
    #expect(lone.status == 64 && lone.stderr.contains("--format ends with a lone %: write %% for a percent sign"), "\(lone)")
    #expect(try home.wx("show", "London", "--format").status == 64)  // a missing value is still missing
  }

  /// An unknown wind speed and direction read "wind –", not "wind – –".
  @Test func anUnknownWindIsOneDash() throws {
    let (home, _, _) = try FullForecastTests.synced(mode: "nulls")
    let r = try home.wx("show", "Berlin", env: FullForecastTests.at(FullForecastTests.now))
    #expect(r.status == 0 && r.stdout.contains("humidity – · wind –\n"), "\(r)")
    #expect(!r.stdout.contains("– –"), "\(r)")
  }

  /// `wx status` names the wind unit with the temperature unit: the saved one, else the one
  /// the temperature unit implies.
  @Test func statusNamesTheWindUnit() throws {
    let home = TempHome()
    #expect(try home.wx("status").stdout.contains("\nwind      kmh\n"))
    #expect(try home.wx("status", "--json").json()["wind_unit"] as? String == "kmh")
    try #require(try home.wx("unit", "wind", "knots").status == 0)
    #expect(try home.wx("status").stdout.contains("\nunit      celsius\nwind      knots\n"))
    #expect(try home.wx("status", "--json").json()["wind_unit"] as? String == "knots")
  }

  /// `wx unit` reads its words in any case, as it reads the units (`Knots`, `F`).
  @Test func unitWordsInAnyCase() throws {
    let home = TempHome()
    #expect(try home.wx("unit", "WIND", "Knots").stdout == "knots\n")
    #expect(try home.wx("unit", "Wind").stdout == "knots\n")
    #expect(try home.wx("unit", "wind", "AUTO").stdout == "kmh\n")
    #expect(try home.wx("unit").stdout == "celsius\n")  // auto saved no wind unit
    #expect(try home.wx("unit", "wind", "Auto").status == 0)
    #expect(try home.wx("unit", "AUTO").status == 64)
  }

  /// `--hours N` with fewer hours stored ahead says the list ends there, not only "next 2
  /// hours"; a list cut by N says nothing.
  @Test func fewerHoursThanAskedAreSaidToEnd() throws {
    let (home, _, _) = try FullForecastTests.synced()
    let late = FullForecastTests.at(FullForecastTests.now + 46 * 3600)
    let left = try home.wx("forecast", "Berlin", "--hourly", "--hours", "5", "--json", env: late).json()
    let count = try #require((left["hourly"] as? [Any])?.count)
    try #require(count >= 1 && count < 5, "\(left)")
    let r = try home.wx("forecast", "Berlin", "--hourly", "--hours", "5", env: late)
    #expect(r.status == 0 && r.stdout.contains("next \(count) hour"), "\(r)")
    #expect(r.stdout.contains("The stored hours end here: sync again for the next ones.\n"), "\(r)")
    let cut = try home.wx("forecast", "Berlin", "--hourly", "--hours", String(count), env: late)
    #expect(cut.status == 0 && !cut.stdout.contains("stored hours end"), "\(cut)")
    let early = try home.wx("forecast", "Berlin", "--hourly", env: FullForecastTests.at(FullForecastTests.now))
    #expect(!early.stdout.contains("stored hours end"), "\(early)")
  }
}
