import Glibc

/// Writes a new version of a store beside the live one and publishes it with one
/// `rename(2)`, so readers see the old complete file or the new complete file, never a mix,
/// and a crash at any point leaves the old file untouched.
///
/// Sequence: temp file in the same folder → `gdbm_sync` + `fsync` → close → `rename` →
/// `fsync` of the folder. The caller must hold the ``WriterLock`` (which removed the stale
/// temp files of killed writers when it was taken).
package final class StoreBuilder {
  package let finalPath: String
  package let tempPath: String
  package let database: GDBMDatabase
  private var finished = false
  /// The temp file as a signal on the way out sees it (``TempFiles``).
  private let registered: TempFiles.Slot?

  /// `tempPath`: where the new file is written (a fresh ``FileSystem/tempName(for:)`` by
  /// default; a caller that must tell its failures apart picks it first).
  package init(finalPath: String, tempPath temp: String? = nil) throws(StoreError) {
    self.finalPath = finalPath
    tempPath = temp ?? FileSystem.tempName(for: finalPath)
    registered = TempFiles.register(tempPath)
    do throws(StoreError) {
      database = try GDBMDatabase(path: tempPath, mode: .create)
    } catch {
      TempFiles.unregister(registered)
      throw error
    }
  }

  deinit { if !finished { abandon() } }

  /// Whether the new file has been renamed into place.
  package private(set) var published = false

  /// Publishes the new file in place of the old one. Returns where a folder that stood in
  /// the store's place was set aside (nil when there was none).
  @discardableResult
  package func publish() throws(StoreError) -> String? {
    var setAside: String?
    do throws(StoreError) {
      Failpoint.crash("after_tmp_written")
      try database.sync()
      Failpoint.crash("after_fsync")
      try database.close()
      // rename(2) cannot replace a folder; one standing where the store belongs is kept aside.
      if FileSystem.isDirectory(finalPath) {
        setAside = FileSystem.brokenName(finalPath)
        try FileSystem.rename(finalPath, to: setAside!)
      }
      TempFiles.publishing(registered)  // a Ctrl-C from here on comes after the rename
      try FileSystem.rename(tempPath, to: finalPath)
      published = true
    } catch {
      abandon()
      throw error
    }
    TempFiles.unregister(registered)
    finished = true
    Failpoint.crash("after_rename")
    Failpoint.crash("before_dir_fsync")
    try FileSystem.syncDirectory(FileSystem.directoryName(finalPath))
    return setAside
  }

  /// Drops the new file; the live one is untouched.
  package func abandon() {
    guard !finished else { return }
    finished = true
    try? database.close()
    FileSystem.remove(tempPath)
    TempFiles.unregister(registered)
  }
}
