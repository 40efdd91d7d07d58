#if canImport(Glibc)
  import Glibc
#endif

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

  package static func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
  }

  package static func size(_ path: String) -> Int64? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return Int64(st.st_size)
  }

  /// Creates `path` and its parents with mode 0700 where missing; tightens an existing
  /// wx folder that is group- or world-accessible.
  package static func makeDirectory(_ path: String) throws(StoreError) {
    var st = stat()
    if stat(path, &st) == 0 {
      guard (st.st_mode & S_IFMT) == S_IFDIR else {
        throw .notAStore(path: path, reason: "the state folder is not a folder")
      }
      return
    }
    // Create each missing ancestor in turn: "/a/b/c" -> "/a", "/a/b", "/a/b/c".
    let bytes = Array(path.utf8)
    for end in bytes.indices where end > 0 && (bytes[end] == UInt8(ascii: "/") || end == bytes.count - 1) {
      let prefix = String(decoding: bytes[...(bytes[end] == UInt8(ascii: "/") ? end - 1 : end)], as: UTF8.self)
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
        let e = errno
        if e == EACCES || e == EPERM || e == EROFS { throw .permission(path: prefix) }
        throw .io(path: prefix, operation: "creating", errno: e)
      }
    }
  }

  /// `rename(2)`: atomically replaces `to`.
  package static func rename(_ from: String, to: String) throws(StoreError) {
    if Glibc.rename(from, to) != 0 { throw .io(path: to, operation: "replacing", errno: errno) }
  }

  /// Makes a rename in `directory` durable.
  package static func syncDirectory(_ directory: String) throws(StoreError) {
    let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw .io(path: directory, operation: "opening", errno: errno) }
    defer { Glibc.close(fd) }
    if fsync(fd) != 0 { throw .io(path: directory, operation: "syncing", errno: errno) }
  }

  package static func remove(_ path: String) { unlink(path) }

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

  /// Reads a whole file (the bundled sample, test fixtures).
  package static func read(_ path: String) throws(StoreError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
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

  /// Writes a small file atomically (temp, fsync, rename, fsync dir), mode 0600.
  package static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws(StoreError) {
    let dir = directoryName(path)
    let tmp = "\(dir)/.\(baseName(path)).tmp.\(getpid())"
    let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw .io(path: tmp, operation: "creating", errno: errno) }
    var ok = true
    var e: Int32 = 0
    bytes.withUnsafeBytes { raw in
      var off = 0
      while off < raw.count {
        let n = write(fd, raw.baseAddress! + off, raw.count - off)
        if n <= 0 { ok = false; e = errno; return }
        off += n
      }
    }
    if ok && fsync(fd) != 0 { ok = false; e = errno }
    Glibc.close(fd)
    guard ok else {
      unlink(tmp)
      throw .io(path: path, operation: "writing", errno: e)
    }
    try rename(tmp, to: path)
    try syncDirectory(dir)
  }

  package static func directoryName(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  package static func baseName(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }
}
