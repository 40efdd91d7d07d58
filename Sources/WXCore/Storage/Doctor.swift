#if canImport(Glibc)
  import Glibc
#endif

/// The health of one store file.
package enum Health: Equatable, Sendable {
  case absent
  case healthy(records: Int, detail: String)
  case broken(StoreError)
}

/// Checks and repairs wx's store files (`wx doctor`).
///
/// A check reads every key and every value and validates each value's envelope; GDBM itself
/// has no checksums, so this is the only full check. Repair keeps the damaged file as
/// `<file>.broken-<time>` and writes a clean store with what could be salvaged:
/// `gdbm_recover` rebuilds the structure on a copy, and values that fail their checksum are
/// dropped and counted.
package struct Doctor: Sendable {
  package let home: Home

  package init(home: Home) { self.home = home }

  /// The small stores and the kind their values carry.
  package var smallStores: [(name: String, path: String, kind: Envelope.Kind)] {
    [
      ("preferences", home.preferencesPath, .preference), ("favourites", home.favouritesPath, .favourite),
      ("air quality", home.aqiPath, .aqi),
    ]
  }

  package func checkCatalogue() -> Health {
    guard FileSystem.exists(home.cataloguePath) else { return .absent }
    do throws(StoreError) {
      let catalogue = try Catalogue(path: home.cataloguePath)
      defer { catalogue.close() }
      let cities = try catalogue.all()
      if let first = cities.first {
        let found = try catalogue.search(first.name, offset: 0, limit: 1)
        if found.total == 0 {
          throw .damaged(path: home.cataloguePath, detail: "the search index does not find \(first.name)")
        }
      }
      let meta = catalogue.meta
      return .healthy(records: cities.count, detail: meta.isSample ? "bundled sample" : "from \(meta.source)")
    } catch {
      return .broken(error)
    }
  }

  package func check(path: String, kind: Envelope.Kind) -> Health {
    guard FileSystem.exists(path) else { return .absent }
    do throws(StoreError) {
      let records = try SmallStore(path: path, kind: kind).read()
      return .healthy(records: records.count, detail: "")
    } catch {
      return .broken(error)
    }
  }

  /// What a repair did.
  package struct Repair: Equatable, Sendable {
    package var recovered: Int
    package var lost: Int
    package var backup: String?
    package var note: String
  }

  /// Replaces a broken catalogue with the bundled sample (the catalogue is derived data:
  /// the next `wx sync` restores it). The caller holds the lock.
  package func repairCatalogue() throws -> Repair {
    let backup = try moveAside(home.cataloguePath)
    try home.seedFromSample()
    return Repair(recovered: 0, lost: 0, backup: backup, note: "replaced by the bundled sample; run `wx sync`")
  }

  /// Salvages a small store. The caller holds the lock.
  package func repair(path: String, kind: Envelope.Kind) throws -> Repair {
    if case .broken(.permission) = check(path: path, kind: kind), chmod(path, 0o600) == 0,
      case .healthy = check(path: path, kind: kind)
    {
      return Repair(recovered: 0, lost: 0, backup: nil, note: "mode reset to 0600")
    }
    var salvaged: [[UInt8]: [UInt8]] = [:]
    var lost = 0
    var note = ""
    let copy = FileSystem.directoryName(path) + "/." + FileSystem.baseName(path) + ".salvage.\(getpid())"
    defer { FileSystem.remove(copy) }
    if copyFile(path, to: copy), let db = try? GDBMDatabase(path: copy, mode: .writer, lockDeadline: 0, allowRecovery: true) {
      if let report = try? db.recover() {
        lost += report.failedKeys
        if let b = report.backup { FileSystem.remove(b) }
      }
      for key in (try? db.keys()) ?? [] {
        guard let raw = try? db.fetch(key) else { lost += 1; continue }
        if let r = try? Envelope.open(kind, raw) { salvaged[key] = Array(r.buffer[r.offset...]) } else { lost += 1 }
      }
      try? db.close()
    } else if copyFile(path, to: copy) {
      // Open failed even as a writer: GDBM may still salvage via gdbm_recover on a writer
      // open that needs recovery, which the open refused; nothing more to save.
      note = "the file could not be opened as a GDBM store"
    } else {
      note = "the file could not be read"
    }
    let backup = try moveAside(path)
    try SmallStore(path: path, kind: kind).write(salvaged)
    if note.isEmpty { note = "rebuilt" }
    return Repair(recovered: salvaged.count, lost: lost, backup: backup, note: note)
  }

  /// Renames a damaged file (or folder) to `<name>.broken-<time>`, keeping it for the user.
  func moveAside(_ path: String) throws(StoreError) -> String? {
    guard FileSystem.exists(path) else { return nil }
    let backup = FileSystem.brokenName(path)
    try FileSystem.rename(path, to: backup)
    return backup
  }

  private func copyFile(_ from: String, to: String) -> Bool {
    guard let bytes = try? FileSystem.read(from) else { return false }
    let fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return bytes.withUnsafeBytes { raw in
      var off = 0
      while off < raw.count {
        let n = write(fd, raw.baseAddress! + off, raw.count - off)
        if n <= 0 { return false }
        off += n
      }
      return true
    }
  }
}
