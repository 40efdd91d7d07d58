import Glibc

/// errno text without Foundation.
package enum SystemError {
  package static func describe(_ code: Int32) -> String {
    let name: String
    switch code {
    case ENOSPC: name = "ENOSPC"
    case EIO: name = "EIO"
    case EACCES: name = "EACCES"
    case EPERM: name = "EPERM"
    case EROFS: name = "EROFS"
    case ENOENT: name = "ENOENT"
    case EISDIR: name = "EISDIR"
    case ENOTDIR: name = "ENOTDIR"
    case EDQUOT: name = "EDQUOT"
    case EXDEV: name = "EXDEV"
    default: name = "errno \(code)"
    }
    guard let c = strerror(code) else { return name }
    return "\(String(cString: c)) (\(name))"
  }
}
