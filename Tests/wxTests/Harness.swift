import Foundation
import Testing

/// The repository root (this file is Tests/wxTests/Harness.swift).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().path

/// The `wx` binary under test: `$WX_TEST_BINARY` (`make test` runs the end-to-end suites again
/// on the release binary as `make install` builds it), else the one built alongside the tests.
let wxBinary: String = {
  if let path = ProcessInfo.processInfo.environment["WX_TEST_BINARY"], !path.isEmpty { return path }
  let candidates = [
    Bundle.main.bundleURL.appendingPathComponent("wx").path,
    Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("wx").path,
    repositoryRoot + "/.build/debug/wx",
  ]
  return candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) ?? candidates.last!
}()

/// `../shared/fixtures/freetestapi-weathers.json`, a real 51-record response, when present.
let sharedFixture: String? = {
  let p = repositoryRoot + "/../shared/fixtures/freetestapi-weathers.json"
  return FileManager.default.fileExists(atPath: p) ? p : nil
}()

let sampleFile = repositoryRoot + "/Data/sample-weathers.json"

/// The result of one run of `wx`.
struct Run: CustomStringConvertible {
  var status: Int32
  /// True when the process died of a signal (a crash or trap), not an exit.
  var signalled = false
  var stdout: String
  var stderr: String
  var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }

  func json() throws -> [String: Any] {
    let obj = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
    return try #require(obj as? [String: Any], "stdout is not a JSON object: \(stdout)")
  }
}

/// A temporary state folder, removed when released.
final class TempHome: @unchecked Sendable {
  let path: String

  init() {
    var template = Array((NSTemporaryDirectory() + "wx-test-XXXXXX").utf8CString)
    let p = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    path = String(cString: p!)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  var catalogue: String { path + "/catalogue.gdbm" }
  var favourites: String { path + "/favourites.gdbm" }
  var preferences: String { path + "/prefs.gdbm" }

  /// The day the bundled sample and the Open-Meteo stand-in are set at (2026-11-23, 11:00
  /// UTC: that date from 165°W to 180°, as wx estimates a city's date from its longitude):
  /// every run takes it as now (`WX_NOW`) unless told otherwise (`env: ["WX_NOW": ""]` for
  /// the clock), so which forecast days are past does not depend on the day the tests run.
  static let sampleNow = "1795431600"

  /// Runs wx with this folder as WX_HOME and a clean, predictable environment.
  @discardableResult
  func wx(_ args: String..., env: [String: String] = [:], timeout: Double = 60) throws -> Run {
    try run(args, env: env, timeout: timeout)
  }

  func run(_ args: [String], env: [String: String] = [:], timeout: Double = 60) throws -> Run {
    var environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "HOME": path, "WX_HOME": path, "LANG": "C.UTF-8", "WX_DATA_DIR": repositoryRoot + "/Data",
      "WX_HTTP_TIMEOUT": "5", "TZ": "UTC", "WX_NOW": Self.sampleNow,
      // The world atlas is off unless a test turns it on (AtlasCommandTests, with a store
      // built once and copied in: building it takes seconds in a debug build).
      "WX_ATLAS": "off",
    ]
    for (k, v) in env { environment[k] = v.isEmpty ? nil : v }
    return try runProcess(wxBinary, args, environment: environment, timeout: timeout)
  }

  /// sha256-free fingerprint of every file in the folder: name → bytes.
  func snapshot() -> [String: Data] {
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
func copyExecutable(_ from: String, to: String) throws {
  let r = try runProcess("/bin/cp", [from, to], environment: [:])
  if r.status != 0 { throw CocoaError(.fileWriteUnknown) }
}

/// Runs a program, capturing stdout and stderr through files (no pipe deadlocks).
func runProcess(_ path: String, _ args: [String], environment: [String: String], timeout: Double = 60) throws -> Run {
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
  p.standardInput = FileHandle.nullDevice
  try p.run()
  let deadline = Date().addingTimeInterval(timeout)
  while p.isRunning && Date() < deadline { usleep(2000) }
  if p.isRunning {
    p.terminate()
    p.waitUntilExit()
    Issue.record("\(path) \(args) timed out after \(timeout) s")
  }
  p.waitUntilExit()
  return Run(
    status: p.terminationStatus, signalled: p.terminationReason == .uncaughtSignal,
    stdout: String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self),
    stderr: String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self))
}

/// The project's loopback stand-in for freetestapi (Tests/Support/fakeapi.py).
final class FakeAPI: @unchecked Sendable {
  let process = Process()
  let port: Int

  init(data: String = sampleFile, mode: String = "paged", extra: [String] = []) throws {
    port = try startLoopbackServer(
      process, script: "fakeapi.py", ["--data", data, "--mode", mode, "--port", "0", "--exit-with-parent"] + extra)
  }

  deinit { stop() }

  var base: String { "http://127.0.0.1:\(port)" }
  var url: String { base + "/api/v1/weathers" }

  func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// GET a control path (`/__mode?set=…`, `/__hits`) with curl-free plain sockets via Foundation.
  @discardableResult
  func control(_ path: String) throws -> String {
    let r = try runProcess(
      "/usr/bin/env",
      ["python3", "-c", "import urllib.request,sys;print(urllib.request.urlopen(sys.argv[1]).read().decode())", base + path],
      environment: ["PATH": "/usr/bin:/bin:/usr/local/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "")])
    return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// Starts one of the loopback stand-ins in Tests/Support (`script`), which prints
/// `PORT <n>` once it listens, and returns that port.
func startLoopbackServer(_ process: Process, script: String, _ arguments: [String]) throws -> Int {
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["python3", repositoryRoot + "/Tests/Support/" + script] + arguments
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
  return port
}

/// Output with its relative ages ("just now", "42s ago", "5m ago") masked, for comparing two
/// runs made a moment apart: the clock may tick over a second between them.
func maskingAges(_ s: String) -> String {
  s.replacingOccurrences(of: #"just now|\b\d+[smhd] ago"#, with: "<age>", options: .regularExpression)
}

struct HarnessError: Error, CustomStringConvertible {
  var description: String
  init(_ d: String) { description = d }
}

/// Records in a freetestapi-shaped JSON file.
func records(_ path: String) throws -> [[String: Any]] {
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
}

/// A child started with posix_spawn and reaped only by `wait()`. Foundation's Process reaps
/// its children on its own, after which their pid can be reused, so a test that kills at
/// random moments could hit an unrelated process; this pid stays ours until `wait()`.
struct RawChild {
  let pid: pid_t

  init(_ path: String, _ args: [String], environment: [String: String]) throws {
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // The child starts as from a shell: no signal blocked (the test's thread may block some),
    // SIGINT, SIGTERM and SIGHUP at their default action, and in a process group of its own,
    // as a shell's job is: a signal sent to the test runner's group (another test's job
    // control) must not reach it.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), defaults = sigset_t()
    sigemptyset(&none)
    sigemptyset(&defaults)
    for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, sig) }
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard rc == 0 else { throw HarnessError("posix_spawn \(path): \(rc)") }
    self.pid = pid
  }

  /// Reaps the child: true when it exited with status 0; the signal that ended it, if one did.
  @discardableResult
  func wait() -> (exitedCleanly: Bool, signalled: Bool, signal: Int32) {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signalled = (status & 0x7F) != 0
    return (!signalled && (status >> 8) & 0xFF == 0, signalled, status & 0x7F)
  }

  /// Waits (up to 120 s: a loaded machine can starve a new process) until the child stops: the
  /// signal that stopped it (SIGSTOP for a `stop:` failpoint), or nil if it ended or the time
  /// ran out. The kernel says which signal (`waitid`, as a shell learns of a stopped job), so a
  /// stop by anything else (SIGTSTP, SIGTTIN, SIGTTOU) is told apart; the child is left to
  /// ``wait()`` (`WNOWAIT`), its pid still ours.
  func waitUntilStopped() -> Int32? {
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline {
      var info = siginfo_t()
      let r = waitid(P_PID, id_t(pid), &info, WEXITED | WSTOPPED | WNOHANG | WNOWAIT)
      if r < 0 && errno != EINTR { return nil }
      if r == 0 && info._sifields._sigchld.si_pid == pid {  // 0 while nothing happened
        return info.si_code == CLD_STOPPED ? info._sifields._sigchld.si_status : nil
      }
      usleep(10_000)
    }
    return nil
  }
}
