import Foundation

/// A child started with posix_spawn and reaped only by `wait()`. Foundation's Process reaps
/// its children on its own, after which their pid can be reused, so a test that kills at
/// random moments could hit an unrelated process; this pid stays ours until `wait()`.
package struct RawChild {
  package let pid: pid_t

  package init(_ path: String, _ args: [String], environment: [String: String]) throws {
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
  package func wait() -> (exitedCleanly: Bool, signalled: Bool, signal: Int32) {
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
  package func waitUntilStopped() -> Int32? {
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
