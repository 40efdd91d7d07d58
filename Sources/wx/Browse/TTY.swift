import Glibc

/// The terminal while `wx browse` owns it: raw mode, the alternate screen, a hidden cursor.
///
/// Everything is put back on every way out: ``leave()`` on a normal exit or an error, and a
/// signal handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT that writes the restore sequence,
/// resets the saved modes (both async-signal-safe) and dies of the signal as it would have.
/// SIGTSTP (a `kill -TSTP`, or Ctrl-Z through ``suspend()``) restores the terminal before
/// stopping, and SIGCONT takes it back and asks for a full redraw. SIGWINCH and SIGCONT write
/// one byte to a pipe the key loop polls (``wakeFD``), so the screen is redrawn at once.
enum TTY {
  /// Leaves the alternate screen and shows the cursor again.
  static let restoreSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
  static let enterBytes: [UInt8] = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J".utf8)

  nonisolated(unsafe) private static var saved = termios()
  nonisolated(unsafe) private static var raw = termios()
  nonisolated(unsafe) private static var active = false
  nonisolated(unsafe) private static var suspended = false
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
    waitForTheForeground()
    guard tcgetattr(0, &saved) == 0 else { return false }
    var fds: [Int32] = [-1, -1]
    if pipe(&fds) == 0 {
      for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      pipeFDs = fds
    }
    raw = saved
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
    _ = signal(SIGTSTP, onSuspend)
    _ = signal(SIGCONT, onContinue)
    _ = signal(SIGPIPE, SIG_IGN)
    _ = tcsetattr(0, TCSAFLUSH, &raw)
    _ = restoreSequence.count + enterBytes.count  // initialised before any handler can run
    enterBytes.withUnsafeBytes { _ = Glibc.write(1, $0.baseAddress, $0.count) }
    return true
  }

  /// Puts the terminal back as ``enter()`` found it. Safe to call twice.
  static func leave() {
    guard active else { return }
    active = false
    restoreSequence.withUnsafeBytes { _ = Glibc.write(1, $0.baseAddress, $0.count) }
    _ = tcsetattr(0, TCSAFLUSH, &saved)
    for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT] { _ = signal(sig, SIG_DFL) }
  }

  /// Stops the program as Ctrl-Z does in a shell, the terminal restored meanwhile.
  /// To the process, not this thread: the loop runs on a Dispatch thread, which blocks
  /// signals, so a `raise` would stay pending.
  static func suspend() { _ = kill(getpid(), SIGTSTP) }

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

  /// Started in the background (`wx browse &`): stop, as a full-screen program must, until the
  /// shell brings the job to the foreground, instead of drawing over the shell's own lines (the
  /// runtime's threads block SIGTTOU, so the kernel would not stop us at `tcsetattr`).
  private static func waitForTheForeground() {
    var ttin = sigset_t()
    sigemptyset(&ttin)
    sigaddset(&ttin, SIGTTIN)
    _ = pthread_sigmask(SIG_UNBLOCK, &ttin, nil)
    var tries = 0
    while tcgetpgrp(0) != getpgrp() && tries < 100 {
      // Sent to this thread, which takes it on the way out of the call: the process stops
      // there until `fg` continues it (sent to the process, another thread could take it while
      // this one drew). An orphaned group is not stopped: give up after 0.1 s, not spin.
      if pthread_kill(pthread_self(), SIGTTIN) != 0 { break }
      usleep(1000)
      tries += 1
    }
  }

  /// Restores the terminal and stops; on the way back (SIGCONT, or at once when the stop
  /// is refused, as it is for an orphaned process group) takes the terminal again.
  private static let onSuspend: @convention(c) (Int32) -> Void = { _ in
    if TTY.active && !TTY.suspended {
      TTY.suspended = true
      TTY.restoreSequence.withUnsafeBytes { _ = Glibc.write(1, $0.baseAddress, $0.count) }
      _ = tcsetattr(0, TCSAFLUSH, &TTY.saved)
    }
    _ = signal(SIGTSTP, SIG_DFL)
    // The handler runs with SIGTSTP blocked: unblocked, the raise stops at once (blocked, it
    // would be delivered again the moment the handler returns, and again, forever).
    var tstp = sigset_t()
    sigemptyset(&tstp)
    sigaddset(&tstp, SIGTSTP)
    _ = pthread_sigmask(SIG_UNBLOCK, &tstp, nil)
    _ = raise(SIGTSTP)  // stops here until SIGCONT
    TTY.resume()
  }

  private static let onContinue: @convention(c) (Int32) -> Void = { _ in TTY.resume() }

  /// Raw mode and the alternate screen again after a stop, and a full redraw. Signal-safe.
  private static func resume() {
    _ = signal(SIGTSTP, TTY.onSuspend)
    if TTY.active && TTY.suspended {
      TTY.suspended = false
      _ = tcsetattr(0, TCSAFLUSH, &TTY.raw)
      TTY.enterBytes.withUnsafeBytes { _ = Glibc.write(1, $0.baseAddress, $0.count) }
    }
    TTY.resized = true
    TTY.wake()
  }

  private static let onResize: @convention(c) (Int32) -> Void = { _ in
    TTY.resized = true
    TTY.wake()
  }
}
