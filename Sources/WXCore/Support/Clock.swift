import Glibc

/// Time without Foundation: wall-clock seconds since the epoch and a monotonic clock.
package enum Clock {
  /// Seconds since 1970-01-01 UTC.
  package static func now() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec)
  }

  /// Monotonic seconds, for deadlines and durations.
  package static func monotonic() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }

  /// `2026-11-22 10:04` in local time (or UTC with `utc`).
  package static func format(_ seconds: Int64, _ pattern: String = "%Y-%m-%d %H:%M", utc: Bool = false) -> String {
    var t = time_t(seconds)
    var parts = tm()
    if utc { gmtime_r(&t, &parts) } else { localtime_r(&t, &parts) }
    var buf = [CChar](repeating: 0, count: 64)
    let n = strftime(&buf, buf.count, pattern, &parts)
    return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// ISO 8601 in UTC, for JSON: `2026-11-22T10:04:05Z`.
  package static func iso8601(_ seconds: Int64) -> String { format(seconds, "%Y-%m-%dT%H:%M:%SZ", utc: true) }

  /// `just now`, or `3h ago`.
  package static func ago(_ seconds: Int64) -> String {
    let a = age(seconds)
    return a == "just now" ? a : a + " ago"
  }

  /// A short age: `just now`, `42s`, `5m`, `3h`, `2d`.
  package static func age(_ seconds: Int64) -> String {
    let s = max(0, seconds)
    if s < 5 { return "just now" }
    if s < 60 { return "\(s)s" }
    if s < 3600 { return "\(s / 60)m" }
    if s < 86400 * 2 { return "\(s / 3600)h" }
    return "\(s / 86400)d"
  }
}

/// Test hooks that make the interesting moments of a write reachable deterministically.
/// Set once at start-up from `WX_FAILPOINT` (e.g. `after_rename`, `store:ENOSPC`).
package enum Failpoint {
  nonisolated(unsafe) package static var active: String?

  /// At the named point: dies with SIGKILL when `name` is active (crash tests), or stops
  /// itself with SIGSTOP when `stop:name` is (lock-holder tests; resume with SIGCONT).
  ///
  /// The stop is sent to this thread, not to the process: a SIGSTOP sent to the process is
  /// taken by whichever thread the kernel picks (the main one, idle in Dispatch), which then
  /// stops the others, so on a loaded machine the thread at the failpoint ran on until that
  /// happened, past its temp file's rename (a sync "stopped with no temp file"). Sent to this
  /// thread, it stops on its way out of the call. (SIGKILL to the process is already at once:
  /// the kernel kills every thread as it queues it.)
  package static func crash(_ name: String) {
    guard let active else { return }
    if active == name { kill(getpid(), SIGKILL) }
    if active == "stop:" + name { pthread_kill(pthread_self(), SIGSTOP) }
  }

  /// An errno to inject for the named operation, from `name:ENOSPC` or `name:EIO`.
  package static func injectedErrno(_ name: String) -> Int32? {
    guard let active, active.hasPrefix(name + ":") else { return nil }
    switch active.dropFirst(name.count + 1) {
    case "ENOSPC": return ENOSPC
    case "EIO": return EIO
    case "EPERM": return EPERM
    default: return EIO
    }
  }
}
