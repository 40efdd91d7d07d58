import Glibc

/// A temporary file without a name, in a given folder, for what a sync sets aside while it
/// builds (the search index's sorting material, the orders' fields): it vanishes when it is
/// closed, even by a crash. Where the filesystem has no `O_TMPFILE`, a named file
/// (`.index.tmp.<pid>.XXXXXX`, named like the stores' temp files so the next writer removes it if a
/// crash comes in between) is unlinked at once.
///
/// Its writes pass the `spill:ENOSPC` / `spill:EIO` failpoint, so a full disk can be tested.
final class TempFile {
  let directory: String
  private let fd: Int32
  /// Linux's O_TMPFILE (`__O_TMPFILE | O_DIRECTORY`), which Swift does not import.
  private static let tmpFile: Int32 = 0o20_000_000 | O_DIRECTORY

  init(in directory: String) throws(StoreError) {
    self.directory = directory
    var fd = open(directory, Self.tmpFile | O_RDWR | O_CLOEXEC, 0o600)
    if fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) {
      var template = Array((directory + "/.index.tmp.\(getpid()).XXXXXX").utf8CString)
      fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      if fd >= 0 {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
      }
    }
    guard fd >= 0 else { throw .io(path: directory, operation: "creating a temporary file in", errno: errno) }
    self.fd = fd
  }

  deinit { Glibc.close(fd) }

  /// Writes `bytes` at `offset`.
  func write(_ bytes: [UInt8], at offset: Int) throws(StoreError) {
    if let failure = Failpoint.injectedErrno("spill") {
      throw .io(path: directory, operation: "writing a temporary file in", errno: failure)
    }
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .io(path: directory, operation: "writing a temporary file in", errno: errno)
      }
      done += n
    }
  }

  /// Appends the `length` bytes at `offset` to `out`.
  func read(at offset: Int, length: Int, into out: inout [UInt8]) throws(StoreError) {
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: length))
    var done = 0
    while done < length {
      let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + start + done, length - done, off_t(offset + done)) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw .io(path: directory, operation: "reading a temporary file in", errno: n < 0 ? errno : EIO) }
      done += n
    }
  }
}

/// Bytes appended end to end, kept in memory up to `spillAbove` bytes, then moved with all
/// that follows to a ``TempFile`` in `directory`; read back by offset. (The search index's
/// sorting material and the orders' fields while a sync downloads.)
final class SpillBuffer {
  let directory: String
  let spillAbove: Int
  private var memory: [UInt8] = []
  private var file: TempFile?
  /// Bytes appended in all: the offset of the next.
  private(set) var count = 0

  init(directory: String, spillAbove: Int) {
    self.directory = directory
    self.spillAbove = spillAbove
  }

  /// Whether the bytes went to a file (for tests).
  var spilled: Bool { file != nil }

  /// Appends `bytes` (best a few KiB at a time: once spilled, each call is one write);
  /// returns their offset.
  @discardableResult
  func append(_ bytes: [UInt8]) throws(StoreError) -> Int {
    let offset = count
    if let file {
      try file.write(bytes, at: offset)
    } else {
      memory.append(contentsOf: bytes)
      // The spill failpoint spills at once, so a failing write can be tested on any catalogue.
      if memory.count > spillAbove || Failpoint.active?.hasPrefix("spill:") == true {
        let file = try TempFile(in: directory)
        try file.write(memory, at: 0)
        self.file = file
        memory = []
      }
    }
    count += bytes.count
    return offset
  }

  /// Calls `body` with every byte appended, in order, `piece` bytes at a time (the last piece
  /// shorter): a multiple of a record's size keeps each record whole.
  func forEachPiece(_ piece: Int, _ body: ([UInt8]) -> Void) throws(StoreError) {
    var bytes: [UInt8] = []
    var offset = 0
    while offset < count {
      bytes.removeAll(keepingCapacity: true)
      try read(at: offset, length: min(piece, count - offset), into: &bytes)
      body(bytes)
      offset += piece
    }
  }

  /// Appends the `length` bytes at `offset` to `out`.
  func read(at offset: Int, length: Int, into out: inout [UInt8]) throws(StoreError) {
    if let file {
      try file.read(at: offset, length: length, into: &out)
    } else {
      out.append(contentsOf: memory[offset..<(offset + length)])
    }
  }
}
