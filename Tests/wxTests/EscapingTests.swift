import Foundation
import Testing
import WXCore

@testable import wx

/// No byte of untrusted text reaches a terminal unescaped. The command lines the fast path
/// takes run in-process (``runInProcess(_:in:width:unicode:)``: the views and the console that
/// writes them); the commands that make their context from the process's environment (`status`,
/// `doctor`, `fav add`, `fav remove`, `aqi`) run as the binary.
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

  /// Command lines the fast path takes, run in-process, without and with colour.
  static let rendered: [[String]] = [
    ["list"], ["list", "--sort", "name"], ["list", "--sort", "temperature", "--per-page", "50"], ["show", "900"],
    ["show", "Evil"], ["show", "Evil\u{1B}[2J\u{7}nothing"], ["forecast", "901"], ["forecast", "902", "--hottest"],
    ["search", "evil"], ["search", "bad\u{1B}]0;x\u{7}zzz"], ["top", "--count", "20"], ["hottest"], ["fav"],
    ["fav", "list", "--sort", "name"], ["show", "--ascii", "903"],
  ]

  @Test(arguments: rendered)
  func noControlByteReachesTheTerminal(_ args: [String]) throws {
    let home = try hostileHome()
    for colours in [false, true] {
      let r = try runInProcess(args + (colours ? ["--color", "always"] : []), in: home)
      #expect(unsafeBytes(r.stdout, colours: colours).isEmpty, "\(args) stdout: \(r.stdout.debugDescription)")
      #expect(unsafeBytes(r.stderr, colours: false).isEmpty, "\(args) stderr: \(r.stderr.debugDescription)")
      // Colour is the runner's alone: never painted unless asked for.
      if !colours { #expect(!r.stdout.contains("\u{1B}"), "\(args) stdout: \(r.stdout.debugDescription)") }
    }
  }

  /// The commands that take no colour option, run as the binary.
  @Test(arguments: [["fav", "remove", "Nowhere\u{1B}[2J"], ["status"], ["doctor"], ["fav", "add", "904"]])
  func noControlByteReachesTheTerminalFromTheOtherCommands(_ args: [String]) throws {
    let home = try hostileHome()
    let r = try home.run(args)
    #expect(!r.signalled, "\(args) \(r)")
    #expect(unsafeBytes(r.stdout, colours: false).isEmpty, "\(args) stdout: \(r.stdout.debugDescription)")
    #expect(unsafeBytes(r.stderr, colours: false).isEmpty, "\(args) stderr: \(r.stderr.debugDescription)")
  }

  /// JSON escapes controls, C1 and bidi characters as `\u` too: a person may read it.
  @Test func jsonCarriesNoRawControl() throws {
    let home = try hostileHome()
    for args in [
      ["list"], ["show", "900"], ["search", "evil"], ["top", "--count", "20"], ["fav"], ["forecast", "901"], ["hottest"],
    ] {
      let r = try runInProcess(args + ["--json"], in: home)
      #expect(r.status == 0, "\(args) \(r)")
      #expect(unsafeBytes(r.stdout, colours: false).isEmpty, "\(args) --json: \(r.stdout.debugDescription)")
    }
  }

  @Test func textShowsTheControlsAsEscapes() throws {
    let home = try hostileHome()
    let r = try runInProcess(["show", "901"], in: home)
    #expect(r.status == 0, "\(r)")
    #expect(r.stdout.contains("Evil\\x1b[2JCity1"), "\(r.stdout.debugDescription)")
    let e = try runInProcess(["show", "900", "--json"], in: home)
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

  /// An argument echoed back in a message is cut (`fav remove` runs as the binary).
  @Test func echoedArgumentsAreCut() throws {
    let home = TempHome()
    try home.wx("list")
    let long = String(repeating: "q", count: 100 * 1024)  // the kernel takes at most 128 KiB an argument
    for args in [["show", long], ["search", long], ["fav", "remove", long], ["forecast", long]] {
      let r = args[0] == "fav" ? try home.run(args) : try runInProcess(args, in: home)
      #expect(r.status != 0)
      #expect(r.stderr.utf8.count < 1000, "\(args.first!): \(r.stderr.utf8.count) bytes")
      #expect(r.stderr.contains("qqq…"), "\(r.stderr.prefix(200))")
    }
    // An invisible character pasted into a name is read past, and shown where the name is
    // echoed, not echoed as is (the note would read "Paris" is Paris).
    for (typed, shown) in [
      ("Par\u{200B}is", #"Par\u{200b}is"#), ("\u{FEFF}Paris", #"\u{feff}Paris"#), ("Par\u{2060}is", #"Par\u{2060}is"#),
    ] {
      let r = try home.run(["show", typed])
      #expect(r.status == 0 && r.stdout.contains("Paris, France") && !r.stderr.contains(typed), "\(r)")
      #expect(r.stderr.contains("\"\(shown)\" is Paris, Île-de-France"), "\(r)")
      // A value ArgumentParser refuses, echoed in wx's words, shows it too.
      let sort = try home.run(["list", "--sort", "name" + typed])
      #expect(sort.status == 64 && !sort.stderr.contains(typed) && sort.stderr.contains(#"\u{"#), "\(sort)")
      let missing = try home.run(["show", typed + "qq"])
      #expect(missing.status == 66 && missing.stderr.contains(shown + "qq") && !missing.stderr.contains(typed), "\(missing)")
    }
  }
}
