import Dispatch
import WXCore
import WXFeed

import Glibc

/// The feed client `wx-aqi-watch`, run as a child process whose standard output is a pipe of
/// ``FeedRecord``s.
///
/// It runs in its own process group, so a Ctrl-C at the terminal reaches only `wx`, which
/// then stops it with SIGTERM (it answers with a WebSocket close frame). If `wx` dies, the
/// client notices that its parent changed and stops itself the same way.
final class FeedProcess: @unchecked Sendable {
  let pid: pid_t
  private let fd: Int32
  private let queue = DispatchQueue(label: "wx.feed-reader")

  /// Where the client is installed: PREFIX/libexec/wx beside PREFIX/bin, or beside `wx`
  /// itself (a build folder).
  static func locate() -> String? {
    guard let dir = Environment.executableDirectory() else { return nil }
    return [dir + "/../libexec/wx/wx-aqi-watch", dir + "/wx-aqi-watch"].first { access($0, X_OK) == 0 }
  }

  /// Starts `path` with `arguments`; `input` (the feed's URL, token and all: not on the
  /// command line, which every local user can read in /proc) is written to its stdin, which
  /// then ends; stderr is shared.
  init(path: String, arguments: [String], input: String) throws {
    // The client inherits nothing but its three standard streams: an inherited descriptor
    // (a test harness's exit-watch socket, say) would outlive wx in the client.
    Self.closeOnExecEverything()
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw AQIError.clientFailed("cannot create a pipe: \(SystemError.describe(errno))") }
    for f in fds { _ = fcntl(f, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    defer {
      posix_spawn_file_actions_destroy(&actions)
      posix_spawnattr_destroy(&attributes)
    }
    var inFds: [Int32] = [-1, -1]
    guard pipe(&inFds) == 0 else {
      for f in fds { close(f) }
      throw AQIError.clientFailed("cannot create a pipe: \(SystemError.describe(errno))")
    }
    for f in inFds { _ = fcntl(f, F_SETFD, FD_CLOEXEC) }
    posix_spawn_file_actions_adddup2(&actions, inFds[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    // Its own process group (no terminal Ctrl-C), default signal dispositions, nothing blocked.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for sig in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, sig) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for a in argv { free(a) } }
    var child: pid_t = 0
    let rc = posix_spawn(&child, path, &actions, &attributes, argv, environ)
    close(fds[1])
    close(inFds[0])
    guard rc == 0 else {
      close(fds[0])
      close(inFds[1])
      throw AQIError.clientFailed("cannot start \(path): \(SystemError.describe(rc))")
    }
    // The client reads its stdin to the end before anything else (SIGPIPE is ignored here:
    // a client that died early is an EPIPE, and then its exit is what wx reports).
    var text = input
    text.withUTF8 { u in
      var off = 0
      while off < u.count {
        let n = write(inFds[1], u.baseAddress! + off, u.count - off)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        off += n
      }
    }
    close(inFds[1])
    pid = child
    fd = fds[0]
  }

  /// Marks every open descriptor above stderr close-on-exec.
  static func closeOnExecEverything() {
    guard let dir = opendir("/proc/self/fd") else { return }
    defer { closedir(dir) }
    let own = dirfd(dir)
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if let fd = Int32(name), fd > 2, fd != own { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }
  }

  /// Reads records on a background queue and hands each to `deliver`; after the last one
  /// (end of output, or a malformed record) `deliver(nil)`.
  func start(_ deliver: @escaping @Sendable (FeedRecord?) -> Void) {
    let fd = self.fd
    queue.async {
      var reader = FeedRecordReader()
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      reading: while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        reader.append(buffer[0..<n])
        do {
          while let record = try reader.next() { deliver(record) }
        } catch {
          break reading
        }
      }
      close(fd)
      deliver(nil)
    }
  }

  /// Asks the client to close the connection and exit.
  func terminate() { kill(pid, SIGTERM) }

  /// Reaps the client, killing it if it has not exited; returns how it ended.
  @discardableResult
  func reap() -> String {
    var status: Int32 = 0
    if waitpid(pid, &status, WNOHANG) == 0 {
      kill(pid, SIGKILL)
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
    let signalled = status & 0x7F
    return signalled == 0 ? "exit status \((status >> 8) & 0xFF)" : "signal \(signalled)"
  }
}
