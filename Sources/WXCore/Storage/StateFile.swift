import Glibc

/// Opens the files of the state folder without being tricked into using another file.
///
/// Every open passes `O_NOFOLLOW` (a planted `wx.lock -> /etc/passwd` must not be truncated,
/// a `favourites.gdbm -> elsewhere` must not be read or replaced through the link),
/// `O_NONBLOCK` (a FIFO in place of a file must not hang wx) and `O_CLOEXEC`; new files are
/// created with `O_EXCL`. The open file is then checked with `fstat`: a regular file, owned
/// by this user, and for the lock a single link. The checks are on the descriptor, not the
/// name, so nothing can be swapped in between the check and the use.
package enum StateFile {
  package enum Purpose: Sendable {
    /// An existing store, read-only.
    case read
    /// An existing store, read-write.
    case write
    /// A new temp file (`O_CREAT | O_EXCL`).
    case create
    /// `wx.lock`: created when missing, never replaced.
    case lock
  }

  /// The descriptor (caller closes it) and its `fstat`, or an error naming `path`.
  package static func open(_ path: String, _ purpose: Purpose) throws(StoreError) -> (fd: Int32, info: stat) {
    var flags = O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
    switch purpose {
    case .read: flags |= O_RDONLY
    case .write: flags |= O_RDWR
    case .create: flags |= O_RDWR | O_CREAT | O_EXCL
    case .lock: flags |= O_RDWR | O_CREAT
    }
    let fd = Glibc.open(path, flags, 0o600)
    if fd < 0 { throw openError(path, purpose, errno) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let e = errno
      Glibc.close(fd)
      throw .io(path: path, operation: "inspecting", errno: e)
    }
    if let problem = problem(info, purpose) {
      Glibc.close(fd)
      throw problem(path)
    }
    return (fd, info)
  }

  /// What is wrong with an opened file, as an error for its path; nil when it is fine.
  private static func problem(_ info: stat, _ purpose: Purpose) -> ((String) -> StoreError)? {
    let type = info.st_mode & S_IFMT
    let fix: Remedy = purpose == .lock ? .removeOrRepair : .repairSetsItAside
    if type == S_IFDIR {
      if purpose == .lock { return { .unusable(path: $0, reason: "it is a folder, not a lock file", remedy: fix) } }
      return { .notAStore(path: $0, reason: "it is a folder") }
    }
    if type != S_IFREG {
      return { .unusable(path: $0, reason: "it is \(describe(type)), not a regular file", remedy: fix) }
    }
    if info.st_uid != geteuid() {
      return { .unusable(path: $0, reason: "it belongs to uid \(info.st_uid), not to you (uid \(geteuid()))", remedy: fix) }
    }
    if purpose == .lock && info.st_nlink > 1 {
      return { .unusable(path: $0, reason: "it has \(info.st_nlink) hard links", remedy: fix) }
    }
    return nil
  }

  private static func openError(_ path: String, _ purpose: Purpose, _ e: Int32) -> StoreError {
    let folder = FileSystem.directoryName(path)
    switch e {
    case ENOENT where purpose == .read || purpose == .write: return .missing(path: path)
    case ELOOP:
      // The folder itself may be the loop (a symbolic link to itself, or a cycle of them): that
      // is the folder's matter, not the store's.
      var st = stat()
      if stat(folder, &st) != 0 && errno == ELOOP {
        return .unusable(path: folder, reason: "it is a loop of symbolic links", remedy: .useAFolder)
      }
      let fix: Remedy = purpose == .lock ? .removeOrRepair : .repairSetsItAside
      return .unusable(path: path, reason: "it is a symbolic link, which wx does not follow", remedy: fix)
    case ENOENT: return .missing(path: folder)
    case ENOTDIR:
      return .unusable(path: folder, reason: "it is not a folder (or part of its path is a file)", remedy: .useAFolder)
    case EISDIR:
      if purpose == .lock { return .unusable(path: path, reason: "it is a folder, not a lock file", remedy: .removeOrRepair) }
      return .notAStore(path: path, reason: "it is a folder")
    case EACCES, EPERM: return .permission(path: purpose == .create ? folder : path)
    case EROFS: return .io(path: folder, operation: "writing in", errno: e)
    default: return .io(path: path, operation: purpose == .create ? "creating" : "opening", errno: e)
    }
  }

  /// "a FIFO", "a socket"… for a file type that is not a regular file or folder.
  static func describe(_ type: mode_t) -> String {
    switch type {
    case S_IFIFO: return "a FIFO"
    case S_IFSOCK: return "a socket"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFLNK: return "a symbolic link"
    default: return "not a file"
    }
  }

  /// The lstat of `path`: what is there, without following a link; nil when nothing is.
  package static func inspect(_ path: String) -> Result<stat, StoreError>? {
    var info = stat()
    if lstat(path, &info) == 0 { return .success(info) }
    let e = errno
    if e == ENOENT { return nil }
    return .failure(openError(path, .read, e))
  }

  /// Why `path` (an existing file in the state folder) would be refused, or nil. Used by
  /// `wx doctor` to report a lock or store without opening it.
  package static func refusal(_ path: String, _ purpose: Purpose) -> StoreError? {
    guard let found = inspect(path) else { return nil }
    switch found {
    case .failure(let error): return error
    case .success(let info):
      if info.st_mode & S_IFMT == S_IFLNK { return openError(path, purpose, ELOOP) }
      return problem(info, purpose).map { $0(path) }
    }
  }
}
