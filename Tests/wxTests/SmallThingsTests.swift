import Foundation
import Testing
import WXCore

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
    (["hottest", "--page", "9223372036854775807", "--per-page", "1000"], 64), (["search", "par", "--page", "500"], 64),
    (["search", "par", "--page", "9223372036854775807", "--json"], 64),
    // Past 64 bits: as wx says it, not in ArgumentParser's words (the helpers' pass).
    (["list", "--page", "99999999999999999999"], 64),
  ])
  func hugePagesArePastTheEndOf(_ args: [String], _ status: Int) throws {
    let home = TempHome()
    let run = try home.run(args)
    #expect(!run.signalled && run.status == Int32(status), "\(args) \(run)")
    if status == 64 { #expect(run.stderr.contains("is past the end"), "\(run)") }
  }

  /// A number too large for any list is echoed cut, as every value is: 100,000 nines made an
  /// error line of 100 KB (a helper's pass).
  @Test func aHugeNumberIsEchoedCut() throws {
    let home = TempHome()
    let nines = String(repeating: "9", count: 100_000)
    for args in [["search", "par", "--page", nines], ["list", "--page", nines], ["top", "--count", nines]] {
      let run = try home.run(args)
      #expect(run.status == 64 && run.stderr.count < 200 && run.stderr.contains("9…"), "\(args[0]): \(run.stderr.prefix(300))")
    }
  }

  /// A value ArgumentParser cannot read is said in wx's words, with the option's name.
  @Test func unreadableValuesAreSaidInWxsWords() throws {
    let home = TempHome()
    for (args, said) in [
      (["list", "--page", "abc"], "wx: --page takes a whole number: 'abc' is not one (see `wx list --help`)"),
      (["list", "--per-page", "1e9"], "wx: --per-page takes a whole number: '1e9' is not one (see `wx list --help`)"),
      (["list", "--unit", "kelvin"], "wx: --unit takes one of 'c', 'f', 'celsius' or 'fahrenheit': not 'kelvin'"),
      // Two choices are one or the other, not both (the helpers' pass: "'naqi' and 'us'").
      (["aqi", "show", "London", "--scale", "xx"], "wx: --scale takes one of 'naqi' or 'us': not 'xx'"),
      // A value with a leading dash: "Missing value for '--max-age <duration>'" said nothing of
      // it; a negative duration or count is refused as one, not with a hint to write
      // `--max-age=-3h`, which was then refused too (a helper's pass).
      (
        ["show", "Paris", "--format", "%t", "--max-age", "-3h"],
        "wx: --max-age takes a duration (90m, 3h, 2d), never a negative one: not '-3h' (see `wx show --help`)"
      ),
      (
        ["show", "Paris", "--format", "%t", "--max-age", "-x"],
        "wx: --max-age needs a value: '-x' reads as an option; write --max-age=-x (see `wx show --help`)"
      ),
      (["alerts", "--within", "-1h"], "wx: --within takes a duration (90m, 3h, 2d), never a negative one: not '-1h'"),
      (["show", "Paris", "--max-age"], "wx: --max-age needs a value: <duration> (see `wx show --help`)"),
    ] {
      let r = try home.run(args)
      #expect(r.status == 64 && r.stderr.hasPrefix(said) && !r.stderr.contains("invalid for"), "\(args) \(r)")
    }
  }

  /// Unquoted words that name no one place but several (`wx show paris london`) say so, exit
  /// 64: it was "no city or place named \"paris london\"; closest: Paris Léona" (a helper's
  /// pass). A comma left out is still offered as one place.
  @Test func wordsNamingSeveralPlacesSaySo() throws {
    let home = TempHome()
    for args in [["show", "paris", "london"], ["forecast", "paris", "berlin"]] {
      let r = try home.run(args)
      #expect(
        r.status == 64 && r.stderr.contains("names 2 places (Paris, ") && r.stderr.contains("): name one at a time"), "\(r)")
    }
    let france = try home.wx("show", "paris", "france")
    #expect(france.stderr.contains("closest: Paris, Île-de-France, France"), "\(france)")
    #expect(!france.stderr.contains("names 2 places"), "\(france)")
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
