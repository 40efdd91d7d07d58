import Glibc
import WXFeed

/// Failures of wx's GDBM stores, each naming the file and what the user can do about it.
package enum StoreError: Error, Equatable, Sendable {
  /// The store file does not exist (a reader open of a missing file).
  case missing(path: String)
  /// Another wx process kept the lock past the deadline.
  case busy(path: String, holder: Int32?)
  /// The file is not a wx GDBM store at all: empty, a folder, a text file, foreign magic.
  case notAStore(path: String, reason: String)
  /// The file is a GDBM file but its structure or a value in it is damaged.
  case damaged(path: String, detail: String)
  /// The file or its folder cannot be read or written with the current permissions.
  case permission(path: String)
  /// A system call failed (disk full, I/O error, read-only filesystem…).
  case io(path: String, operation: String, errno: Int32)
  /// wx refuses to use the file or folder: a symbolic link, someone else's file, a FIFO in
  /// place of the lock, a shared folder… `reason` says what it is, `remedy` what to do.
  case unusable(path: String, reason: String, remedy: Remedy)
  /// A store of another kind stands where this one belongs (two store files swapped or
  /// copied over each other): it is intact, and `wx doctor --repair` puts it back.
  case wrongKind(path: String, holds: Envelope.Kind, expected: Envelope.Kind)

  package var path: String {
    switch self {
    case .missing(let p), .busy(let p, _), .notAStore(let p, _), .damaged(let p, _), .permission(let p),
      .io(let p, _, _), .unusable(let p, _, _), .wrongKind(let p, _, _):
      return p
    }
  }
}

extension StoreError {
  /// The state folder cannot be written here (read-only, immutable, permission): a reader
  /// may still answer from elsewhere.
  package var isUnwritable: Bool {
    switch self {
    case .permission: return true
    case .io(_, _, let e): return e == EROFS || e == EACCES || e == EPERM
    default: return false
    }
  }
}

extension StoreError: CustomStringConvertible {
  package var description: String {
    // A long path (a 128 KiB WX_HOME) is cut, keeping its ends.
    switch self.shortened {
    case .missing(let path):
      return "\(path) does not exist"
    case .busy(let path, let holder):
      let who = holder.map { " (pid \($0))" } ?? ""
      // The lock guards its folder's stores: name the folder, not the lock file.
      let what =
        FileSystem.baseName(path) == FileSystem.StateFileName.lock
        ? "writing in \(FileSystem.directoryName(path))" : "updating \(path)"
      return "another wx process\(who) is \(what); try again in a moment"
    case .notAStore(let path, let reason):
      return "\(path) is not a wx store (\(reason))"
    case .damaged(let path, let detail):
      return "\(path) is damaged (\(detail))"
    case .permission(let path):
      return "permission denied for \(path); check its owner and mode (wx uses 0600 files in a 0700 folder)"
    case .io(let path, let operation, let errno):
      return "\(operation) \(path) failed: \(SystemError.describe(errno))"
    case .unusable(let path, let reason, _):
      return "refusing to use \(path): \(reason)"
    case .wrongKind(let path, let holds, let expected):
      return "\(path) holds \(holds.contents), not \(expected.contents) (were two store files swapped?)"
    }
  }

  /// The same error with its path as messages show it (``Redact/path(_:)``).
  var shortened: StoreError {
    let p = Redact.path(path)
    guard p != path else { return self }
    switch self {
    case .missing: return .missing(path: p)
    case .busy(_, let holder): return .busy(path: p, holder: holder)
    case .notAStore(_, let reason): return .notAStore(path: p, reason: reason)
    case .damaged(_, let detail): return .damaged(path: p, detail: detail)
    case .permission: return .permission(path: p)
    case .io(_, let operation, let errno): return .io(path: p, operation: operation, errno: errno)
    case .unusable(_, let reason, let remedy): return .unusable(path: p, reason: reason, remedy: remedy)
    case .wrongKind(_, let holds, let expected): return .wrongKind(path: p, holds: holds, expected: expected)
    }
  }

  /// What to do about it, when there is something to do.
  package var remedy: Remedy? {
    switch self {
    case .notAStore: return .inspect
    case .damaged, .wrongKind: return .repair
    case .unusable(_, _, let remedy): return remedy
    // A read-only file system (a read-only mount, a live image): another folder is the fix.
    case .io(_, _, let e) where e == EROFS: return .useAWritableFolder
    case .missing, .busy, .permission, .io: return nil
    }
  }
}
