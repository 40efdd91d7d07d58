import Glibc
import WXCore

/// The terminal while `wx browse` owns it: raw mode, the alternate screen, a hidden cursor.
///
/// Everything is put back on every way out: ``leave()`` on a normal exit or an error, and a
/// signal handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT that writes the restore sequence,
/// resets the saved modes (both async-signal-safe) and dies of the signal as it would have.
/// SIGTSTP (a `kill -TSTP`, or Ctrl-Z through ``suspend()``) restores the terminal before
/// stopping, and SIGCONT takes it back and asks for a full redraw. SIGWINCH and SIGCONT write
/// one byte to a pipe the key loop polls (``wakeFD``), so the screen is redrawn at once.
///
/// The handlers (the file-level functions at the end) make only async-signal-safe calls and
/// touch only what cannot move or be half-made under them: the flags (``SignalFlag``: atomic
/// bytes), the modes and the pipe's descriptors in ``shared`` (memory allocated once, never
/// freed), all set up before ``enter()`` installs the handlers, and the escape sequences, which
/// are string literals (``StaticString``: bytes in the binary). No Swift array, string or
/// variable with exclusivity checks, no allocation, no lock.
enum TTY {
  /// Leaves the alternate screen and shows the cursor again.
  static var restoreSequence: StaticString { "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l" }
  static var enterSequence: StaticString { "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J" }

  /// What the handlers read besides the flags.
  fileprivate struct Shared {
    var saved = termios()
    var raw = termios()
    var wakeRead: Int32 = -1
    var wakeWrite: Int32 = -1
  }
  nonisolated(unsafe) fileprivate static let shared: UnsafeMutablePointer<Shared> = {
    let p = UnsafeMutablePointer<Shared>.allocate(capacity: 1)
    p.initialize(to: Shared())
    return p
  }()
  fileprivate static let active = SignalFlag()
  fileprivate static let suspended = SignalFlag()
  /// Set by the SIGWINCH and SIGCONT handlers; taken (cleared) by whoever redraws.
  static let resized = SignalFlag()

  /// The read end of the wake-up pipe (-1 before ``enter()``).
  static var wakeFD: Int32 { shared.pointee.wakeRead }

  /// Both standard input and output are terminals.
  static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

  /// A terminal that can show a full screen: interactive, and `TERM` names one with an
  /// alternate screen. `TERM` unset, `dumb` or `unknown`, or a terminfo entry without `smcup`
  /// (Emacs' shell, a serial console) is treated like a pipe. A `TERM` with no terminfo
  /// entry installed is given the benefit of the doubt.
  static var isFullScreen: Bool {
    guard isInteractive else { return false }
    guard let term = Environment.get("TERM"), !["", "dumb", "unknown", "emacs"].contains(term) else { return false }
    guard let entry = terminfo(term) else { return true }
    // smcup as the compiled entry stores it: "\E[?1049h", "\E[?47h" or "\E7\E[?47h".
    let esc: UInt8 = 0x1B
    return [Array("[?1049h".utf8), Array("[?47h".utf8), Array("[?1047h".utf8)].contains { cap in
      entry.indices.contains { i in
        entry[i] == esc && i + cap.count < entry.count && Array(entry[(i + 1)...(i + cap.count)]) == cap
      }
    }
  }

  /// The compiled terminfo entry of `term`, from the usual folders, when installed.
  static func terminfo(_ term: String) -> [UInt8]? {
    guard let first = term.first, !term.contains("/"), term.utf8.count < 64 else { return nil }
    var folders = ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"]
    if let home = Environment.get("HOME") { folders.insert(home + "/.terminfo", at: 0) }
    if let dir = Environment.get("TERMINFO") { folders.insert(dir, at: 0) }
    for folder in folders {
      for sub in [String(first), String(format0x(first))] {
        if let bytes = try? FileSystem.read("\(folder)/\(sub)/\(term)") { return bytes }
      }
    }
    return nil
  }

  /// The hexadecimal folder name some systems use (`78` for `x`).
  private static func format0x(_ c: Character) -> String {
    let v = c.unicodeScalars.first!.value
    let digits = Array("0123456789abcdef")
    return String([digits[Int(v >> 4) & 15], digits[Int(v) & 15]])
  }

  /// Saves the modes of standard input, switches it to raw mode and output to the alternate
  /// screen. Returns false (changing nothing) when the modes cannot be read.
  static func enter() -> Bool {
    waitForTheForeground()
    var saved = termios()
    guard tcgetattr(0, &saved) == 0 else { return false }
    var fds: [Int32] = [-1, -1]
    if pipe(&fds) == 0 {
      for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    } else {
      fds = [-1, -1]
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
    // Everything a handler reads is in place before the first handler is installed.
    shared.pointee = Shared(saved: saved, raw: raw, wakeRead: fds[0], wakeWrite: fds[1])
    suspended.set(false)
    resized.set(false)
    active.set(true)
    for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { _ = signal(sig, restoreAndDie) }
    _ = signal(SIGWINCH, onResize)
    _ = signal(SIGTSTP, restoreAndStop)
    _ = signal(SIGCONT, onContinue)
    _ = signal(SIGPIPE, SIG_IGN)
    // TCSANOW, not TCSAFLUSH: keys typed while wx started (an atlas being built) are kept,
    // read as the first keys of the session.
    _ = tcsetattr(0, TCSANOW, &shared.pointee.raw)
    write(enterSequence)
    return true
  }

  /// Puts the terminal back as ``enter()`` found it. Safe to call twice.
  static func leave() {
    guard active.change(from: true, to: false) else { return }
    write(restoreSequence)
    _ = tcsetattr(0, TCSAFLUSH, &shared.pointee.saved)
    for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT] { _ = signal(sig, SIG_DFL) }
  }

  /// Stops the program as Ctrl-Z does in a shell, the terminal restored meanwhile.
  /// To the process, not this thread: the loop runs on a Dispatch thread, which blocks
  /// signals, so a `raise` would stay pending.
  static func suspend() { _ = kill(getpid(), SIGTSTP) }

  /// Drains the wake-up pipe.
  static func drainWake() {
    var byte: UInt8 = 0
    while wakeFD >= 0 && read(wakeFD, &byte, 1) == 1 {}
  }

  /// Writes a sequence to standard output. Signal-safe.
  fileprivate static func write(_ sequence: StaticString) {
    _ = Glibc.write(1, sequence.utf8Start, sequence.utf8CodeUnitCount)
  }

  /// Writes one byte to the wake-up pipe. Signal-safe.
  fileprivate static func wake() {
    var byte: UInt8 = 1
    let fd = shared.pointee.wakeWrite
    if fd >= 0 { _ = Glibc.write(fd, &byte, 1) }
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

  /// Raw mode and the alternate screen again after a stop, and a full redraw. Signal-safe.
  fileprivate static func resume() {
    _ = signal(SIGTSTP, restoreAndStop)
    if active.isSet && suspended.change(from: true, to: false) {
      _ = tcsetattr(0, TCSAFLUSH, &shared.pointee.raw)
      write(enterSequence)
    }
    resized.set(true)
    wake()
  }
}

// The handlers: file-level functions (a C function pointer each, no context), async-signal-safe
// calls only: write, tcsetattr, signal, raise, sigemptyset, sigaddset, pthread_sigmask.

/// SIGINT, SIGTERM, SIGHUP, SIGQUIT: the terminal put back, then the signal's own death.
private func restoreAndDie(_ sig: Int32) {
  if TTY.active.change(from: true, to: false) {
    TTY.write(TTY.restoreSequence)
    _ = tcsetattr(0, TCSAFLUSH, &TTY.shared.pointee.saved)
  }
  _ = signal(sig, SIG_DFL)
  _ = raise(sig)
}

/// SIGTSTP: restores the terminal and stops; on the way back (SIGCONT, or at once when the
/// stop is refused, as it is for an orphaned process group) takes the terminal again.
private func restoreAndStop(_: Int32) {
  if TTY.active.isSet && TTY.suspended.change(from: false, to: true) {
    TTY.write(TTY.restoreSequence)
    _ = tcsetattr(0, TCSAFLUSH, &TTY.shared.pointee.saved)
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

/// SIGCONT (a `kill -CONT` or `fg` with no SIGTSTP of ours before it).
private func onContinue(_: Int32) { TTY.resume() }

/// SIGWINCH: a redraw at the new size.
private func onResize(_: Int32) {
  TTY.resized.set(true)
  TTY.wake()
}
