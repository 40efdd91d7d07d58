import Foundation
import Testing

/// The full forecast from Open-Meteo (issue 23): what a sync asks for and stores, how an
/// answer is read (streamed, bounded), and what `show`, `forecast --hourly` and the one-line
/// format print from it.
@Suite struct FullForecastTests {
  static func sync(_ home: TempHome, _ api: OpenMeteoAPI, _ more: String...) throws -> Run {
    try home.run(["sync", "--provider", "open-meteo", "--url", api.forecast] + more)
  }

  /// One answer of 120 MB (50 valid locations, the first also holding a 120 MB array the
  /// decoder does not ask for) is read in flat memory and the sync succeeds.
  @Test func aHugeAnswerIsReadInFlatMemory() throws {
    let home = TempHome()
    try home.wx("list")
    let api = try OpenMeteoAPI(mode: "huge:120")
    // python3 reports the peak RSS of its child (KiB): no timing involved.
    let probe = "import resource,subprocess,sys; r=subprocess.run(sys.argv[1:]).returncode; "
      + "print(r, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    let env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home.path,
               "WX_HOME": home.path, "LANG": "C.UTF-8"]
    let r = try runProcess(
      "/usr/bin/env",
      ["python3", "-c", probe, wxBinary, "sync", "--provider", "open-meteo", "--url", api.forecast, "--quiet"],
      environment: env, timeout: 300)
    let fields = r.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    try #require(fields.count == 2, "\(r)")
    #expect(fields[0] == 0, "\(r)")
    #expect(fields[1] < 64 * 1024, "peak RSS \(fields[1] / 1024) MiB for 120 MiB answers")
    #expect(try home.wx("show", "London", "--json").json()["source"] as? String == "Open-Meteo")
  }

  /// `current.time` is a local time or bad data: an escape sequence in it is never stored.
  @Test func aCurrentTimeThatIsNoTimeIsBadData() throws {
    let home = TempHome()
    try home.wx("list")
    let before = home.snapshot()
    let api = try OpenMeteoAPI(mode: "bad-time")
    let r = try Self.sync(home, api)
    #expect(r.status == 65 && r.stderr.contains("current time") && r.stderr.contains("is not a local time"), "\(r)")
    #expect(!r.stderr.contains("\u{1B}"), "\(r)")
    #expect(home.snapshot() == before)
  }
}
