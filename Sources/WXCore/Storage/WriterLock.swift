import Glibc

/// wx's own writer lock: `flock(LOCK_EX)` on `wx.lock` in the state folder.
///
/// GDBM's lock never waits, and the files wx publishes by `rename(2)` cannot carry a lock
/// themselves (a lock on a replaced inode protects nothing), so every writer, sync and
/// favourites alike, first takes this lock, which lives in a file that is never renamed
/// or deleted. The holder's pid is written into it so a busy message can name it.
///
/// Functions that replace a store take the held lock as their `holding:` argument: the
/// compiler, not a comment, says who may call them.
package final class WriterLock {
  private var fd: Int32
  /// The state folder this lock serialises.
  package let directory: String

  /// Temp files of killed writers this holder removed on taking the lock.
  package private(set) var removedTemps = 0

  /// Takes the lock, retrying with backoff until `deadline` seconds have passed. Creates the
  /// state folder (or tightens it to 0700: see ``FileSystem/makeDirectory(_:)``) first, and
  /// removes the temp files killed writers left once it holds the lock.
  ///
  /// `wx.lock` is opened with `O_NOFOLLOW` and must be a regular file of this user with one
  /// link (``StateFile``): a planted link or FIFO is refused, never followed or truncated.
  package init(directory: String, deadline: Double) throws(StoreError) {
    try FileSystem.makeDirectory(directory)
    self.directory = directory
    let path = directory + "/" + FileSystem.StateFileName.lock
    fd = try StateFile.open(path, .lock).fd
    var backoff = Backoff(deadline: deadline)
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let e = errno
      if e != EWOULDBLOCK && e != EINTR {
        Glibc.close(fd)
        throw .io(path: path, operation: "locking", errno: e)
      }
      if !backoff.wait() {
        let holder = Self.holder(fd)
        Glibc.close(fd)
        throw .busy(path: path, holder: holder)
      }
    }
    var pid = Array("\(getpid())\n".utf8)
    _ = ftruncate(fd, 0)
    _ = pwrite(fd, &pid, pid.count, 0)
    removedTemps = FileSystem.removeTemps(in: directory)
  }

  deinit { release() }

  /// Releases the lock (also done by deinit, and by the kernel if the process dies).
  package func release() {
    guard fd >= 0 else { return }
    _ = flock(fd, LOCK_UN)
    Glibc.close(fd)
    fd = -1
  }

  /// Where a state folder's writers take the lock and how long they wait for it: what every
  /// store that changes files in the folder needs to know.
  package struct Policy: Sendable, Equatable {
    package var directory: String
    package var deadline: Double

    package init(directory: String, deadline: Double) {
      self.directory = directory
      self.deadline = deadline
    }

    /// Takes the lock (see ``WriterLock/init(directory:deadline:)``).
    package func acquire() throws(StoreError) -> WriterLock {
      try WriterLock(directory: directory, deadline: deadline)
    }
  }

  private static func holder(_ fd: Int32) -> Int32? {
    var buf = [UInt8](repeating: 0, count: 16)
    let n = pread(fd, &buf, buf.count, 0)
    guard n > 0, let pid = Int32(String(decoding: buf[0..<n], as: UTF8.self).split(separator: "\n").first ?? ""),
      pid > 0
    else { return nil }
    // The pid of a holder that died is stale: the lock is then held by something else (a
    // process that locks the file without writing its pid), so name no one.
    return kill(pid, 0) == 0 || errno == EPERM ? pid : nil
  }
}
