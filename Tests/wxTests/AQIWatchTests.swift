import Foundation
import Testing

@Suite struct AQIWatchTests {
  @Test func onceStoresTheFirstFrameAndPrintsOneLinePerReading() throws {
    let first = aqiFrame([("Mumbai", 179.64), ("Delhi", 302.2)]) + "\n" + aqiFrame([("Pune", 1)])
    let server = try WSServer([first, first])
    let home = TempHome()
    let r = try home.wx("aqi", "watch", server.url, "--once")
    #expect(r.status == 0, "\(r)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(r)")
    #expect(lines[0].hasSuffix("Z Mumbai 179.64 Moderate") && lines[1].hasSuffix("Z Delhi 302.20 Very Poor"), "\(r)")
    #expect(lines[0].range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ "#, options: .regularExpression) != nil)
    #expect(r.stderr.contains("wx: connected to \(server.url)"))
    let items = try #require(try home.wx("aqi", "list", "--json").json()["items"] as? [[String: Any]])
    #expect(items.map { $0["city"] as? String } == ["Delhi", "Mumbai"])
    #expect(items.map { $0["aqi"] as? Double } == [302.2, 179.64])
    #expect(items.map { $0["category"] as? String } == ["Very Poor", "Moderate"])
    #expect(items.allSatisfy { ($0["time"] as? String)?.hasSuffix("Z") == true })
    #expect(FileManager.default.fileExists(atPath: home.path + "/aqi.gdbm"))
    // The URL may come from WX_AQI_URL.
    let viaEnv = try home.wx("aqi", "watch", "--once", env: ["WX_AQI_URL": server.url])
    #expect(viaEnv.status == 0 && viaEnv.stdout.contains("Mumbai 179.64"), "\(viaEnv)")
  }

  @Test func historyIsCappedAtTwentyPerCity() throws {
    var frames: [String] = []
    for i in 1...25 {
      var readings = [("Delhi", Double(200 + i) + 0.25)]
      if i % 2 == 0 { readings.append(("Mumbai", Double(i))) }
      frames.append(aqiFrame(readings))
    }
    let server = try WSServer([frames.joined(separator: "\n")])
    let home = TempHome()
    let r = try watch(home, server, count: 25)
    #expect(r.status == 0, "\(r)")
    #expect(r.stdout.split(separator: "\n").count == 25 + 12)
    let delhi = try home.wx("aqi", "show", "Delhi", "--json").json()
    let readings = try #require(delhi["readings"] as? [[String: Any]])
    #expect(readings.count == 20)
    let values: [Double?] = readings.map { $0["aqi"] as? Double }
    let expected: [Double?] = (6...25).map { Double(200 + $0) + 0.25 }
    #expect(values == expected)
    #expect(delhi["min"] as? Double == 206.25 && delhi["max"] as? Double == 225.25)
    #expect((delhi["latest"] as? [String: Any])?["aqi"] as? Double == 225.25)
    let mumbai = try #require(try home.wx("aqi", "show", "mumbai", "--json").json()["readings"] as? [[String: Any]])
    #expect(mumbai.count == 12)
    let times = readings.compactMap { $0["time"] as? String }.map(seconds)
    #expect(times == times.sorted())
  }

  @Test func droppedAndClosedConnectionsReconnectAndLaterFramesAreStored() throws {
    let server = try WSServer([
      aqiFrame([("Delhi", 301)]) + "\nping hello\n" + aqiFrame([("Delhi", 302)]) + "\nsleep 100\ndrop",
      "reject 503",
      aqiFrame([("Delhi", 303)]) + "\nclose 1001",
      "fragments 5 " + aqiFrame([("Delhi", 304), ("Agra", 88.5)]).dropFirst(5) + "\nhold",
    ])
    let home = TempHome()
    let r = try watch(home, server, count: 4)
    #expect(r.status == 0, "\(r)")
    #expect(r.stderr.contains("wx: connection lost (the connection dropped); reconnecting in 20 ms"), "\(r)")
    // Two failures in a row: the delay doubles; a connection that delivers and closes at once
    // does not reset it (see aFeedThatDropsAtOnceIsRetriedEverMoreSlowly).
    #expect(
      r.stderr.contains("wx: the server did not accept the WebSocket upgrade; reconnecting in 40 ms (2 failures in a row)"),
      "\(r)")
    #expect(
      r.stderr.contains("wx: connection lost (closed by the server, code 1001); reconnecting in 80 ms (3 failures in a row)"),
      "\(r)")
    #expect(r.stderr.components(separatedBy: "wx: reconnected to \(server.url)").count - 1 == 2, "\(r)")
    let values = try #require(try home.wx("aqi", "show", "Delhi", "--json").json()["readings"] as? [[String: Any]])
    #expect(values.map { $0["aqi"] as? Double } == [301, 302, 303, 304])
    #expect(try home.wx("aqi", "show", "agra", "--json").json()["latest"] as? [String: Any] != nil)
    let log = server.log
    #expect(log.contains("pong 1 hello"), "\(log)")
    #expect(log.contains("close 3 1001"), "the client answers a close frame: \(log)")
    #expect(log.filter { $0.hasPrefix("connect ") } == (1...4).map { "connect \($0) /aqi" })
    #expect(!log.contains { $0.hasPrefix("error") }, "client frames must be masked: \(log)")
  }

  /// A feed that sends one frame and drops at once, again and again, is a failing feed: the
  /// backoff keeps growing (it reset at every frame: 124 reconnects in 25 s). One that stays
  /// open (20 × the initial backoff: 2 s here) and delivers starts it again.
  @Test func aFeedThatDropsAtOnceIsRetriedEverMoreSlowly() throws {
    // Each frame has 50 ms to arrive before the drop (a close at once could discard it).
    let server = try WSServer([
      aqiFrame([("Delhi", 1)]) + "\nsleep 50\ndrop", "send not json\nsleep 50\ndrop",
      aqiFrame([("Delhi", 2)]) + "\nsleep 50\ndrop", aqiFrame([("Delhi", 3)]) + "\nsleep 3000\ndrop",
      aqiFrame([("Delhi", 4)]) + "\nhold",
    ])
    let home = TempHome()
    let r = try watch(home, server, count: 4, env: ["WX_AQI_BACKOFF_MS": "100"])
    #expect(r.status == 0, "\(r)")
    let lines = r.stderr.split(separator: "\n").filter { $0.contains("reconnecting in") }
    #expect(lines.count == 4, "\(r)")
    for (k, ms) in [100, 200, 400].enumerated() where k < lines.count {
      #expect(lines[k].hasSuffix("reconnecting in \(ms) ms" + (k > 0 ? " (\(k + 1) failures in a row)" : "")), "\(lines)")
    }
    // The fourth connection stayed open 3 s (> 2 s) after its frame: reset.
    #expect(lines.last?.hasSuffix("reconnecting in 100 ms") == true, "\(lines)")
  }

  /// Masked server frames are a protocol error (RFC 6455 5.1): never delivered, and the
  /// connection is closed with 1002. A wrong Sec-WebSocket-Accept is worded, not NIO's name.
  @Test func maskedFramesAndABadHandshakeAreRefusedInWords() throws {
    let server = try WSServer(["masked " + aqiFrame([("Delhi", 9)]) + "\nhold", aqiFrame([("Delhi", 10)]) + "\nhold"])
    let home = TempHome()
    let r = try watch(home, server, count: 1)
    #expect(r.status == 0, "\(r)")
    #expect(r.stderr.contains("the server sent a masked frame"), "\(r)")
    let values = try #require(try home.wx("aqi", "show", "Delhi", "--json").json()["readings"] as? [[String: Any]])
    #expect(values.map { $0["aqi"] as? Double } == [10], "the masked frame was stored")
    let end = Date().addingTimeInterval(5)
    while Date() < end, !server.log.contains("close 1 1002") { usleep(20_000) }
    #expect(server.log.contains("close 1 1002"), "\(server.log)")

    let bad = try WSServer(["badaccept\n" + aqiFrame([("Delhi", 11)])])
    let refused = try home.wx("aqi", "watch", bad.url, "--once")
    #expect(refused.status == 69, "\(refused)")
    #expect(refused.stderr.contains("Sec-WebSocket-Accept") && !refused.stderr.contains("upgrader"), "\(refused)")
  }

  @Test func badFramesAreCountedSkippedAndNeverStored() throws {
    let server = try WSServer([
      [
        aqiFrame([("Delhi", 150)]),
        "send not json",
        #"send {"city":"Delhi","aqi":3}"#,
        #"send [{"city":"Delhi","aqi":-3}]"#,
        #"send [{"city":"Delhi","aqi":1000.5}]"#,
        #"send [{"city":5,"aqi":3},{"city":"Goa","aqi":"high"}]"#,
        "binary [{\"city\":\"Delhi\",\"aqi\":9}]",
        #"send [{"city":"Delhi","aqi":99999},{"city":"Pune","aqi":50.23,"pm10":3}]"#,
        aqiFrame([("Delhi", 160)]),
      ].joined(separator: "\n")
    ])
    let home = TempHome()
    let r = try watch(home, server, count: 3)
    #expect(r.status == 0, "\(r)")
    let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("wx: skipped") }
    #expect(warnings.count == 8, "\(r)")
    #expect(r.stderr.contains("wx: skipped a bad frame: not JSON"))
    #expect(r.stderr.contains("wx: skipped a bad frame: expected an array of readings, found an object"))
    #expect(r.stderr.contains("wx: skipped a bad frame: Delhi: AQI -3 is out of range (0–1000)"))
    #expect(r.stderr.contains("wx: skipped a bad frame: Delhi: AQI 1000.5 is out of range (0–1000)"))
    #expect(r.stderr.contains("wx: skipped 2 bad readings of a frame:"))
    #expect(r.stderr.contains("wx: skipped a bad frame: a binary frame (26 bytes), not text"))
    #expect(r.stderr.contains("wx: skipped 1 bad reading of a frame: Delhi: AQI 99999 is out of range"))
    #expect(r.stderr.contains("wx: skipped 8 bad readings in all"), "\(r)")
    let delhi = try #require(try home.wx("aqi", "show", "Delhi", "--json").json()["readings"] as? [[String: Any]])
    #expect(delhi.map { $0["aqi"] as? Double } == [150, 160])
    let items = try #require(try home.wx("aqi", "list", "--json").json()["items"] as? [[String: Any]])
    #expect(items.map { $0["city"] as? String } == ["Delhi", "Pune"])
    #expect(items.last?["category"] as? String == "Good")
  }

  @Test func listAndShowWorkOfflineAfterTheServerIsGone() throws {
    let server = try WSServer([aqiFrame([("Mumbai", 179.64), ("Delhi", 302.2), ("Pune", 100.5)])])
    let home = TempHome()
    #expect(try watch(home, server, count: 1).status == 0)
    server.stop()
    let list = try home.wx("aqi", "list")
    #expect(list.status == 0, "\(list)")
    let lines = list.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "Air quality")
    #expect(lines[1].hasPrefix("City") && lines[1].contains("AQI") && lines[1].contains("Category"))
    #expect(lines[2].hasPrefix("Delhi ") && lines[2].contains("302.20  Very Poor"), "\(list)")
    #expect(lines[3].hasPrefix("Mumbai") && lines[3].contains("179.64  Moderate"))
    #expect(lines[4].hasPrefix("Pune") && lines[4].contains("100.50  Satisfactory"))
    #expect(lines.last == "3 cities · last 20 readings kept per city")
    #expect(maskingAges(try home.wx("aqi").stdout) == maskingAges(list.stdout), "`wx aqi` is `wx aqi list`")
    // Nothing on stdout is coloured when it is not a terminal; --color always colours.
    #expect(!list.stdout.contains("\u{1B}["))
    #expect(try home.wx("aqi", "list", "--color", "always").stdout.contains("\u{1B}[31mVery Poor\u{1B}[0m"))
    #expect(try home.wx("aqi", "show", "pune").status == 0)
  }

  @Test func errorsHaveTheDocumentedExitCodes() throws {
    let home = TempHome()
    let badScheme = try home.wx("aqi", "watch", "http://127.0.0.1/feed", "--once")
    #expect(badScheme.status == 78 && badScheme.stderr.contains("does not start with ws:// or wss://"), "\(badScheme)")
    let noURL = try home.wx("aqi", "watch", "--once", env: ["WX_AQI_URL": ""])
    #expect(noURL.status == 78 && noURL.stderr.contains("WX_AQI_URL"), "\(noURL)")
    #expect(try home.wx("aqi", "watch", "--once", env: ["WX_AQI_URL": "ws://"]).status == 78)
    #expect(try home.wx("aqi", "watch", "ws://127.0.0.1:1/", env: ["WX_AQI_BACKOFF_MS": "fast"]).status == 78)
    // A port nothing listens on: connection refused.
    let refused = try home.wx("aqi", "watch", "ws://127.0.0.1:9/feed", "--once")
    #expect(refused.status == 69 && refused.stderr.contains("connection refused"), "\(refused)")
    let notWS = try WSServer(["reject 404"])
    #expect(try home.wx("aqi", "watch", notWS.url, "--count", "2").status == 69)
    #expect(try home.wx("aqi", "watch", "ws://x/", "--count", "0").status == 64)
    #expect(try home.wx("aqi", "watch", "ws://x/", "--once", "--count", "2").status == 64)
    let unknown = try home.wx("aqi", "show", "Atlantis")
    #expect(unknown.status == 66 && unknown.stderr.contains("no air-quality readings for \"Atlantis\""), "\(unknown)")
    // An echoed name is cut to 60 characters and says it was cut.
    let long = try home.wx("aqi", "show", String(repeating: "b", count: 59) + "XYZ")
    #expect(long.stderr.contains("\"" + String(repeating: "b", count: 59) + "X…\""), "\(long)")
    let empty = try home.wx("aqi", "list")
    #expect(empty.status == 0 && empty.stdout.contains("No air-quality readings yet"))
    #expect(try home.wx("aqi", "list", "--json").stdout == "{\"items\":[]}\n")
    #expect(!FileManager.default.fileExists(atPath: home.path + "/aqi.gdbm"))
  }

  @Test func ctrlCExitsCleanlyWithStatusZero() throws {
    let server = try WSServer([aqiFrame([("Delhi", 302.2)]) + "\nhold"])
    let home = TempHome()
    let out = home.path + "/out.txt", err = home.path + "/err.txt"
    _ = FileManager.default.createFile(atPath: out, contents: nil)
    _ = FileManager.default.createFile(atPath: err, contents: nil)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: wxBinary)
    p.arguments = ["aqi", "watch", server.url]
    p.environment = ["WX_HOME": home.path, "HOME": home.path, "LANG": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"]
    p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
    try p.run()
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline, (try? String(contentsOfFile: out, encoding: .utf8))?.contains("Delhi") != true { usleep(20_000) }
    try #require(p.isRunning, "wx stopped by itself")
    kill(p.processIdentifier, SIGINT)
    let stop = Date().addingTimeInterval(10)
    while p.isRunning && Date() < stop { usleep(10_000) }
    if p.isRunning { p.terminate() }
    p.waitUntilExit()
    #expect(p.terminationReason == .exit && p.terminationStatus == 0)
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.hasSuffix("Delhi 302.20 Very Poor\n"), "\(text)")
    #expect(try home.wx("aqi", "show", "delhi", "--json").json()["min"] as? Double == 302.2)
    // The client said goodbye with a close frame.
    let end = Date().addingTimeInterval(5)
    while Date() < end, !server.log.contains(where: { $0.hasPrefix("close 1") }) { usleep(20_000) }
    #expect(server.log.contains("close 1 1001"), "\(server.log)")
  }

  @Test func theFeedClientStopsWhenWxIsKilled() throws {
    let server = try WSServer([aqiFrame([("Delhi", 302.2)]) + "\nhold"])
    let home = TempHome()
    let child = try RawChild(
      wxBinary, ["aqi", "watch", server.url],
      environment: ["WX_HOME": home.path, "HOME": home.path, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline, !FileManager.default.fileExists(atPath: home.path + "/aqi.gdbm") { usleep(20_000) }
    kill(child.pid, SIGKILL)
    child.wait()
    // wx-aqi-watch notices that its parent is gone and closes the connection properly.
    let end = Date().addingTimeInterval(10)
    while Date() < end, !server.log.contains("end 1") { usleep(20_000) }
    #expect(server.log.contains("close 1 1001"), "\(server.log)")
  }

  /// The feed's URL, token included, is on no process's command line (every local user can
  /// read /proc/PID/cmdline): wx hands it to its client through a pipe.
  @Test func theFeedTokenIsOnNoCommandLine() throws {
    let server = try WSServer([aqiFrame([("Delhi", 302.2)]) + "\nhold"])
    let home = TempHome()
    let token = "s3cr3t-\(UInt32.random(in: 0...UInt32.max))"
    let child = try RawChild(
      wxBinary, ["aqi", "watch"],
      environment: [
        "WX_HOME": home.path, "HOME": home.path, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
        "WX_AQI_URL": server.url + "?token=" + token,
      ])
    defer {
      kill(child.pid, SIGKILL)
      child.wait()
    }
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline, !FileManager.default.fileExists(atPath: home.path + "/aqi.gdbm") { usleep(20_000) }
    try #require(FileManager.default.fileExists(atPath: home.path + "/aqi.gdbm"), "the feed was not read")
    var clients = 0
    for pid in (try FileManager.default.contentsOfDirectory(atPath: "/proc")).filter({ Int($0) != nil }) {
      guard let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { continue }
      let text = String(decoding: cmdline, as: UTF8.self)
      if text.contains("wx-aqi-watch") && text.contains("--url-stdin") { clients += 1 }
      #expect(!text.contains(token), "the token is on the command line of \(text.replacingOccurrences(of: "\0", with: " "))")
    }
    #expect(clients >= 1, "no feed client found to check")
  }

  @Test func aMissingFeedClientIsAConfigurationError() throws {
    let home = TempHome()
    let lonely = home.path + "/bin/wx"
    try FileManager.default.createDirectory(atPath: home.path + "/bin", withIntermediateDirectories: true)
    try copyExecutable(wxBinary, to: lonely)
    let run = try runProcess(lonely, ["aqi", "watch", "ws://127.0.0.1:9/", "--once"], environment: ["WX_HOME": home.path])
    #expect(run.status == 78 && run.stderr.contains("wx-aqi-watch"), "\(run)")
  }

  @Test func terminalModeRedrawsInPlaceAndRestoresTheCursor() throws {
    let server = try WSServer([aqiFrame([("Delhi", 302.2)]) + "\n" + aqiFrame([("Mumbai", 179.64)]) + "\nhold"])
    let home = TempHome()
    // script(1) gives wx a pseudo-terminal as stdout.
    let command = "\(wxBinary) aqi watch \(server.url) --count 2 --color never"
    let r = try runProcess(
      "/usr/bin/script", ["-qefc", command, "/dev/null"],
      environment: [
        "WX_HOME": home.path, "HOME": home.path, "LANG": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin",
        "TERM": "xterm",
      ])
    #expect(r.status == 0, "\(r)")
    let s = r.stdout
    #expect(s.hasPrefix("\u{1B}[?25l"), "hides the cursor: \(s.debugDescription)")
    #expect(s.hasSuffix("\r\u{1B}[K\u{1B}[?25h"), "restores it: \(s.debugDescription)")
    #expect(s.contains("\u{1B}[J") && s.contains("A\u{1B}[J"), "redraws in place")
    #expect(s.range(of: #"Delhi   302\.20  Very Poor  updated \d+s ago"#, options: .regularExpression) != nil, "\(s)")
    #expect(s.contains("Mumbai  179.64  Moderate"))
    #expect(!s.contains("Z Delhi"), "no per-reading lines on a terminal")
  }
}
