import Foundation
import Testing

/// The release link lays out the functions the read commands run, and the data they touch,
/// first and in the order of scripts/wx.link-order (written by scripts/link-order.sh;
/// Makefile, ORDER_FLAGS): spread over 12 MB of code they cost a page fault for each 64 KiB
/// window touched, and spread over 190 pages of data a fault or two for each page written.
/// Read from the binary's own symbols (`make test` leaves it unstripped); only on the release
/// binary, which the end-to-end suites run as `WX_TEST_BINARY`.
@Suite struct LinkOrderTests {
  static let release = !(ProcessInfo.processInfo.environment["WX_TEST_BINARY"] ?? "").isEmpty

  /// What a binutils tool prints of the binary (`tool` and its options before the binary).
  static func read(_ tool: [String]) throws -> String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let r = try runProcess("/usr/bin/env", tool + [wxBinary], environment: ["PATH": path])
    try #require(r.status == 0, "\(tool[0]): \(r.stderr)")
    return r.stdout
  }

  /// Each symbol of the binary: its address and nm's letter for its section.
  static func symbols() throws -> [String: (address: UInt64, kind: Character)] {
    var symbols: [String: (UInt64, Character)] = [:]
    for line in try read(["nm", "--defined-only"]).split(separator: "\n") {
      let part = line.split(separator: " ")
      if part.count == 3, let a = UInt64(part[0], radix: 16), let k = part[1].first { symbols[String(part[2])] = (a, k) }
    }
    return symbols
  }

  static func listed() throws -> [String] {
    try String(contentsOfFile: repositoryRoot + "/scripts/wx.link-order", encoding: .utf8).split(separator: "\n").map(String.init)
  }

  @Test(.enabled(if: release, "only the release link orders its code"))
  func theReadCommandsCodeIsLaidOutInTheListedOrder() throws {
    let symbols = try Self.symbols()
    let listed = try Self.listed().filter { symbols[$0].map { "tTwW".contains($0.kind) } ?? true }
    let found = listed.compactMap { symbols[$0]?.address }
    // A list most of whose names the code no longer has orders nothing: run
    // scripts/link-order.sh again (then `make build-wx` relinks).
    #expect(found.count * 100 >= listed.count * 85, "\(found.count) of \(listed.count) listed functions are in wx")
    // In the listed order: each after the one before, but for the functions of the few big
    // sections of the standard library the list starts with (in link order, 58 % were).
    let ascending = zip(found, found.dropFirst()).filter { $0 < $1 }.count
    // (Objects built before -function-sections was set are not rebuilt by SwiftPM: remove
    // .build/release to rebuild them.)
    #expect(ascending * 100 >= (found.count - 1) * 85, "\(ascending) of \(found.count - 1) in order")
  }

  /// The command line comes from the C library's start-up (Sources/CStart): the runtime's own
  /// lookup, which read /proc/self/maps at every start, is not linked, and the arguments
  /// arrive whole, empty ones, spaces, a newline and 300 of them included.
  @Test(.enabled(if: release, "only the release link leaves the runtime's lookup out"))
  func theCommandLineComesFromTheStartUp() throws {
    let symbols = try Self.symbols()
    #expect(!symbols.keys.contains { $0.contains("argvGrabber") }, "the runtime's argv lookup is linked")
    #expect(symbols["wx_keep_arguments"] != nil)
    let home = TempHome()
    let r = try home.run(["frobnicate", "x y", "", "a\nb"] + (1...300).map { "w\($0)" })
    #expect(r.status == 64 && r.stderr.contains("\"frobnicate\""), "\(r)")
    // Each word whole, in order: unquoted words are one name.
    let show = try home.run(["show", "Qzxv", "Wvq  é"])
    #expect(show.status == 66 && show.stderr.contains("\"Qzxv Wvq  é\""), "\(show)")
  }

  /// The data: the first listed symbol of `.data` and of `.bss` opens its section (in link
  /// order they were 128 KiB and 8 bytes in), and most listed names are in the binary.
  @Test(.enabled(if: release, "only the release link orders its data"))
  func theDataTheyTouchOpensItsSections() throws {
    let symbols = try Self.symbols()
    var sections: [String: Range<UInt64>] = [:]
    for line in try Self.read(["readelf", "-W", "-S"]).split(separator: "\n") {
      let f = line.split(separator: "]", maxSplits: 1).last?.split(separator: " ") ?? []
      if f.count > 4, [".data", ".bss"].contains(f[0]), let a = UInt64(f[2], radix: 16), let n = UInt64(f[4], radix: 16) {
        sections[String(f[0])] = a..<(a + n)
      }
    }
    try #require(sections.count == 2, "\(sections)")
    let listed = try Self.listed()
    let data = listed.compactMap { symbols[$0] }.filter { "dDbB".contains($0.kind) }
    #expect(data.count > 500, "\(data.count) listed data symbols in wx: run scripts/link-order.sh")
    for (name, range) in sections {
      let first = data.first { range.contains($0.address) }
      #expect(
        first?.address == range.lowerBound,
        "\(name): its first listed symbol at \(first.map { $0.address - range.lowerBound } ?? 0)")
    }
  }
}
