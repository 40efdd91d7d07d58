internal import CGDBM
import Glibc

/// The temp files being written, for a signal handler to remove: Ctrl-C (SIGINT), SIGTERM or
/// SIGHUP during a sync removes its temp file (11 MB at 170k cities) on the way out, instead of
/// leaving it for the next writer (``removeOnTermination()``).
///
/// A signal handler may make only async-signal-safe calls and read only memory that cannot
/// move or be freed under it. So the paths live in one C buffer, allocated before the handler
/// is installed and never freed, in slots of a fixed size: a flag byte, then the path, ending
/// with NUL. A path is copied in before its flag is set, and the flag cleared before the slot is
/// given up (atomic stores: the handler reads a whole path or none). The handler unlinks each
/// path it takes over, puts the signal's default action back and raises it again: wx dies of
/// the signal, as it would have.
///
/// A slot's flag: 0 free, 1 a temp file being written, 2 taken by the handler (being removed),
/// 3 being published. The handler and a publishing thread each take a slot from 1 with one
/// atomic compare-and-exchange, so exactly one of them has it: a signal never removes a file
/// being renamed into place, and a thread whose file the handler took never publishes or
/// reports its loss as an error (``publishing(_:)`` waits for the signal to end wx).
package enum TempFiles {
  /// Temp files written at once (a sync writes one; a repair, two).
  static var slots: Int { 8 }
  /// The flag byte, a path of up to PATH_MAX - 1 bytes, its NUL.
  static var slotSize: Int { 1 + Int(PATH_MAX) }

  nonisolated(unsafe) fileprivate static let buffer: UnsafeMutablePointer<UInt8> = {
    let b = UnsafeMutablePointer<UInt8>.allocate(capacity: slots * slotSize)
    b.initialize(repeating: 0, count: slots * slotSize)
    return b
  }()
  /// Guards claiming and giving up slots (never taken by the handler).
  nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
    let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(m, nil)
    return m
  }()

  /// A registered temp file; give it back with ``unregister(_:)``.
  package struct Slot: Sendable {
    fileprivate let index: Int
  }

  /// Records `path` for the handler; nil when every slot is taken or the path is too long
  /// (it is then left, as before, to the next writer).
  package static func register(_ path: String) -> Slot? {
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, bytes.count < slotSize - 1, !bytes.contains(0) else { return nil }
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    for k in 0..<slots where buffer[k * slotSize] == 0 {
      let slot = buffer + k * slotSize
      bytes.withUnsafeBufferPointer { (slot + 1).update(from: $0.baseAddress!, count: $0.count) }
      slot[1 + bytes.count] = 0
      wx_byte_store(slot, 1)  // the path is in memory before the flag says so
      return Slot(index: k)
    }
    return nil
  }

  /// Forgets a temp file: it was published (renamed) or removed.
  package static func unregister(_ slot: Slot?) {
    guard let slot else { return }
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    wx_byte_store(buffer + slot.index * slotSize, 0)
  }

  /// Takes the temp file over for its rename into place; when a termination signal's handler
  /// took it first (and removed it), waits for that signal to end wx instead of going on.
  ///
  /// A signal already sent but not yet taken counts as taken. Only the main thread takes
  /// SIGINT, SIGTERM and SIGHUP (Dispatch's threads, where a sync writes, block them), so a
  /// Ctrl-C that arrives while the main thread waits for a core stays pending while this thread
  /// runs on: CI saw a sync stopped before its rename get SIGTERM and SIGCONT, publish, and
  /// exit 0 before the main thread ever ran. So the publisher first waits (up to 10 s, in case
  /// no thread takes it) for a pending termination signal to be handled, which removes the file
  /// and ends wx.
  package static func publishing(_ slot: Slot?) {
    guard let slot else { return }
    var waited = 0
    while terminationPending() && waited < 10_000 {
      usleep(1_000)
      waited += 1
    }
    if wx_byte_exchange(buffer + slot.index * slotSize, 1, 3) != 0 { return }
    while true { pause() }
  }

  /// SIGINT, SIGTERM or SIGHUP sent to wx and not yet handled: `sigpending` reports the
  /// process's pending signals that this thread blocks (a thread that does not block them
  /// would already have run the handler on its way back from the kernel).
  static func terminationPending() -> Bool {
    var set = sigset_t()
    sigemptyset(&set)
    guard sigpending(&set) == 0 else { return false }
    return [SIGINT, SIGTERM, SIGHUP].contains { sigismember(&set, $0) == 1 }
  }

  /// The paths registered now (for tests).
  static var registered: [String] {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return (0..<slots).filter { buffer[$0 * slotSize] != 0 }.map { String(cString: buffer + $0 * slotSize + 1) }
  }

  /// Installs the handler for SIGINT, SIGTERM and SIGHUP, except for a signal ignored when wx
  /// started (`nohup wx sync`), which stays ignored.
  package static func removeOnTermination() {
    _ = buffer  // allocated before any handler can run
    for sig in [SIGINT, SIGTERM, SIGHUP] {
      var current = sigaction()
      guard sigaction(sig, nil, &current) == 0 else { continue }
      let ignored = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
      if !ignored { _ = signal(sig, removeTempFilesAndDie) }
    }
  }

}

/// The handler: a file-level function (a C function pointer, no context). Only async-signal-safe
/// calls (unlink, signal, raise) and atomic exchanges on ``TempFiles``'s buffer, which was
/// allocated and zeroed before the handler was installed and is never freed; the slots' count
/// and size are constants.
private func removeTempFilesAndDie(_ sig: Int32) {
  let b = TempFiles.buffer
  var k = 0
  while k < TempFiles.slots {
    let slot = b + k * TempFiles.slotSize
    if wx_byte_exchange(slot, 1, 2) != 0 { _ = unlink(UnsafeRawPointer(slot + 1).assumingMemoryBound(to: CChar.self)) }
    k += 1
  }
  _ = signal(sig, SIG_DFL)
  _ = raise(sig)
}
