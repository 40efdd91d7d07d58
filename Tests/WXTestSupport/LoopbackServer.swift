import Foundation

/// One of the Python stand-ins of Tests/Support, started on 127.0.0.1 and stopped (SIGKILL)
/// when released. The script prints `PORT <n>` once it listens; `--exit-with-parent` makes it
/// exit with the test runner too.
package class LoopbackServer: @unchecked Sendable {
  package let process = Process()
  package let port: Int

  /// Starts `python3 Tests/Support/<script> <arguments>` and waits for its port.
  package init(script: String, _ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", supportFile(script)] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while true {
      let byte = pipe.fileHandleForReading.readData(ofLength: 1)
      if byte.isEmpty || byte == Data("\n".utf8) { break }
      line.append(byte)
    }
    let text = String(decoding: line, as: UTF8.self)
    guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
      process.terminate()
      throw HarnessError("\(script) did not start: \(text)")
    }
    self.port = port
  }

  deinit { stop() }

  package var base: String { "http://127.0.0.1:\(port)" }

  package func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// The body of GET `base + path` (a control path: `/__mode?set=…`, `/__stats`), fetched
  /// through Python: Foundation here has no HTTP client.
  package func get(_ path: String) throws -> String {
    let r = try runProcess(
      "/usr/bin/env",
      [
        "python3", "-c", "import urllib.request,sys;sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())",
        base + path,
      ],
      environment: ["PATH": "/usr/bin:/bin:/usr/local/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "")])
    return r.stdout
  }
}
