import Foundation
import Testing

/// The release link lays out the functions the read commands run (scripts/wx.text-order,
/// written by scripts/text-order.sh) first and in that order (Makefile, ORDER_FLAGS): spread
/// over 12 MB of code they cost a page fault for each 64 KiB window touched. Read from the
/// binary's own symbols (`make test` leaves it unstripped); only on the release binary, which
/// the end-to-end suites run as `WX_TEST_BINARY`.
@Suite struct TextOrderTests {
  static let release = !(ProcessInfo.processInfo.environment["WX_TEST_BINARY"] ?? "").isEmpty

  @Test(.enabled(if: release, "only the release link orders its code"))
  func theReadCommandsCodeIsLaidOutInTheListedOrder() throws {
    let listed = try String(contentsOfFile: repositoryRoot + "/scripts/wx.text-order", encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let nm = try runProcess("/usr/bin/env", ["nm", "--defined-only", wxBinary], environment: ["PATH": path])
    try #require(nm.status == 0, "\(nm.stderr)")
    var address: [String: UInt64] = [:]
    for line in nm.stdout.split(separator: "\n") {
      let part = line.split(separator: " ")
      if part.count == 3, let a = UInt64(part[0], radix: 16) { address[String(part[2])] = a }
    }
    let found = listed.compactMap { address[$0] }
    // A list most of whose names the code no longer has orders nothing: run
    // scripts/text-order.sh again (then `make build-wx` relinks).
    #expect(found.count * 100 >= listed.count * 85, "\(found.count) of \(listed.count) listed functions are in wx")
    // In the listed order: each after the one before, but for the functions of the few big
    // sections of the standard library the list starts with (in link order, 58 % were).
    let ascending = zip(found, found.dropFirst()).filter { $0 < $1 }.count
    // (Objects built before -function-sections was set are not rebuilt by SwiftPM: remove
    // .build/release to rebuild them.)
    #expect(ascending * 100 >= (found.count - 1) * 85, "\(ascending) of \(found.count - 1) in order")
  }
}
