#if canImport(Glibc)
  import Glibc
#endif

/// The terminal while `wx browse` owns it: raw mode, the alternate screen, a hidden cursor.
///
/// Everything is put back on every way out: ``leave()`` on a normal exit or an error, and a
/// signal handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT that writes the restore sequence,
/// resets the saved modes (both async-signal-safe) and dies of the signal as it would have.
/// SIGWINCH and the termination signals also write one byte to a pipe the key loop polls
/// (``wakeFD``), so a resize is redrawn at once.
enum TTY {
  /// Leaves the alternate screen and shows the cursor again.
  static let restoreSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
  static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"

  nonisolated(unsafe) private static var saved = termios()
  nonisolated(unsafe) private static var active = false
  nonisolated(unsafe) private static var pipeFDs: [Int32] = [-1, -1]
  /// Set by the SIGWINCH handler; cleared by whoever redraws.
  nonisolated(unsafe) static var resized = false

  /// The read end of the wake-up pipe (-1 before ``enter()``).
  static var wakeFD: Int32 { pipeFDs[0] }

  /// Both standard input and output are terminals.
  static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

  /// Saves the modes of standard input, switches it to raw mode and output to the alternate
  /// screen. Returns false (changing nothing) when the modes cannot be read.
  static func enter() -> Bool {
    guard tcgetattr(0, &saved) == 0 else { return false }
    var fds: [Int32] = [-1, -1]
    if pipe(&fds) == 0 {
      for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      pipeFDs = fds
    }
    var raw = saved
    // cfmakeraw, keeping output processing off too: every byte drawn is placed explicitly.
    raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
    raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    active = true
    for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { _ = signal(sig, onTerminate) }
    _ = signal(SIGWINCH, onResize)
    _ = signal(SIGPIPE, SIG_IGN)
    _ = tcsetattr(0, TCSAFLUSH, &raw)
    _ = restoreSequence.count  // initialised before any handler can run
    Terminal.control(enterSequence)
    return true
  }

  /// Puts the terminal back as ``enter()`` found it. Safe to call twice.
  static func leave() {
    guard active else { return }
    active = false
    restoreSequence.withUnsafeBytes { _ = Glibc.write(1, $0.baseAddress, $0.count) }
    _ = tcsetattr(0, TCSAFLUSH, &saved)
    for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH] { _ = signal(sig, SIG_DFL) }
  }

  /// The window size of standard output (80×24 when it cannot be read).
  static func size() -> (width: Int, height: Int) {
    var ws = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return (80, 24) }
    return (Int(ws.ws_col), Int(ws.ws_row))
  }

  /// Drains the wake-up pipe.
  static func drainWake() {
    var byte: UInt8 = 0
    while pipeFDs[0] >= 0 && read(pipeFDs[0], &byte, 1) == 1 {}
  }

  private static func wake() {
    var byte: UInt8 = 1
    if pipeFDs[1] >= 0 { _ = Glibc.write(pipeFDs[1], &byte, 1) }
  }

  /// Only async-signal-safe calls: write, tcsetattr, signal, raise.
  private static let onTerminate: @convention(c) (Int32) -> Void = { sig in
    if TTY.active {
      TTY.active = false
      TTY.restoreSequence.withUnsafeBytes { _ = Glibc.write(1, $0.baseAddress, $0.count) }
      _ = tcsetattr(0, TCSAFLUSH, &TTY.saved)
    }
    _ = signal(sig, SIG_DFL)
    _ = raise(sig)
  }

  private static let onResize: @convention(c) (Int32) -> Void = { _ in
    TTY.resized = true
    TTY.wake()
  }
}
