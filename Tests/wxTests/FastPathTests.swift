import Testing

@testable import wx

/// The fast path (FastPath.swift) and ArgumentParser must behave identically.
@Suite struct FastPathTests {
  static let cases: [[String]] = [
    ["list"], ["list", "--page", "2"], ["list", "--page=3", "--per-page", "7", "--json"], ["list", "--sort", "name"],
    ["list", "--sort", "temperature", "--unit", "f"], ["list", "--page", "99"], ["list", "--page", "0"],
    ["list", "--per-page", "5000"], ["list", "--sort", "bogus"], ["list", "--color", "always"], ["list", "--help"],
    ["show", "London"], ["show", "paris"], ["show", "Nowhere"], ["show", "London", "--json", "--unit", "f"],
    ["show", "--ascii", "Oslo"], ["show", "a", "b"], ["show", "-h"], ["show"],
    ["search", "par"], ["search", "s", "--page", "2", "--per-page", "3", "--json"], ["search", "zzzz"],
    ["search", "zzzz", "--json"], ["search", "--", "-x"], ["search", "!!"], ["search", "par", "--page", "40"],
    ["search"], ["list", "extra"], ["list", "-p", "2"],
    ["top"], ["top", "--count", "3", "--json"], ["top", "--count=1000", "--unit", "f"], ["top", "--count", "0"],
    ["top", "x"], ["top", "--hottest"],
    ["forecast"], ["forecast", "London"], ["forecast", "London", "--hottest", "--json"], ["forecast", "--hottest", "paris"],
    ["forecast", "Nowhere"], ["forecast", "London", "--count", "2"], ["forecast", "--hottest", "--hottest"],
    ["hottest"], ["hottest", "--page", "2", "--per-page", "5"], ["hottest", "--page", "99"],
    ["hottest", "--json", "--color", "always"], ["hottest", "London"],
    ["fav"], ["fav", "list"], ["fav", "--sort", "name"], ["fav", "list", "--sort", "temperature", "--json"],
    ["fav", "list", "--sort", "bogus"], ["fav", "Paris"], ["fav", "list", "extra"], ["fav", "--help"], ["fav", "list", "--json", "--unit", "f"],
  ]

  @Test(arguments: cases)
  func sameOutputWithAndWithoutTheFastPath(_ args: [String]) throws {
    let home = TempHome()
    try home.wx("list")  // seed, so both runs start from the same store
    try home.wx("show", "Oslo")  // a last city, so `show` alone works
    try home.wx("fav", "add", "Oslo", "London", "Mumbai")  // favourites to list
    let fast = try home.run(args)
    let slow = try home.run(args, env: ["WX_NO_FASTPATH": "1"])
    #expect(fast.status == slow.status, "\(args)")
    #expect(maskingAges(fast.stdout) == maskingAges(slow.stdout), "\(args)")
    #expect(maskingAges(fast.stderr) == maskingAges(slow.stderr), "\(args)")
  }

  /// The fast path really takes the plain forms (else the test above would pass with it off),
  /// and leaves everything else to ArgumentParser.
  @Test func takesThePlainFormsAndNothingElse() throws {
    let taken: [([String], String)] = [
      (["list", "--page=3", "--per-page", "7", "--json"], "list"), (["show"], "show"), (["show", "Oslo", "--ascii"], "show"), (["show", "New", "York"], "show"), (["search", "winston", "sa"], "search"),
      (["search", "par", "--unit", "f"], "search"), (["forecast", "London", "--hottest"], "forecast"), (["top"], "top"),
      (["top", "--count", "1000"], "top"), (["hottest", "--page", "2"], "hottest"), (["fav"], "favourites"),
      (["fav", "list", "--sort", "name", "--json"], "favourites"),
    ]
    for (args, name) in taken {
      let invocation = try #require(FastPath.parse(args), "\(args)")
      #expect(String(describing: invocation).hasPrefix(name + "("), "\(args): \(invocation)")
    }
    let left: [[String]] = [
      ["list", "--help"], ["list", "--per-page", "5000"], ["list", "--sort", "bogus"], ["list", "-p", "2"], ["search", "."], ["search", "-", "'"],
      ["search"], ["search", ""], ["forecast", "--hottest", "--hottest"], ["top", "--count", "0"], ["top", "--hottest"],
      ["hottest", "London"], ["fav", "add", "Oslo"], ["fav", "remove", "Oslo"], ["fav", "Paris"], ["fav", "--help"],
      ["sync"], ["status"], ["unit", "f"], ["aqi"], ["--version"], [],
    ]
    for args in left { #expect(FastPath.parse(args) == nil, "\(args)") }
  }
}
