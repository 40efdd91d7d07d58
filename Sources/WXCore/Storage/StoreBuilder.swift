#if canImport(Glibc)
  import Glibc
#endif

/// Writes a new version of a store beside the live one and publishes it with one
/// `rename(2)`, so readers see the old complete file or the new complete file, never a mix,
/// and a crash at any point leaves the old file untouched.
///
/// Sequence: temp file in the same folder → `gdbm_sync` + `fsync` → close → `rename` →
/// `fsync` of the folder. The caller must hold the ``WriterLock`` (stale temp files from
/// killed writers are removed here, which is only safe under it).
package final class StoreBuilder {
  package let finalPath: String
  package let tempPath: String
  package let database: GDBMDatabase
  private var finished = false

  package init(finalPath: String) throws(StoreError) {
    self.finalPath = finalPath
    let dir = FileSystem.directoryName(finalPath)
    let stem = "." + FileSystem.baseName(finalPath) + ".tmp."
    Self.removeStaleTemps(in: dir, stem: stem)
    tempPath = "\(dir)/\(stem)\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
    database = try GDBMDatabase(path: tempPath, mode: .create)
  }

  deinit { if !finished { abandon() } }

  /// Publishes the new file in place of the old one.
  package func publish() throws(StoreError) {
    do throws(StoreError) {
      Failpoint.crash("after_tmp_written")
      try database.sync()
      Failpoint.crash("after_fsync")
      try database.close()
      // rename(2) cannot replace a folder; one standing where the store belongs is kept aside.
      if FileSystem.isDirectory(finalPath) {
        try FileSystem.rename(finalPath, to: FileSystem.brokenName(finalPath))
      }
      try FileSystem.rename(tempPath, to: finalPath)
    } catch {
      abandon()
      throw error
    }
    finished = true
    Failpoint.crash("after_rename")
    Failpoint.crash("before_dir_fsync")
    try FileSystem.syncDirectory(FileSystem.directoryName(finalPath))
  }

  /// Drops the new file; the live one is untouched.
  package func abandon() {
    guard !finished else { return }
    finished = true
    try? database.close()
    FileSystem.remove(tempPath)
  }

  /// Removes temp files that killed writers left behind in `dir`.
  package static func removeStaleTemps(in dir: String, stem: String) {
    for name in FileSystem.list(dir) where name.hasPrefix(stem) {
      FileSystem.remove(dir + "/" + name)
    }
  }
}
