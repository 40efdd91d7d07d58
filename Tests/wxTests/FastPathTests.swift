import Testing

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
  ]

  @Test(arguments: cases)
  func sameOutputWithAndWithoutTheFastPath(_ args: [String]) throws {
    let home = TempHome()
    try home.wx("list")  // seed, so both runs start from the same store
    try home.wx("show", "Oslo")  // a last city, so `show` alone works
    let fast = try home.run(args)
    let slow = try home.run(args, env: ["WX_NO_FASTPATH": "1"])
    #expect(fast.status == slow.status, "\(args)")
    #expect(fast.stdout == slow.stdout, "\(args)")
    #expect(fast.stderr == slow.stderr, "\(args)")
  }
}
