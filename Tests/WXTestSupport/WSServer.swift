import Foundation

/// The scripted loopback WebSocket server (Tests/Support/wsserver.py), the feed of `wx aqi watch`.
package final class WSServer: LoopbackServer, @unchecked Sendable {
  package let dir: String
  package let logFile: String

  /// `sections`: one script per connection, in order (see wsserver.py). With `tls` (PEM
  /// files: a certificate chain and its key) it speaks TLS, for `wss://`; `tls12`: 1.2 at most.
  package init(_ sections: [String], tls: (cert: String, key: String)? = nil, tls12: Bool = false) throws {
    dir = NSTemporaryDirectory() + "wx-ws-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    logFile = dir + "/server.log"
    let script = dir + "/script.txt"
    try sections.joined(separator: "\n---\n").write(toFile: script, atomically: true, encoding: .utf8)
    let serveTLS = (tls.map { ["--cert", $0.cert, "--key", $0.key] } ?? []) + (tls12 ? ["--tls12"] : [])
    try super.init(
      script: "wsserver.py", ["--script", script, "--log", logFile, "--port", "0", "--exit-with-parent"] + serveTLS)
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

/// A self-signed certificate (P-256, valid two days) and its key, made by openssl(1) in `dir`:
/// `names` is its subjectAltName ("DNS:localhost,IP:127.0.0.1"). Trusted by wx-aqi-watch only
/// when `SSL_CERT_FILE` names it.
package func selfSignedCertificate(in dir: String, names: String) throws -> (cert: String, key: String) {
  let stem = dir + "/" + UUID().uuidString
  let r = try runProcess(
    "/usr/bin/openssl",
    [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
      "-subj", "/CN=wx test", "-addext", "subjectAltName=" + names, "-keyout", stem + ".key", "-out", stem + ".pem",
    ], environment: [:])
  guard r.status == 0 else { throw HarnessError("openssl req failed: \(r)") }
  return (stem + ".pem", stem + ".key")
}
