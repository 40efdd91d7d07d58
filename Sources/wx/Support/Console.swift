import Glibc
import WXCore

/// Standard output and standard error as wx prints to them: one value, made once by the entry
/// point (``Main``, ``Console/standard()``) and handed to whatever prints, never a global. It
/// owns
/// - the writers: text for people (``out(_:newline:)``: escaped, fitted to the terminal's width,
///   coloured only when asked), messages (``err(_:newline:)``), JSON and scripts as given
///   (``data(_:)``), wx's own control sequences (``control(_:toStderr:)``);
/// - the terminal they shape text for: the one a command's context was made with
///   (``use(_:)``, by `Context.make`); before that, no width, no colour, Unicode. Views never
///   read it: they are given their terminal;
/// - the output-failure state: the first error writing to standard output, a reader gone
///   (EPIPE) aside, which ``Main/end(_:_:)`` turns into exit 74;
/// - the state-folder warnings, each said once a run, and held back while a full-screen view
///   owns the screen (``holdWarnings()``).
///
/// In-process tests make one that keeps what would be written (``init(capturing:)``).
final class Console: @unchecked Sendable {
  /// What text for people is shaped for.
  private(set) var terminal = Terminal(color: false, unicode: true, width: nil)
  /// The first error writing to standard output (EPIPE aside); EBADF when it was closed.
  private(set) var outputFailure: Int32?
  /// Standard output was closed when wx started (`wx list >&-`): nothing is written to it.
  private let outputClosed: Bool
  /// What was written, when capturing (tests): standard output's bytes, then standard error's.
  private var captured: (out: [UInt8], err: [UInt8])?
  private var warned: [String] = []
  private var heldWarnings: [String]?
  /// Notes and warnings are not written (`wx show --format`: a status bar's standard error
  /// is often its log, or its screen); errors still are.
  var notesMuted = false

  private init(outputClosed: Bool, capturing: Bool) {
    self.outputClosed = outputClosed
    captured = capturing ? ([], []) : nil
  }

  /// The process's own standard output and error. Opens /dev/null on any of descriptors 0–2
  /// that is closed, so no file wx opens (a store, the lock) lands on one and receives its
  /// output; a closed standard output is remembered and reported, not written to.
  static func standard() -> Console {
    var closed = false
    for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
      if fd == 1 { closed = true }
      let null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
      if null >= 0 && null != fd {
        dup2(null, fd)
        close(null)
      }
    }
    return Console(outputClosed: closed, capturing: false)
  }

  /// A console that writes nothing and keeps it all (``standardOutput``, ``standardError``),
  /// shaping text for `terminal`.
  init(capturing terminal: Terminal) {
    outputClosed = false
    captured = ([], [])
    self.terminal = terminal
  }

  /// What was written to standard output and standard error (a capturing console's).
  var standardOutput: String { String(decoding: captured?.out ?? [], as: UTF8.self) }
  var standardError: String { String(decoding: captured?.err ?? [], as: UTF8.self) }

  /// The writers shape what they print for `terminal` from now on.
  func use(_ terminal: Terminal) { self.terminal = terminal }

  /// Text for people on stdout, in one write: controls escaped (the colours the runner
  /// painted kept when colour is on), `°` `·` `…` `–` spelled in ASCII without Unicode, and
  /// each line cut to the terminal's width (never wrapped). A final newline is added unless
  /// `newline` is false. A line for another program (`fitted` false) is escaped but not cut.
  func out(_ text: String, newline: Bool = true, fitted: Bool = true) {
    let width = fitted ? terminal.width : nil
    write(1, Self.shape(text, colors: terminal.color, width: width, unicode: terminal.unicode), newline: newline)
  }

  /// A message on stderr: like ``out(_:newline:)`` but never coloured and never cut.
  func err(_ text: String, newline: Bool = true) {
    write(2, Self.shape(text, colors: false, width: nil, unicode: terminal.unicode), newline: newline)
  }

  /// JSON, or a completion script: written exactly as given (JSON escapes its own controls).
  func data(_ text: String) { write(1, text, newline: true) }

  /// The program's own control sequences (cursor moves, clearing a line), written as given.
  func control(_ sequence: String, toStderr: Bool = false) { write(toStderr ? 2 : 1, sequence, newline: false) }

  /// `wx: warning: <what is wrong>; <consequence>` on stderr, once per file (or message) a
  /// run; kept instead while warnings are held.
  /// A note on standard error (``err(_:newline:)``), unless notes are muted.
  func note(_ text: String) { if !notesMuted { err(text) } }

  func warn(_ error: any Error, _ consequence: String) {
    let key = (error as? StoreError)?.path ?? "\(error)"
    guard !warned.contains(key), !notesMuted else { return }
    warned.append(key)
    let message = "warning: \(ExitStatus.of(error).1); \(consequence)"
    if heldWarnings != nil { heldWarnings?.append(message) } else { err("wx: " + message) }
  }

  /// Warnings are kept from now on (`wx browse` shows them on its status line instead of
  /// writing them over the screen) until ``releaseWarnings()``.
  func holdWarnings() { heldWarnings = heldWarnings ?? [] }

  /// The warnings kept since they were held or last taken.
  func takeWarnings() -> [String] {
    defer { if heldWarnings != nil { heldWarnings = [] } }
    return heldWarnings ?? []
  }

  /// Warnings are written again.
  func releaseWarnings() { heldWarnings = nil }

  static func shape(_ text: String, colors: Bool, width: Int?, unicode: Bool) -> String {
    var t = Escape.visible(text, newlines: true, keepingColors: colors)
    if !unicode { t = ASCII.spell(t) }
    guard let width else { return t }
    if !t.utf8.contains(where: { $0 >= 0x80 || $0 == 0x1B })
      && !t.split(separator: "\n").contains(where: { $0.utf8.count > width })
    {
      return t
    }
    return t.split(separator: "\n", omittingEmptySubsequences: false)
      .map { DisplayWidth.truncate(String($0), to: width, ellipsis: unicode ? "…" : "~") }
      .joined(with: "\n")
  }

  private func write(_ fd: Int32, _ text: String, newline: Bool) {
    if fd == 1 && outputClosed {
      outputFailure = outputFailure ?? EBADF
      return
    }
    var t = text
    if newline && !t.hasSuffix("\n") { t += "\n" }
    if captured != nil {
      if fd == 1 { captured!.out += t.utf8 } else { captured!.err += t.utf8 }
      return
    }
    t.withUTF8 { u in
      var off = 0
      while off < u.count {
        let n = Glibc.write(fd, u.baseAddress! + off, u.count - off)
        if n < 0 && errno == EINTR { continue }
        if n < 0 && errno == EAGAIN {
          // A descriptor another program left non-blocking: wait until it takes more.
          var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
          if poll(&ready, 1, -1) >= 0 || errno == EINTR { continue }
        }
        if n <= 0 {
          let e = n < 0 ? errno : EIO
          if fd == 1 && e != EPIPE && outputFailure == nil { outputFailure = e }
          return
        }
        off += n
      }
    }
  }
}
