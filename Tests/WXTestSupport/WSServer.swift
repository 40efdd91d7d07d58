import Foundation

/// The scripted loopback WebSocket server (Tests/Support/wsserver.py), the feed of `wx aqi watch`.
package final class WSServer: LoopbackServer, @unchecked Sendable {
  package let dir: String
  package let logFile: String

  /// `sections`: one script per connection, in order (see wsserver.py).
  package init(_ sections: [String]) throws {
    dir = NSTemporaryDirectory() + "wx-ws-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    logFile = dir + "/server.log"
    let script = dir + "/script.txt"
    try sections.joined(separator: "\n---\n").write(toFile: script, atomically: true, encoding: .utf8)
    try super.init(script: "wsserver.py", ["--script", script, "--log", logFile, "--port", "0", "--exit-with-parent"])
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(atPath: dir)
  }

  package var url: String { "ws://127.0.0.1:\(port)/aqi" }

  /// The server's event log ("connect 1 /aqi", "pong 1 hello", "close 2 1000", …).
  package var log: [String] {
    ((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }
}

/// A frame of readings as the feed sends it.
package func aqiFrame(_ readings: [(String, Double)]) -> String {
  "send [" + readings.map { #"{"city":"\#($0.0)","aqi":\#($0.1)}"# }.joined(separator: ",") + "]"
}

/// `wx aqi watch` against the loopback feed: reconnects fast, exits after `count` frames.
package func watch(
  _ home: TempHome, _ server: WSServer, count: Int, extra: [String] = [], env: [String: String] = [:]
) throws -> Run {
  var e = ["WX_AQI_BACKOFF_MS": "20"]
  for (k, v) in env { e[k] = v }
  return try home.run(["aqi", "watch", server.url, "--count", String(count)] + extra, env: e, timeout: 60)
}
