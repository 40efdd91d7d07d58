internal import CGDBM

import Glibc

/// The few filesystem operations wx needs, with errors naming the path.
package enum FileSystem {
  package static func exists(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0
  }

  /// Where a damaged file is kept: `<path>.broken-<UTC time>`.
  package static func brokenName(_ path: String) -> String {
    "\(path).broken-\(Clock.format(Clock.now(), "%Y%m%d-%H%M%S", utc: true))"
  }

  /// Keeps a copy of the file at `path` beside it as `<path>.broken-<time>` (``brokenName(_:)``;
  /// `-2`, `-3`… when that name is taken: an older copy is never replaced), leaving `path`
  /// itself where it is: a hard link, or where the filesystem refuses one, a copy written to a
  /// temp file, `fsync`ed and linked into place. The caller `fsync`s the folder (a repair's
  /// publication does). Returns the copy's path; throws, leaving nothing, when neither works.
  ///
  /// Passes the `link:EPERM` (forces the copy) and `copy:ENOSPC`/`copy:EIO` (forces a copy
  /// that fails) failpoints.
  package static func keepCopy(_ path: String) throws(StoreError) -> String {
    let base = brokenName(path)
    var n = 1
    while true {
      let backup = n == 1 ? base : "\(base)-\(n)"
      let e: Int32
      if let injected = Failpoint.injectedErrno("link") ?? Failpoint.injectedErrno("copy").map({ _ in EPERM }) {
        e = injected
      } else {
        e = Glibc.link(path, backup) == 0 ? 0 : errno
      }
      switch e {
      case 0: return backup
      case EEXIST: n += 1
      case EPERM, EMLINK, EXDEV, ENOTSUP:
        // No hard link here: copy (a file of the same name appearing meanwhile is not replaced).
        if try copy(path, to: backup) { return backup }
        n += 1
      default: throw .io(path: backup, operation: "keeping a copy of \(path) as", errno: e)
      }
    }
  }

  /// Publishes a copy of `source` as `path`: a temp file beside it, written and `fsync`ed,
  /// renamed into place, the folder `fsync`ed (``StoreBuilder``'s sequence, for a file that is
  /// copied rather than built). The caller holds the writer lock.
  package static func publishCopy(of source: String, to path: String) throws(StoreError) {
    let temp = tempName(for: path)
    let slot = TempFiles.register(temp)
    defer { TempFiles.unregister(slot) }
    do throws(StoreError) {
      guard try copy(source, to: temp) else { throw .io(path: temp, operation: "creating", errno: EEXIST) }
      Failpoint.crash("after_tmp_written")
      TempFiles.publishing(slot)
      try rename(temp, to: path)
    } catch {
      unlink(temp)
      throw error
    }
    try syncDirectory(directoryName(path))
  }

  /// When `path` was last modified (nil when it cannot be read).
  static func modified(_ path: String) -> timespec? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return st.st_mtim
  }

  /// Copies `path` to a new file `to` (`O_EXCL`), `fsync`ed; false when `to` exists. A copy
  /// that fails is removed (the original is untouched either way).
  private static func copy(_ path: String, to: String) throws(StoreError) -> Bool {
    let bytes = try read(path, followLinks: false)
    let fd: Int32
    do throws(StoreError) {
      fd = try StateFile.open(to, .create).fd
    } catch {
      if case .io(_, _, EEXIST) = error { return false }
      throw error
    }
    var failure: Int32 = 0
    var done = 0
    while done < bytes.count && failure == 0 {
      if let injected = Failpoint.injectedErrno("copy") {
        failure = injected
        break
      }
      let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
      if n < 0 {
        if errno != EINTR { failure = errno }
        continue
      }
      done += n
    }
    if failure == 0 && fsync(fd) != 0 { failure = errno }
    Glibc.close(fd)
    if failure != 0 {
      unlink(to)
      throw .io(path: to, operation: "writing", errno: failure)
    }
    return true
  }

  package static func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
  }

  package static func size(_ path: String) -> Int64? {
    var st = stat()
    guard lstat(path, &st) == 0 else { return nil }
    return Int64(st.st_size)
  }

  /// Creates `path` and its parents with mode 0700 where missing, and makes sure an existing
  /// state folder is private: one of ours that others may read or write, and that holds
  /// nothing but wx's own files (``isStateFileName(_:)``), is tightened to 0700; a folder that
  /// holds anything else (a home folder, `/`) keeps its mode, and is refused if others may
  /// write to it, as is a shared one (sticky and world-writable, like /tmp) or someone else's
  /// that others may write to. A state folder may be reached through a symbolic link (or live
  /// under one); its files may not (see ``StateFile``).
  package static func makeDirectory(_ path: String) throws(StoreError) {
    var st = stat()
    if stat(path, &st) == 0 {
      guard (st.st_mode & S_IFMT) == S_IFDIR else {
        throw .unusable(path: path, reason: "it is not a folder (or part of its path is a file)", remedy: .useAFolder)
      }
      try secure(path, st)
      return
    }
    if errno == ENOTDIR {
      throw .unusable(path: path, reason: "it is not a folder (or part of its path is a file)", remedy: .useAFolder)
    }
    // Create each missing ancestor in turn: "/a/b/c" -> "/a", "/a/b", "/a/b/c".
    let bytes = Array(path.utf8)
    for end in bytes.indices where end > 0 && (bytes[end] == UInt8(ascii: "/") || end == bytes.count - 1) {
      let prefix = String(decoding: bytes[...(bytes[end] == UInt8(ascii: "/") ? end - 1 : end)], as: UTF8.self)
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
        let e = errno
        if e == EACCES || e == EPERM { throw .permission(path: prefix) }
        if e == ENOTDIR {
          throw .unusable(path: path, reason: "it is not a folder (or part of its path is a file)", remedy: .useAFolder)
        }
        throw .io(path: prefix, operation: "creating", errno: e)
      }
    }
  }

  /// The state folder's permission rules (see ``makeDirectory(_:)``).
  private static func secure(_ path: String, _ st: stat) throws(StoreError) {
    let mode = st.st_mode & 0o7777
    let others = mode & 0o022 != 0
    if st.st_uid != geteuid() {
      if others {
        throw .unusable(
          path: path, reason: "the state folder belongs to uid \(st.st_uid) and others can write to it",
          remedy: .useAPrivateFolder)
      }
      return
    }
    if mode & S_ISVTX != 0 && mode & 0o002 != 0 {
      throw .unusable(path: path, reason: "it is a shared folder (like /tmp)", remedy: .useAPrivateFolder)
    }
    guard mode & 0o077 != 0 else { return }
    // Only a folder of wx's own is wx's to tighten: never a home folder or `/` named as one.
    if !list(path).allSatisfy(isStateFileName) {
      if others {
        throw .unusable(
          path: path, reason: "others can write to the state folder, which holds files that are not wx's",
          remedy: .useAPrivateFolder)
      }
      return
    }
    if chmod(path, mode & ~0o077) != 0 && others {
      throw .unusable(
        path: path, reason: "others can write to the state folder and wx cannot change its mode to 0700",
        remedy: .useAPrivateFolder)
    }
  }

  /// The files wx keeps in a state folder, by name.
  package enum StateFileName {
    package static let catalogue = "catalogue.gdbm"
    package static let preferences = "prefs.gdbm"
    package static let favourites = "favourites.gdbm"
    package static let aqi = "aqi.gdbm"
    package static let atlas = "atlas.gdbm"
    package static let alerts = "alerts.gdbm"
    package static let lock = "wx.lock"
    /// The shared sample catalogue in `share/wx` (never in a state folder).
    package static let sharedSample = "sample-catalogue.gdbm"
    static let all = [catalogue, preferences, favourites, aqi, atlas, alerts, lock]
  }

  /// The names wx gives what it keeps in a state folder: its stores, its lock, their temp
  /// files and the copies it sets aside (`<name>.broken-<time>`), and NFS's placeholders of them.
  package static func isStateFileName(_ name: String) -> Bool {
    // NFS keeps a removed file that is still open as `.nfsXXXX` until it is closed.
    if isTempName(name) || name.hasPrefix(".nfs") { return true }
    for base in StateFileName.all where name == base || name.hasPrefix(base + ".broken-") {
      return true
    }
    return false
  }

  /// `rename(2)`: atomically replaces `to`.
  package static func rename(_ from: String, to: String) throws(StoreError) {
    if Glibc.rename(from, to) != 0 { throw .io(path: to, operation: "replacing", errno: errno) }
  }

  /// Swaps the files `a` and `b` in one step (`renameat2(RENAME_EXCHANGE)`).
  package static func exchange(_ a: String, _ b: String) throws(StoreError) {
    if wx_exchange(a, b) != 0 { throw .io(path: a, operation: "exchanging \(b) and", errno: errno) }
  }

  /// Makes a rename in `directory` durable.
  package static func syncDirectory(_ directory: String) throws(StoreError) {
    let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw .io(path: directory, operation: "opening", errno: errno) }
    defer { Glibc.close(fd) }
    if fsync(fd) != 0 { throw .io(path: directory, operation: "syncing", errno: errno) }
  }

  package static func remove(_ path: String) { unlink(path) }

  /// Sets `path`'s permission bits.
  package static func setMode(_ path: String, _ mode: UInt32) throws(StoreError) {
    if chmod(path, mode) != 0 { throw .io(path: path, operation: "setting the mode of", errno: errno) }
  }

  /// Names in `directory` (no `.`/`..`).
  package static func list(_ directory: String) -> [String] {
    guard let dir = opendir(directory) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// Reads a whole file: the bundled sample, test fixtures, or (with `followLinks: false`) a
  /// store being salvaged.
  package static func read(_ path: String, followLinks: Bool = true) throws(StoreError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW | O_NONBLOCK))
    guard fd >= 0 else {
      let e = errno
      if e == ENOENT { throw .missing(path: path) }
      throw .io(path: path, operation: "reading", errno: e)
    }
    defer { Glibc.close(fd) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = Glibc.read(fd, &buf, buf.count)
      if n < 0 {
        if errno == EINTR { continue }
        throw .io(path: path, operation: "reading", errno: errno)
      }
      if n == 0 { break }
      out.append(contentsOf: buf[0..<n])
    }
    return out
  }

  /// A fresh temp name beside `path`: `.<name>.tmp.<pid>.<random>` (created with O_EXCL).
  package static func tempName(for path: String) -> String {
    "\(directoryName(path))/.\(baseName(path)).tmp.\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
  }

  /// Whether `name` is one of wx's temp files (`.<name>.tmp.<…>`).
  package static func isTempName(_ name: String) -> Bool {
    name.hasPrefix(".") && name.dropFirst().contains(".tmp.")
  }

  /// Whether the temp file at `path` is being written: GDBM holds a `flock` on the files it
  /// writes (a sync streams into its temp file before it takes the ``WriterLock``).
  package static func isInUse(_ path: String) -> Bool {
    let fd = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { Glibc.close(fd) }
    return flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
  }

  /// Whether the temp file `name` in `directory` is provably a dead writer's: its name's
  /// pid (`.<name>.tmp.<pid>.<random>`) is no running process's and no one holds it locked.
  /// A writer creates its temp file before GDBM locks it, so a lock alone proves nothing in
  /// that moment; the pid does. A temp name without a pid (an older wx's) is dead once it is
  /// unlocked and untouched for ten minutes.
  package static func isAbandoned(_ name: String, in directory: String) -> Bool {
    let path = directory + "/" + name
    guard isTempName(name) else { return false }
    if let pid = tempPid(name) {
      if pid == getpid() || kill(pid, 0) == 0 || errno == EPERM { return false }
    } else {
      var st = stat()
      guard lstat(path, &st) == 0, Clock.now() - Int64(st.st_mtim.tv_sec) > 600 else { return false }
    }
    return !isInUse(path)
  }

  /// The pid in a temp file's name (`.<name>.tmp.<pid>.<random>`), when it has one.
  static func tempPid(_ name: String) -> pid_t? {
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count >= 4, parts[parts.count - 3] == "tmp", let pid = pid_t(parts[parts.count - 2]), pid > 0 else { return nil }
    return pid
  }

  /// Removes the temp files killed writers left in `directory` (``isAbandoned(_:in:)``);
  /// returns how many. Only under the ``WriterLock``.
  @discardableResult
  package static func removeTemps(in directory: String) -> Int {
    var removed = 0
    for name in list(directory) where isAbandoned(name, in: directory) {
      if unlink(directory + "/" + name) == 0 { removed += 1 }
    }
    return removed
  }

  // Both search the UTF-8 bytes: `lastIndex(of:)` on the String compared Characters
  // (grapheme breaking), 7.5 k instructions a path, paid by every read command.
  package static func directoryName(_ path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  package static func baseName(_ path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
    return String(path[path.utf8.index(after: slash)...])
  }
}
