import Foundation
import Testing
import WXCore

/// Output that cannot be written is an error (74), not an empty success: a script must not
/// take an empty file for the answer. A reader that stops early (`| head`) is not one.
@Suite struct OutputFailureTests {
  /// Runs `wx args` in `home` through sh with `redirect` applied to its standard output.
  static func run(_ home: TempHome, _ args: [String], redirect: String) throws -> Run {
    try runProcess(
      "/bin/sh", ["-c", "\"$0\" \"$@\" \(redirect)", wxBinary] + args,
      environment: [
        "PATH": "/usr/bin:/bin", "HOME": home.path, "WX_HOME": home.path, "LANG": "C.UTF-8",
        "WX_DATA_DIR": repositoryRoot + "/Data", "TZ": "UTC", "WX_ATLAS": "off",
      ])
  }

  @Test(arguments: [
    ["list"], ["show", "Oslo"], ["search", "par"], ["top"], ["status", "--json"], ["doctor"], ["unit"], ["fav", "list"],
    ["--help"], ["--version"], ["completion", "bash"], ["list", "--json"],
  ])
  func aFullDiskIsAnIOError(_ args: [String]) throws {
    let home = TempHome()
    let run = try Self.run(home, args, redirect: ">/dev/full")
    #expect(run.status == 74, "\(args) \(run)")
    #expect(run.stderr.hasSuffix("wx: cannot write the output: No space left on device (ENOSPC)\n"), "\(args) \(run)")
  }

  /// A closed standard output is reported; the stores wx opens never land on descriptor 1.
  @Test func aClosedStandardOutputIsReportedAndNoStoreTakesItsPlace() throws {
    let home = TempHome()
    let run = try Self.run(home, ["fav", "add", "Oslo"], redirect: ">&-")
    #expect(run.status == 74, "\(run)")
    #expect(run.stderr.contains("wx: cannot write the output: standard output is closed"), "\(run)")
    #expect(try home.wx("fav", "list").stdout.contains("Oslo"))
    let list = try Self.run(home, ["list"], redirect: ">&-")
    #expect(list.status == 74 && list.stderr.split(separator: "\n").count == 1, "\(list)")
  }

  /// With SIGPIPE ignored (as some shells and supervisors leave it), a reader that has gone
  /// gives EPIPE: wx stops quietly, as it does when SIGPIPE ends it.
  @Test func aReaderThatIsGoneIsNoError() throws {
    let home = TempHome()
    #expect(try home.wx("list").status == 0)
    let run = try runProcess(
      "/bin/sh", ["-c", "trap '' PIPE; { sleep 0.3; \"$0\" list; echo \"status $?\" >&2; } | true", wxBinary],
      environment: [
        "PATH": "/usr/bin:/bin", "HOME": home.path, "WX_HOME": home.path, "LANG": "C.UTF-8",
        "WX_DATA_DIR": repositoryRoot + "/Data", "TZ": "UTC", "WX_ATLAS": "off",
      ])
    #expect(run.stderr == "status 0\n", "\(run)")
  }

  /// And without the trap, as shells leave it: `wx list | head -1` exits 0, not 141 (SIGPIPE).
  @Test(arguments: [["list"], ["list", "--json"], ["search", "a"], ["completion", "bash"]])
  func aReaderThatStopsIsNoErrorWithSIGPIPEAsShellsLeaveIt(_ args: [String]) throws {
    let home = TempHome()
    #expect(try home.wx("list").status == 0)
    let run = try runProcess(
      "/bin/sh", ["-c", "{ sleep 0.3; \"$0\" \"$@\"; echo \"status $?\" >&2; } | true", wxBinary] + args,
      environment: [
        "PATH": "/usr/bin:/bin", "HOME": home.path, "WX_HOME": home.path, "LANG": "C.UTF-8",
        "WX_DATA_DIR": repositoryRoot + "/Data", "TZ": "UTC",
      ])
    #expect(run.stderr == "status 0\n", "\(args) \(run)")
  }
}
