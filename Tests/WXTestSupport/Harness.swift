import Foundation
import Testing

/// The `wx` binary under test: `$WX_TEST_BINARY` (`make test` runs the end-to-end suites again
/// on the release binary as `make install` builds it), else the one built alongside the tests.
package let wxBinary: String = {
  if let path = ProcessInfo.processInfo.environment["WX_TEST_BINARY"], !path.isEmpty { return path }
  let candidates = [
    Bundle.main.bundleURL.appendingPathComponent("wx").path,
    Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("wx").path,
    repositoryRoot + "/.build/debug/wx",
  ]
  return candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) ?? candidates.last!
}()

/// The result of one run of `wx`.
package struct Run: CustomStringConvertible {
  package var status: Int32
  /// True when the process died of a signal (a crash or trap), not an exit.
  package var signalled = false
  package var stdout: String
  package var stderr: String
  package var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }

  package init(status: Int32, signalled: Bool = false, stdout: String, stderr: String) {
    (self.status, self.signalled, self.stdout, self.stderr) = (status, signalled, stdout, stderr)
  }

  package func json() throws -> [String: Any] {
    let obj = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
    return try #require(obj as? [String: Any], "stdout is not a JSON object: \(stdout)")
  }
}

/// A unique temporary folder (real files, real GDBM), removed when released.
package class Scratch: @unchecked Sendable {
  package let path: String

  package init() {
    var template = Array((NSTemporaryDirectory() + "wx-test-XXXXXX").utf8CString)
    let p = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    path = String(cString: p!)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  package func file(_ name: String) -> String { path + "/" + name }
  package func write(_ name: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: file(name), contents: Data(bytes))
  }
}

/// A temporary state folder that `wx` runs in (its WX_HOME), removed when released.
package final class TempHome: Scratch, @unchecked Sendable {
  package var catalogue: String { path + "/catalogue.gdbm" }
  package var favourites: String { path + "/favourites.gdbm" }
  package var preferences: String { path + "/prefs.gdbm" }

  /// The day the bundled sample and the Open-Meteo stand-in are set at (2026-11-23, 11:00
  /// UTC: that date from 165°W to 180°, as wx estimates a city's date from its longitude):
  /// every run takes it as now (`WX_NOW`) unless told otherwise (`env: ["WX_NOW": ""]` for
  /// the clock), so which forecast days are past does not depend on the day the tests run.
  package static let sampleNow = "1795431600"

  /// Runs wx with this folder as WX_HOME and a clean, predictable environment.
  @discardableResult
  package func wx(_ args: String..., env: [String: String] = [:], timeout: Double = 60) throws -> Run {
    try run(args, env: env, timeout: timeout)
  }

  package func run(_ args: [String], env: [String: String] = [:], timeout: Double = 60, stdin: String? = nil) throws -> Run {
    var environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "HOME": path, "WX_HOME": path, "LANG": "C.UTF-8", "WX_DATA_DIR": sharedData,
      "WX_HTTP_TIMEOUT": "5", "TZ": "UTC", "WX_NOW": Self.sampleNow,
    ]
    for (k, v) in env { environment[k] = v.isEmpty ? nil : v }
    return try runProcess(wxBinary, args, environment: environment, timeout: timeout, stdin: stdin)
  }

  /// Runs wx in this folder (PATH, HOME, WX_HOME and LANG only) under a python3 that reports
  /// the peak RSS of its child from getrusage, so no timing is involved: wx's exit status and
  /// that peak in KiB, with the probe's run for messages.
  package func peakMemory(_ args: [String], timeout: Double = 300) throws -> (status: Int, peakKiB: Int, run: Run) {
    let probe =
      "import resource,subprocess,sys; r=subprocess.run(sys.argv[1:]).returncode; "
      + "print(r, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    let env = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": path, "WX_HOME": path,
      "LANG": "C.UTF-8",
    ]
    let r = try runProcess("/usr/bin/env", ["python3", "-c", probe, wxBinary] + args, environment: env, timeout: timeout)
    let fields = r.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    try #require(fields.count == 2, "\(r)")
    return (fields[0], fields[1], r)
  }

  /// sha256-free fingerprint of every file in the folder: name → bytes.
  package func snapshot() -> [String: Data] {
    var out: [String: Data] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where name != "wx.lock" {
      out[name] = FileManager.default.contents(atPath: path + "/" + name)
    }
    return out
  }
}

/// Copies a program to run it from elsewhere. cp(1) does the writing: a descriptor this
/// process held open for it would be inherited by whatever another test forks meanwhile, and
/// running the copy fails with ETXTBSY until that child execs.
package func copyExecutable(_ from: String, to: String) throws {
  let r = try runProcess("/bin/cp", [from, to], environment: [:])
  if r.status != 0 { throw CocoaError(.fileWriteUnknown) }
}

/// Runs a program, capturing stdout and stderr through files (no pipe deadlocks); its standard
/// input is `stdin` (a file), else /dev/null.
package func runProcess(
  _ path: String, _ args: [String], environment: [String: String], timeout: Double = 60, stdin: String? = nil
) throws -> Run {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wx-run-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: dir) }
  let out = dir.appendingPathComponent("out")
  let err = dir.appendingPathComponent("err")
  _ = FileManager.default.createFile(atPath: out.path, contents: nil)
  _ = FileManager.default.createFile(atPath: err.path, contents: nil)
  let p = Process()
  p.executableURL = URL(fileURLWithPath: path)
  p.arguments = args
  p.environment = environment
  p.standardOutput = try FileHandle(forWritingTo: out)
  p.standardError = try FileHandle(forWritingTo: err)
  if let stdin {
    let input = dir.appendingPathComponent("in")
    try Data(stdin.utf8).write(to: input)
    p.standardInput = try FileHandle(forReadingFrom: input)
  } else {
    p.standardInput = FileHandle.nullDevice
  }
  try p.run()
  let deadline = Date().addingTimeInterval(timeout)
  let pid = p.processIdentifier
  // Foundation's Process can miss a child's exit (seen twice in CI: the child a zombie, 'Z',
  // for 60 s). The kernel is asked too (`WNOWAIT`: the child stays Foundation's to reap);
  // when Foundation has not noticed a second later, the child is reaped here.
  var ended: siginfo_t? = nil
  while p.isRunning && Date() < deadline {
    var info = siginfo_t()
    if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid {
      ended = info
      break
    }
    usleep(2000)
  }
  if let info = ended {
    let grace = Date().addingTimeInterval(1)
    while p.isRunning && Date() < grace { usleep(2000) }
    if p.isRunning {
      var status: Int32 = 0
      _ = waitpid(pid, &status, 0)
      let signalled = info.si_code != CLD_EXITED
      return Run(
        // As Foundation reports it: the exit status, or the signal's number.
        status: info._sifields._sigchld.si_status,
        signalled: signalled,
        stdout: String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self),
        stderr: String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self))
    }
  }
  if p.isRunning {
    // What the kernel says of it first: a zombie ('Z') is an exit Foundation did not notice;
    // else where it sleeps, and what it wrote so far.
    let proc = "/proc/\(p.processIdentifier)/"
    let state = (try? String(contentsOfFile: proc + "stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first ?? "gone"
    let wchan = (try? String(contentsOfFile: proc + "wchan", encoding: .utf8)) ?? "?"
    let partial = ((try? Data(contentsOf: err)) ?? Data()).suffix(400)
    p.terminate()
    p.waitUntilExit()
    let said = String(decoding: partial, as: UTF8.self)
    Issue.record("\(path) \(args) timed out after \(timeout) s: state \(state), waiting in \(wchan); stderr so far: \(said)")
  }
  p.waitUntilExit()
  return Run(
    status: p.terminationStatus, signalled: p.terminationReason == .uncaughtSignal,
    stdout: String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self),
    stderr: String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self))
}

/// Output with its relative ages ("just now", "42s ago", "5m ago") masked, for comparing two
/// runs made a moment apart: the clock may tick over a second between them.
package func maskingAges(_ s: String) -> String {
  s.replacingOccurrences(of: #"just now|\b\d+[smhd] ago"#, with: "<age>", options: .regularExpression)
}

package struct HarnessError: Error, CustomStringConvertible {
  package var description: String
  package init(_ d: String) { description = d }
}
