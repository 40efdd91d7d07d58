import Foundation
import Testing

/// `wx sync` streams: records go into the new catalogue file as they arrive, and a failure
/// at any point still leaves every store byte-identical, with no temp file left.
@Suite struct StreamingSyncTests {
  @Test(arguments: [1, 2, 3, 4, 5])
  func aFailureAtAnyPageLeavesEveryStoreIdentical(_ page: Int) throws {
    let home = TempHome()
    let good = try FakeAPI()
    try #require(try home.wx("sync", "--url", good.url).status == 0)
    try home.wx("fav", "add", "London")
    let before = home.snapshot()
    // 62 sample records, 15 a page: pages 1-4 are full, page 5 is short; page `page` is cut.
    let bad = try FakeAPI(mode: "truncate-page:\(page)")
    let r = try home.wx("sync", "--url", bad.url, "--per-page", "15")
    #expect(r.status == 65 && r.stderr.contains("ends early"), "\(r)")
    #expect(page == 1 || r.stderr.contains("page \(page):"), "\(r)")
    #expect(home.snapshot() == before, "page \(page) changed a store file or left a temp file")
  }

  @Test func progressShowsRecordsPagesAndRateOnATerminalOnly() throws {
    let home = TempHome()
    let api = try FakeAPI()
    // script(1) gives wx a pseudo-terminal as stdout and stderr.
    let command = "\(wxBinary) sync --url \(api.url) --per-page 20"
    let tty = try runProcess(
      "/usr/bin/script", ["-qefc", command, "/dev/null"],
      environment: ["WX_HOME": home.path, "HOME": home.path, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "TERM": "xterm"])
    #expect(tty.status == 0, "\(tty)")
    for line in ["wx: page 1 · 20 records · ", "wx: page 2 · 40 records · ", "wx: page 4 · 62 records · "] {
      #expect(tty.stdout.contains(line), "\(tty.stdout.debugDescription)")
    }
    #expect(Array(tty.stdout.utf8.prefix(4)) == [0x0D, 0x1B, 0x5B, 0x4B], "redrawn in place: \(tty.stdout.debugDescription)")
    #expect(tty.stdout.contains(" records/s") && tty.stdout.contains("wx: synced 62 cities"), "\(tty.stdout.debugDescription)")
    // A narrow terminal: each progress line fits (a wrapped one stays on the screen).
    let narrow = try runProcess(
      "/usr/bin/script", ["-qefc", command, "/dev/null"],
      environment: [
        "WX_HOME": home.path, "HOME": home.path, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "TERM": "xterm",
        "COLUMNS": "40",
      ])
    let lines = narrow.stdout.components(separatedBy: "\r\u{1B}[K").filter { $0.hasPrefix("wx: page") }
    #expect(!lines.isEmpty && lines.allSatisfy { $0.count <= 39 }, "\(lines)")
    let piped = try home.wx("sync", "--url", api.url, "--per-page", "20")
    #expect(piped.status == 0 && !piped.stderr.contains("records/s") && !piped.stderr.contains("\r"), "\(piped)")
    #expect(piped.stderr.split(separator: "\n").count == 1, "\(piped)")
  }

  @Test func aBodyWithoutContentLengthIsCapped() throws {
    let home = TempHome()
    try home.wx("list")
    let before = home.snapshot()
    let api = try FakeAPI(mode: "huge-unsized")
    let r = try home.wx("sync", "--url", api.url, timeout: 120)
    #expect(r.status == 65 && r.stderr.contains("larger than"), "\(r)")
    #expect(home.snapshot() == before)
  }

  /// One response of about 25 MB: the whole-body decoder peaked near 9 times the body.
  @Test func oneLargeResponseIsSyncedInBoundedMemory() throws {
    let home = TempHome()
    let records = (1...80_000).map { weatherRecord(id: $0, city: "City \($0)", temperature: Double($0 % 50)) }
    let data = try writeRecords(records, in: home, name: "big.json")
    let api = try FakeAPI(data: data, mode: "all")
    let m = try home.peakMemory(["sync", "--url", api.url, "--quiet"])
    #expect(m.status == 0, "\(m.run)")
    let size = try Data(contentsOf: URL(fileURLWithPath: data)).count
    #expect(m.peakKiB < 96 * 1024, "peak RSS \(m.peakKiB / 1024) MiB for a \(size >> 20) MiB body")
    #expect(try home.wx("search", "City 7999").stdout.contains("City 79999"))
  }
}
