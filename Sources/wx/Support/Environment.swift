import Glibc

/// Environment access without Foundation.
enum Environment {
  static func get(_ name: String) -> String? {
    guard let v = getenv(name) else { return nil }
    let s = String(cString: v)
    return s.isEmpty ? nil : s
  }

  /// The running executable's directory (from /proc/self/exe).
  static func executableDirectory() -> String? {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    guard n > 0 else { return nil }
    let path = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let slash = path.lastIndex(of: "/") else { return nil }
    return String(path[..<slash])
  }

  static func currentDirectory() -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    guard let cwd = getcwd(&buf, buf.count) else { return "." }
    return String(cString: cwd)
  }

  static func homeDirectory() -> String? {
    if let h = get("HOME") { return h }
    guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return nil }
    return String(cString: dir)
  }
}
