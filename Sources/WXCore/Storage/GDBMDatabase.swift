internal import CGDBM

import Glibc

/// One open GDBM file. The class is the only owner of its `GDBM_FILE` handle: `close()`
/// is idempotent and `deinit` closes a handle that was not closed explicitly.
///
/// Facts about GDBM 1.23 that shape this type (see the project notes on GDBM):
/// - `gdbm_open` never waits for a lock; callers serialise writers with ``WriterLock`` and
///   readers retry `GDBM_CANT_BE_READER` briefly.
/// - `GDBM_CLOEXEC` is always passed, so a child process never inherits the lock.
/// - A successful open proves little: the magic is sniffed first and `gdbm_needs_recovery`
///   is checked after.
/// - Empty keys and values are never stored (1.23 cannot dump them).
package final class GDBMDatabase {
  package enum Mode: Sendable {
    /// Shared read-only access to an existing file.
    case reader
    /// As ``reader``, the file mapped: for reading every value (`wx doctor`'s checks), where
    /// a read(2) and an lseek(2) for each were two fifths of the time.
    case scanner
    /// Exclusive access to a new, empty file (truncating one that exists).
    case create
    /// Exclusive read-write access to an existing file.
    case writer
  }

  package let path: String
  private let mode: Mode
  private var handle: OpaquePointer?

  /// What readers of the search index decoded from this handle, kept while it is open
  /// (``CityIndexCache``: a read-only handle's file never changes under it); nil for a handle
  /// that writes.
  package private(set) lazy var indexCache: CityIndexCache? = mode == .reader || mode == .scanner ? CityIndexCache() : nil

  /// Opens `path`. Readers retry a held GDBM lock until `lockDeadline` (seconds) passes.
  package init(path: String, mode: Mode, lockDeadline: Double = 2) throws(StoreError) {
    self.path = path
    self.mode = mode
    // GDBM opens by name, following links; wx opens the file itself (O_NOFOLLOW, checked
    // with fstat: see StateFile) and hands GDBM the descriptor, so what was checked is what
    // GDBM reads. A temp file is created with O_EXCL.
    let (fd, info) = try StateFile.open(path, mode == .create ? .create : mode == .writer ? .write : .read)
    // A new file exists, unlocked, until gdbm_fd_open locks it (the clean-up race's moment).
    if mode == .create { Failpoint.crash("temp_created") }
    do throws(StoreError) {
      if mode != .create { try Self.preflight(path, fd: fd, size: Int64(info.st_size)) }
    } catch {
      Glibc.close(fd)
      throw error
    }
    var flags: Int32
    switch mode {
    // Readers do not map the file: a read command makes a few dozen fetches, and mapping,
    // faulting in and unmapping a 48 MiB catalogue cost more than the reads themselves
    // (`wx search par` at 170k cities: 4.0 -> 2.8 ms). A new file is not mapped either: GDBM
    // then writes with pwrite, and storing a catalogue takes a third of the time (the final
    // msync of a growing map was most of it: scripts/gdbm-floor.c, 170k cities 1.5 -> 0.5 s).
    case .reader: flags = GDBM_READER | GDBM_NOMMAP
    case .scanner: flags = GDBM_READER
    case .create: flags = GDBM_NEWDB | GDBM_NOMMAP
    case .writer: flags = GDBM_WRITER
    }
    flags |= GDBM_CLOEXEC
    var backoff = Backoff(deadline: lockDeadline)
    while true {
      // Without GDBM_CLOERROR a failed gdbm_fd_open leaves the descriptor open (ours to close).
      if let h = gdbm_fd_open(fd, path, 0, flags, nil) {
        handle = h
        break
      }
      let code = Int(gdbm_errno_location().pointee)
      let sys = errno
      if (code == Int(GDBM_CANT_BE_READER) || code == Int(GDBM_CANT_BE_WRITER)) && backoff.wait() { continue }
      Glibc.close(fd)
      if mode == .create { unlink(path) }
      if code == Int(GDBM_CANT_BE_READER) || code == Int(GDBM_CANT_BE_WRITER) { throw .busy(path: path, holder: nil) }
      throw Self.openError(path: path, code: code, errno: sys)
    }
    if gdbm_needs_recovery(handle) != 0 {
      gdbm_close(handle)
      handle = nil
      throw .damaged(path: path, detail: "the file was left half-written")
    }
    if mode == .reader {
      // A reader's fetches fall in scattered buckets, and GDBM's cache, left to size itself,
      // allocated and zeroed a new 4 KiB element for each (calloc: 0.44 M instructions and a
      // hundred page faults of `wx search par` at a million cities). A fixed cache of one
      // reuses its element: of four, no fetch of `search`, `show`, `list` or `top` hit the
      // other three, which cost heap pages (the same 380 system calls either way).
      var size = Self.readerCacheBuckets
      _ = gdbm_setopt(handle, GDBM_SETCACHESIZE, &size, Int32(MemoryLayout<Int>.size))
    }
  }

  /// Buckets a reader's cache holds.
  static let readerCacheBuckets = 1

  deinit {
    if let handle { gdbm_close(handle) }
  }

  /// Closes the file; reports a failed final write-back. Safe to call twice.
  package func close() throws(StoreError) {
    guard let h = handle else { return }
    handle = nil
    if gdbm_close(h) != 0 { throw .io(path: path, operation: "closing", errno: errno) }
  }

  /// The file descriptor, for `fsync`.
  package var fileDescriptor: Int32 {
    guard let handle else { return -1 }
    return gdbm_fdesc(handle)
  }

  /// The value under `key`, or nil when the key is absent.
  package func fetch(_ key: [UInt8]) throws(StoreError) -> [UInt8]? {
    let h = try live()
    var k = key
    let d = k.withUnsafeMutableBytes { raw -> datum in
      let p = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
      return gdbm_fetch(h, datum(dptr: p, dsize: Int32(raw.count)))
    }
    guard let ptr = d.dptr else {
      let code = Int(gdbm_last_errno(h))
      if code == Int(GDBM_ITEM_NOT_FOUND) || code == Int(GDBM_NO_ERROR) { return nil }
      throw failure("reading", code: code)
    }
    defer { free(ptr) }
    return [UInt8](UnsafeRawBufferPointer(start: ptr, count: Int(d.dsize)))
  }

  /// Stores `value` under `key`, replacing any previous value. Neither may be empty.
  package func store(_ key: [UInt8], _ value: [UInt8]) throws(StoreError) {
    precondition(!key.isEmpty && !value.isEmpty, "GDBM keys and values must not be empty")
    guard key.count <= Int(Int32.max), value.count <= Int(Int32.max) else {
      throw .io(path: path, operation: "writing", errno: EFBIG)
    }
    if let failure = Failpoint.injectedErrno("store") {
      throw .io(path: path, operation: "writing", errno: failure)
    }
    let h = try live()
    var k = key
    var v = value
    let rc = k.withUnsafeMutableBytes { kr in
      v.withUnsafeMutableBytes { vr in
        gdbm_store(
          h, datum(dptr: kr.baseAddress!.assumingMemoryBound(to: CChar.self), dsize: Int32(kr.count)),
          datum(dptr: vr.baseAddress!.assumingMemoryBound(to: CChar.self), dsize: Int32(vr.count)),
          GDBM_REPLACE)
      }
    }
    if rc != 0 { throw failure("writing", code: Int(gdbm_last_errno(h))) }
  }

  /// Removes `key`; false when it was absent. (wx replaces files whole: tests use it to
  /// take a block out of one.)
  package func delete(_ key: [UInt8]) throws(StoreError) -> Bool {
    let h = try live()
    var k = key
    let rc = k.withUnsafeMutableBytes { raw in
      gdbm_delete(h, datum(dptr: raw.baseAddress!.assumingMemoryBound(to: CChar.self), dsize: Int32(raw.count)))
    }
    if rc == 0 { return true }
    let code = Int(gdbm_last_errno(h))
    if code == Int(GDBM_ITEM_NOT_FOUND) { return false }
    throw failure("writing", code: code)
  }

  /// Every key in the file, in GDBM's hash order. Collect first, then mutate.
  package func keys() throws(StoreError) -> [[UInt8]] {
    let h = try live()
    var result: [[UInt8]] = []
    var key = gdbm_firstkey(h)
    while let ptr = key.dptr {
      result.append([UInt8](UnsafeRawBufferPointer(start: ptr, count: Int(key.dsize))))
      let next = gdbm_nextkey(h, key)
      free(ptr)
      key = next
    }
    let code = Int(gdbm_last_errno(h))
    if code != Int(GDBM_ITEM_NOT_FOUND) && code != Int(GDBM_NO_ERROR) {
      throw failure("reading", code: code)
    }
    return result
  }

  /// Flushes GDBM's buffers and the file's data to disk.
  package func sync() throws(StoreError) {
    let h = try live()
    if gdbm_sync(h) != 0 { throw failure("syncing", code: Int(gdbm_last_errno(h))) }
    if let failure = Failpoint.injectedErrno("fsync") {
      throw .io(path: path, operation: "syncing", errno: failure)
    }
    if fsync(gdbm_fdesc(h)) != 0 { throw .io(path: path, operation: "syncing", errno: errno) }
  }

  private func live() throws(StoreError) -> OpaquePointer {
    guard let handle else { throw .io(path: path, operation: "using a closed handle for", errno: EBADF) }
    return handle
  }

  private func failure(_ operation: String, code: Int) -> StoreError {
    guard let h = handle else { return .io(path: path, operation: operation, errno: EBADF) }
    if gdbm_check_syserr(Int32(code)) != 0 {
      let sys = gdbm_last_syserr(h)
      // A seek to an offset no file has (EINVAL) is a table that points outside the file:
      // damage, which `wx doctor --repair` mends, not the disk's failure.
      if sys == EINVAL && operation == "reading" { return .damaged(path: path, detail: "its tables point outside the file") }
      return .io(path: path, operation: operation, errno: sys)
    }
    return .damaged(path: path, detail: Self.describe(code))
  }

  /// wx's own words for what a GDBM error code says about a file (GDBM's messages, such as
  /// "malformed database file header", are never shown).
  private static func describe(_ code: Int) -> String {
    switch code {
    case Int(GDBM_BAD_MAGIC_NUMBER): return "no GDBM magic number"
    case Int(GDBM_EMPTY_DATABASE): return "the file is empty"
    case Int(GDBM_FILE_EOF): return "the file ends too early, as if truncated"
    case Int(GDBM_BAD_HEADER): return "its header does not match its size, as if truncated"
    case Int(GDBM_BYTE_SWAPPED): return "byte-swapped GDBM file"
    case Int(GDBM_BAD_FILE_OFFSET): return "it points past its own end, as if truncated"
    case Int(GDBM_BLOCK_SIZE_ERROR): return "its block size is impossible"
    case Int(GDBM_BAD_BUCKET), Int(GDBM_BAD_DIR_ENTRY), Int(GDBM_DIR_OVERFLOW), Int(GDBM_BAD_HASH_TABLE),
      Int(GDBM_BAD_HASH_ENTRY), Int(GDBM_BAD_AVAIL), Int(GDBM_BUCKET_CACHE_CORRUPTED):
      return "its internal tables are inconsistent"
    case Int(GDBM_NEED_RECOVERY): return "the file was left half-written"
    case Int(GDBM_MALFORMED_DATA): return "a stored value is malformed"
    default: return "unexpected GDBM error \(code)"
    }
  }

  private static func openError(path: String, code: Int, errno sys: Int32) -> StoreError {
    switch code {
    case Int(GDBM_FILE_OPEN_ERROR):
      if sys == ENOENT { return .missing(path: path) }
      if sys == EACCES || sys == EPERM { return .permission(path: path) }
      if sys == EISDIR { return .notAStore(path: path, reason: "it is a folder") }
      return .io(path: path, operation: "opening", errno: sys)
    case Int(GDBM_EMPTY_DATABASE): return .notAStore(path: path, reason: "the file is empty")
    case Int(GDBM_BAD_MAGIC_NUMBER), Int(GDBM_FILE_EOF), Int(GDBM_BAD_HEADER), Int(GDBM_BYTE_SWAPPED),
      Int(GDBM_BAD_FILE_OFFSET), Int(GDBM_BLOCK_SIZE_ERROR):
      return .notAStore(path: path, reason: describe(code))
    default:
      if gdbm_check_syserr(Int32(code)) != 0 { return .io(path: path, operation: "opening", errno: sys) }
      return .damaged(path: path, detail: describe(code))
    }
  }

  /// Rejects what GDBM would open wrongly or not at all, before calling it: an empty file (a
  /// writer open would silently make it a new database), a file shorter than a GDBM header,
  /// and foreign magic numbers. (StateFile has already refused links, folders and FIFOs.)
  private static func preflight(_ path: String, fd: Int32, size: Int64) throws(StoreError) {
    if size == 0 { throw .notAStore(path: path, reason: "the file is empty") }
    if size < 40 { throw .notAStore(path: path, reason: "the file is too short for a GDBM header") }
    var magic: UInt32 = 0
    guard pread(fd, &magic, 4, 0) == 4 else { throw .notAStore(path: path, reason: "unreadable header") }
    switch magic {
    case 0x1357_9ACF, 0x1357_9AD1, 0x1357_9ACE: return
    case 0xCF9A_5713, 0xD19A_5713, 0xCE9A_5713: throw .notAStore(path: path, reason: "byte-swapped GDBM file")
    default: throw .notAStore(path: path, reason: "no GDBM magic number")
    }
  }
}

/// Exponential backoff with jitter: 1 ms doubling to a 50 ms cap, until a deadline.
package struct Backoff {
  private var delay = 0.001
  private let end: Double
  private let now: () -> Double
  private let pause: (Double) -> Void

  package init(deadline seconds: Double) { self.init(deadline: seconds, now: Clock.monotonic, pause: Self.sleep) }

  /// On the clock and the sleep given (tests count the pauses instead of timing them).
  package init(deadline seconds: Double, now: @escaping () -> Double, pause: @escaping (Double) -> Void) {
    (self.now, self.pause) = (now, pause)
    end = now() + seconds
  }

  /// Sleeps and returns true while the deadline has not passed; false once it has.
  package mutating func wait() -> Bool {
    let t = now()
    guard t < end else { return false }
    let jitter = 0.5 + Double(UInt8.random(in: 0...255)) / 255
    pause(min(delay * jitter, end - t))
    delay = min(delay * 2, 0.05)
    return true
  }

  private static func sleep(_ seconds: Double) {
    var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    nanosleep(&ts, nil)
  }
}
