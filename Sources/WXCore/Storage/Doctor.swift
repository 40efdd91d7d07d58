import Glibc

/// The health of one store file (or of the state folder, the lock).
package enum Health: Equatable, Sendable {
  case absent
  case healthy(records: Int, detail: String)
  /// Readable and intact, but others may read or write it (`mode`); repair sets 0600.
  case exposed(records: Int, mode: UInt32)
  case broken(StoreError)
}

/// One small store: its name in reports, file, value kind, and how a salvaged payload is keyed.
package struct SmallStoreFile: Sendable {
  package var name: String
  package var path: String
  package var kind: Envelope.Kind
  package var key: @Sendable ([UInt8]) -> [UInt8]?
  /// What the store keeps beside its records (the favourites' order): checked, rebuilt by a
  /// repair, and what says how many records a repair lost.
  package var index: SmallStore.Index? = nil

  package var store: SmallStore { SmallStore(path: path, kind: kind, index: index) }
}

/// Checks and repairs wx's state folder and store files (`wx doctor`).
///
/// A check reads every key and every value and validates each value's envelope; GDBM itself
/// has no checksums, so this is the only full check. Repair keeps a copy of the damaged file
/// as `<file>.broken-<time>` and publishes over it a clean store with every intact record a
/// raw scan of the file finds (``Salvage``: it does not need GDBM's structures), counting the
/// damaged ones.
package struct Doctor: Sendable {
  package let home: Home

  package init(home: Home) { self.home = home }

  /// The small stores.
  package var smallStores: [SmallStoreFile] {
    [
      SmallStoreFile(name: "preferences", path: home.preferencesPath, kind: .preference, key: PreferencesStore.key(salvaging:)),
      SmallStoreFile(
        name: "favourites", path: home.favouritesPath, kind: .favourite, key: FavouritesStore.key(salvaging:),
        index: FavouritesStore.orderIndexing),
      SmallStoreFile(name: "air quality", path: home.aqiPath, kind: .aqi, key: AQIStore.key(salvaging:)),
      SmallStoreFile(name: "alerts sent", path: home.alertsPath, kind: .sentAlert, key: SentAlerts.key(salvaging:)),
    ]
  }

  /// The state folder: absent, healthy (it is a folder wx can list and write in, private or
  /// ours to make private), or what is wrong with it.
  package func checkFolder() -> Health {
    let dir = home.directory
    var st = stat()
    if stat(dir, &st) != 0 {
      let e = errno
      if e == ENOENT { return .absent }
      if e == ENOTDIR {
        return .broken(.unusable(path: dir, reason: "it is not a folder (or part of its path is a file)", remedy: .useAFolder))
      }
      return .broken(e == EACCES ? .permission(path: dir) : .io(path: dir, operation: "inspecting", errno: e))
    }
    guard st.st_mode & S_IFMT == S_IFDIR else {
      return .broken(.unusable(path: dir, reason: "it is not a folder (or part of its path is a file)", remedy: .useAFolder))
    }
    guard let handle = opendir(dir) else { return .broken(.permission(path: dir)) }
    closedir(handle)
    if access(dir, W_OK | X_OK) != 0 {
      let e = errno
      let why = e == EROFS ? "it is on a read-only file system" : "wx may not write in it (\(SystemError.describe(e)))"
      return .broken(
        .unusable(
          path: dir, reason: "\(why): wx can show data but not save a sync, favourites or settings", remedy: .useAWritableFolder))
    }
    let mode = st.st_mode & 0o7777
    if st.st_uid != geteuid() && mode & 0o022 != 0 || mode & S_ISVTX != 0 && mode & 0o002 != 0 {
      return .broken(.unusable(path: dir, reason: "others can write to it", remedy: .useAPrivateFolder))
    }
    if st.st_uid == geteuid() && mode & 0o077 != 0 {
      // A folder that holds more than wx's files (a home folder named as the state folder)
      // is not wx's to tighten: it keeps its mode unless others may write to it.
      if !FileSystem.list(dir).allSatisfy(FileSystem.isStateFileName) {
        if mode & 0o022 != 0 {
          return .broken(
            .unusable(
              path: dir, reason: "others can write to it, and it holds files that are not wx's", remedy: .useAPrivateFolder))
        }
        return .healthy(records: 0, detail: "")
      }
      return .exposed(records: 0, mode: UInt32(mode))
    }
    return .healthy(records: 0, detail: "")
  }

  /// `wx.lock`: absent, healthy, or refused (a link, folder, FIFO, someone else's file…).
  package func checkLock() -> Health {
    guard FileSystem.exists(home.lockPath) else { return .absent }
    if let refusal = StateFile.refusal(home.lockPath, .lock) { return .broken(refusal) }
    return .healthy(records: 0, detail: "")
  }

  /// Sets a refused lock file aside so a writer can create a proper one. Safe without the
  /// lock: no wx can hold a lock on a file it refuses. Returns the backup name.
  package func repairLock() throws(StoreError) -> String? {
    guard case .broken = checkLock() else { return nil }
    return try moveAside(home.lockPath)
  }

  /// Temp files in the state folder that killed writers left (``FileSystem/isAbandoned(_:in:)``).
  package func temps() -> [String] { FileSystem.list(home.directory).filter { FileSystem.isAbandoned($0, in: home.directory) } }

  /// `.exposed` in place of `.healthy` when others may read or write `path`.
  func withMode(_ health: Health, _ path: String) -> Health {
    guard case .healthy(let records, _) = health, case .success(let st)? = StateFile.inspect(path),
      st.st_mode & 0o077 != 0
    else { return health }
    return .exposed(records: records, mode: UInt32(st.st_mode & 0o7777))
  }

  package func checkCatalogue() -> Health { checkCatalogue(at: home.cataloguePath) }

  /// The catalogue at `path` (the state folder's, or the shared sample catalogue).
  func checkCatalogue(at path: String) -> Health {
    guard FileSystem.exists(path) else { return .absent }
    do throws(StoreError) {
      let catalogue = try Catalogue(path: path)
      defer { catalogue.close() }
      let meta = catalogue.meta
      // Every record, found through its id.
      try catalogue.forEachCity { (i, city) throws(StoreError) in
        try catalogue.checkID(city.id, at: i)
        if i == 0, try catalogue.search(city.name, offset: 0, limit: 1).total == 0 {
          throw .damaged(path: path, detail: "the search index does not find \(city.name)")
        }
      }
      try catalogue.checkOrders()
      try catalogue.checkBlocks()
      var detail = meta.isSample ? "bundled sample" : "from \(meta.source)"
      if try catalogue.linksOfAnotherFormat() {
        detail += "; its atlas links are another wx's: places are looked up by name until the next sync stores them"
      }
      let health = Health.healthy(records: meta.count, detail: detail)
      return path == home.cataloguePath ? withMode(health, path) : health
    } catch {
      return .broken(error)
    }
  }

  package func check(_ file: SmallStoreFile) -> Health {
    guard FileSystem.exists(file.path) else { return .absent }
    do throws(StoreError) {
      let records = try file.store.read()
      return withMode(.healthy(records: records.count, detail: ""), file.path)
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
    /// What is left to do after the repair.
    package var remedy: Remedy? = nil
    /// Whether the store was rebuilt from what a scan salvaged (`recovered` and `lost` count).
    package var salvaged = false
    /// Whether the store itself was set aside (kept as `backup`, and started afresh): its
    /// line reads "…: set aside as <backup>", not "damaged file kept as".
    package var setAside = false
    /// Whether the store was left as it was (it could not be repaired without loss).
    package var unrepaired = false
  }

  /// Repairs a broken catalogue, under `lock`. When its header and every one of its records
  /// are intact, only what is derived from them is damaged (the orders, the search index):
  /// the catalogue is written again from those records, with the same header. Otherwise it
  /// is replaced by the bundled sample (the catalogue is derived data: the next `wx sync`
  /// restores it). Either way through ``replace(_:with:)``: a repair that fails or is killed
  /// leaves the damaged catalogue where it was.
  package func repairCatalogue(holding lock: WriterLock) throws -> Repair {
    if let (builder, count) = rebuiltFromRecords() {
      let backup = try replace(home.cataloguePath, with: builder)
      return Repair(
        recovered: count, lost: 0, backup: backup, note: "rebuilt from its \(count) intact record\(count == 1 ? "" : "s")")
    }
    let backup = try replace(home.cataloguePath, with: try home.sampleCatalogue(holding: lock))
    return Repair(recovered: 0, lost: 0, backup: backup, note: "replaced by the bundled sample", remedy: .sync)
  }

  /// Publishes a rebuilt store over the damaged one at `path`, keeping a copy of the damaged
  /// one beside it (``FileSystem/keepCopy(_:)``: a hard link, or a copy, never a move), so
  /// the live name holds the damaged file until `rename(2)` puts the complete new one there.
  /// A folder standing in its place is set aside by the publication. On any failure the new
  /// file and the copy are removed and the damaged store stays. Returns the copy's name.
  ///
  /// Failpoints `repair_built` (the new file written) and `repair_kept` (the copy made) come
  /// before ``StoreBuilder/publish()``'s own.
  func replace(_ path: String, with builder: StoreBuilder) throws(StoreError) -> String? {
    Failpoint.crash("repair_built")
    var backup: String?
    do throws(StoreError) {
      if FileSystem.exists(path) && !FileSystem.isDirectory(path) { backup = try FileSystem.keepCopy(path) }
      Failpoint.crash("repair_kept")
      if let folder = try builder.publish() { backup = folder }
    } catch {
      // Before the rename the damaged store is still in place, and the copy only a second name.
      if !builder.published, let backup { FileSystem.remove(backup) }
      builder.abandon()
      throw error
    }
    return backup
  }

  /// A new catalogue file written from the header and the records of the current one, read a
  /// block at a time (``Catalogue/forEachCity(_:)``), when the header and every record read back intact
  /// and none lies past the header's count; nil otherwise (and the new file is gone).
  private func rebuiltFromRecords() -> (StoreBuilder, Int)? {
    guard let catalogue = try? Catalogue(path: home.cataloguePath) else { return nil }
    defer { catalogue.close() }
    let meta = catalogue.meta
    guard meta.count > 0, (try? catalogue.checkCount()) != nil,
      let builder = try? StoreBuilder(finalPath: home.cataloguePath)
    else { return nil }
    do throws(StoreError) {
      // Linked to the atlas again, as the sync that wrote it did (``AtlasLinks``).
      let writer = CatalogueWriter(into: builder.database, atlasData: home.atlasDataPath)
      try catalogue.forEachCity { (_, city) throws(StoreError) in try writer.add(city) }
      try writer.finish(meta: meta)
    } catch {
      builder.abandon()
      return nil
    }
    return (builder, meta.count)
  }

  /// Sets an exposed store (or the state folder) back to 0600 (0700).
  package func tighten(_ path: String, folder: Bool = false) throws(StoreError) {
    if chmod(path, folder ? 0o700 : 0o600) != 0 { throw .io(path: path, operation: "changing the mode of", errno: errno) }
  }

  /// Salvages a small store, under `lock`.
  package func repair(_ store: SmallStoreFile, holding lock: WriterLock) throws -> Repair {
    let health = check(store)
    if case .broken(.permission) = health, chmod(store.path, 0o600) == 0,
      case .healthy = check(store)
    {
      return Repair(recovered: 0, lost: 0, backup: nil, note: "mode reset to 0600")
    }
    if case .broken(.wrongKind(_, let holds, _)) = health { return try putBack(store, holds: holds) }
    var note = "rebuilt"
    var salvaged = Salvage.Result()
    var lost = 0
    do throws(StoreError) {
      let bytes = try FileSystem.read(store.path, followLinks: false)
      salvaged = Salvage.scan(bytes, kind: store.kind, key: store.key)
      lost = salvaged.damaged
      // Records the index lists that no scan found (a truncated file): lost too.
      if let listed = store.index?.listed {
        let heads = Salvage.scan(bytes, kind: .storeIndex) { listed($0) != nil ? $0 : nil }
        if let total = heads.records.values.compactMap(listed).max() { lost = max(lost, total - salvaged.records.count) }
      }
    } catch {
      note = "nothing could be read from it"
    }
    let backup = try replace(
      store.path, with: try store.store.build(salvaged.records, holding: lock))
    return Repair(recovered: salvaged.records.count, lost: lost, backup: backup, note: note, salvaged: true)
  }

  /// Puts back a store that stands in another's place (`store.path` holds `holds`), under
  /// the lock: exchanged with the file at its own place when that one holds `store`'s kind
  /// (two files swapped), moved there when that place is free; otherwise (its own place holds
  /// a store of its kind already) set aside whole, kept for the user to compare, and `store`
  /// starts afresh: every command's "run `wx doctor --repair`" then does what it says (it
  /// was left, and `wx unit` failed with 74 after each repair). It is never emptied or rebuilt
  /// as the wrong kind.
  func putBack(_ store: SmallStoreFile, holds: Envelope.Kind) throws(StoreError) -> Repair {
    let leave = Repair(
      recovered: 0, lost: 0, backup: nil, note: "not repaired: it holds \(holds.contents), whose own file is in use",
      unrepaired: true)
    guard let home = smallStores.first(where: { $0.kind == holds }) else {
      // A catalogue or the atlas: data wx derives again (a sync, the shipped atlas), with no
      // record of this store in it. Set aside, kept for the user; the store starts afresh.
      guard holds.isDerived, let kept = try moveAside(store.path) else { return leave }
      return Repair(
        recovered: 0, lost: 0, backup: kept, note: "it held \(holds.contents), which wx makes again: set aside", setAside: true)
    }
    let name = FileSystem.baseName(home.path)
    switch check(home) {
    case .absent:
      try FileSystem.rename(store.path, to: home.path)
      try FileSystem.syncDirectory(FileSystem.directoryName(store.path))
      return Repair(recovered: 0, lost: 0, backup: nil, note: "it held \(holds.contents): moved back to \(name)")
    case .broken(.wrongKind(_, let other, _)) where other == store.kind:
      try FileSystem.exchange(store.path, home.path)
      try FileSystem.syncDirectory(FileSystem.directoryName(store.path))
      return Repair(
        recovered: 0, lost: 0, backup: nil,
        note: "it held \(holds.contents): exchanged with \(name), which held \(other.contents)")
    default:
      guard let kept = try moveAside(store.path) else { return leave }
      try FileSystem.syncDirectory(FileSystem.directoryName(store.path))
      return Repair(
        recovered: 0, lost: 0, backup: kept,
        note: "it held \(holds.contents), whose own file \(name) is in use: set aside", setAside: true)
    }
  }

  /// Renames a damaged file (or folder) to `<name>.broken-<time>`, keeping it for the user.
  func moveAside(_ path: String) throws(StoreError) -> String? {
    guard FileSystem.exists(path) else { return nil }
    let backup = FileSystem.brokenName(path)
    try FileSystem.rename(path, to: backup)
    return backup
  }
}
