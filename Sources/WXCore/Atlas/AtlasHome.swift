/// Where the atlas lives and how it is built: `atlas.gdbm` in the state folder, built from the
/// shipped `atlas.bin` (found beside the bundled sample) on first use, under the writer lock,
/// into a temp file published by rename. A sync never rewrites it.
extension Home {
  package var atlasPath: String { directory + "/" + FileSystem.StateFileName.atlas }

  /// Where the shipped atlas data may be: the sample's folders, in the same order.
  package var atlasDataCandidates: [String] { sampleCandidates.map(Self.atlasData(beside:)) }

  /// The shipped atlas data's path, if installed.
  package var atlasDataPath: String? { sampleCandidates.lazy.map(Self.atlasData(beside:)).first(where: FileSystem.exists) }

  private static func atlasData(beside sample: String) -> String {
    FileSystem.directoryName(sample) + "/" + AtlasData.fileName
  }

  /// The shared atlas store beside the shipped data (`make install` builds it into
  /// `share/wx`, read-only, for every user and state folder), when there is one.
  package var sharedAtlasPath: String? {
    atlasDataPath.map { FileSystem.directoryName($0) + "/" + FileSystem.StateFileName.atlas }.flatMap {
      FileSystem.exists($0) ? $0 : nil
    }
  }

  /// The atlas store a read command uses as things stand, opened, without building one: the
  /// state folder's own when this wx built it from the installed data, else the shared one
  /// beside the data (`make install` builds it) when it is so (`shared` false: never, as
  /// `WX_ATLAS=own` asks); nil when neither is. The one rule ``openAtlas(shared:building:passedOver:)``,
  /// `wx status` and its list of files follow. A damaged state folder's atlas is passed over
  /// for a current shared one, and told to `passedOver` (commands warn; `wx doctor --repair`
  /// rebuilds it); with no shared one to read instead, it is thrown.
  package func currentAtlas(shared: Bool = true, passedOver: ((StoreError) -> Void)? = nil) throws(StoreError) -> Atlas? {
    try currentAtlas(shared: shared, dataChecksum: atlasDataPath.flatMap(AtlasData.checksum(of:)), passedOver: passedOver)
  }

  private func currentAtlas(shared: Bool, dataChecksum: UInt32?, passedOver: ((StoreError) -> Void)?) throws(StoreError)
    -> Atlas?
  {
    var damage: StoreError? = nil
    do throws(StoreError) {
      let atlas = try Atlas(path: atlasPath)
      if Self.isCurrent(atlas, dataChecksum: dataChecksum) { return atlas }
      atlas.close()
    } catch {
      if case .missing = error {} else { damage = error }
    }
    // A damaged or outdated shared atlas is passed over: the state folder builds its own
    // (`wx doctor` says what restores the shared one).
    if shared, let path = sharedAtlasPath, let atlas = try? Atlas(path: path) {
      if Self.isCurrent(atlas, dataChecksum: dataChecksum) {
        if let damage { passedOver?(damage) }
        return atlas
      }
      atlas.close()
    }
    if let damage { throw damage }
    return nil
  }

  /// Opens the atlas, building it first when it is missing, was built by another version of
  /// wx or from other data (an upgrade shipped a new `atlas.bin`: its CRC-32, the file's last
  /// four bytes, is compared with the one the store records). nil when there is no atlas and
  /// no data to build one from (not installed). Errors: a damaged store (``StoreError``: `wx
  /// doctor --repair` rebuilds it), an unwritable state folder, a damaged data file.
  ///
  /// The state folder's own atlas first, when it is current; else the shared one beside the
  /// data (`make install` builds it), when it is current; else the state folder builds its
  /// own, after `building` is called (a terminal shows progress). `shared` false ignores the
  /// shared one (`WX_ATLAS=own`). A damaged state folder's atlas: ``currentAtlas(shared:passedOver:)``.
  package func openAtlas(shared: Bool = true, building: (() -> Void)? = nil, passedOver: ((StoreError) -> Void)? = nil)
    throws -> Atlas?
  {
    let data = atlasDataPath
    let checksum = data.flatMap(AtlasData.checksum(of:))  // read once, for both stores
    if let atlas = try currentAtlas(shared: shared, dataChecksum: checksum, passedOver: passedOver) { return atlas }
    guard data != nil else { return nil }
    building?()
    do {
      try prepare()
      let lock = try writers.acquire()
      defer { lock.release() }
      // Another wx may have built it meanwhile.
      if let atlas = try? Atlas(path: atlasPath) {
        if Self.isCurrent(atlas, dataChecksum: checksum) { return atlas }
        atlas.close()
      }
      try buildAtlas(holding: lock)
      return try Atlas(path: atlasPath)
    } catch let error as StoreError where error.isUnwritable {
      // Said of the atlas: the folder's own warning (the catalogue's) is another matter.
      switch error {
      case .io(_, _, let e): throw StoreError.io(path: atlasPath, operation: "building", errno: e)
      default: throw StoreError.permission(path: atlasPath)
      }
    }
  }

  /// Whether `atlas` was built by this wx from the data whose checksum is `dataChecksum`
  /// (nil: no data to compare with, so any data will do).
  package static func isCurrent(_ atlas: Atlas, dataChecksum: UInt32?) -> Bool {
    atlas.meta.version == AtlasWriter.version && (dataChecksum.map { $0 == atlas.meta.dataChecksum } ?? true)
  }

  /// Builds the shared atlas store in `folder`, beside its `atlas.bin` (`make install`,
  /// `make run`: `wx __build-atlas FOLDER`): nothing when a current one is there. Returns the
  /// places written (nil when it was current). The store is left read-only (0444).
  package static func buildSharedAtlas(in folder: String) throws -> AtlasMeta? {
    let home = shared(in: folder)
    guard let data = home.atlasDataPath else { throw HomeError.noAtlasData(searched: home.atlasDataCandidates) }
    if let atlas = try? Atlas(path: home.atlasPath) {
      defer { atlas.close() }
      if let sum = AtlasData.checksum(of: data), isCurrent(atlas, dataChecksum: sum) { return nil }
    }
    return try home.buildingShared(home.atlasPath) { lock in try home.buildAtlas(holding: lock) }
  }

  /// Builds the atlas from the shipped data and publishes it, under `lock`.
  @discardableResult
  package func buildAtlas(holding lock: WriterLock) throws -> AtlasMeta {
    let (builder, meta) = try atlasBuilder()
    try builder.publish()
    return meta
  }

  /// A new atlas store written from the shipped data beside the live one, not yet published
  /// (a repair publishes it with ``Doctor/replace(_:with:)``).
  func atlasBuilder() throws -> (StoreBuilder, AtlasMeta) {
    guard let path = atlasDataPath else { throw HomeError.noAtlasData(searched: atlasDataCandidates) }
    let data = try AtlasData(path: path)
    let builder = try StoreBuilder(finalPath: atlasPath)
    do {
      return (builder, try AtlasWriter.write(data, into: builder.database, now: now()))
    } catch {
      builder.abandon()
      throw error
    }
  }
}

/// `wx doctor`'s atlas check and repair (the atlas is derived data: a repair rebuilds it).
extension Doctor {
  /// Absent (built on first use), healthy (every value's checksum, every place, every index
  /// entry), or what is wrong.
  package func checkAtlas() -> Health {
    guard FileSystem.exists(home.atlasPath) else {
      // None of its own: the shared one answers (its own line checks it).
      if let shared = home.sharedAtlasPath, let atlas = try? Atlas(path: shared) {
        defer { atlas.close() }
        return .healthy(records: atlas.meta.count, detail: "the shared one, read-only")
      }
      return .absent
    }
    do throws(StoreError) {
      let atlas = try Atlas(path: home.atlasPath, scanning: true)
      defer { atlas.close() }
      guard Home.isCurrent(atlas, dataChecksum: home.atlasDataPath.flatMap(AtlasData.checksum(of:))) else {
        return .healthy(records: atlas.meta.count, detail: "from other data or an older wx: rebuilt on first use")
      }
      try atlas.check()
      return withMode(.healthy(records: atlas.meta.count, detail: "GeoNames places"), home.atlasPath)
    } catch {
      return .broken(error)
    }
  }

  /// The data shipped with wx, each named: the bundled sample (its checksum), the atlas data
  /// (`atlas.bin`: its checksum and tables), and the shared sample catalogue and atlas store
  /// beside them, when there are (every record, every value's checksum). Absent ones are left out.
  package func checkShippedData() -> [(name: String, path: String, health: Health)] {
    var out: [(name: String, path: String, health: Health)] = []
    if let sample = home.samplePath {
      do throws(StoreError) {
        let bytes = try FileSystem.read(sample)
        if let reason = SampleChecksum.mismatch(bytes, of: sample) {
          out.append(("sample", sample, .broken(.unusable(path: sample, reason: reason, remedy: .reinstall))))
        } else {
          out.append(("sample", sample, .healthy(records: 0, detail: "")))
        }
      } catch {
        out.append(("sample", sample, .broken(error)))
      }
    }
    if let path = home.atlasDataPath {
      do throws(StoreError) {
        let data = try AtlasData(path: path)
        out.append(("atlas data", path, .healthy(records: data.count, detail: "")))
      } catch {
        out.append(("atlas data", path, .broken(error)))
      }
    }
    if let path = home.sharedSamplePath {
      if case .broken(let error) = checkCatalogue(at: path) {
        out.append(("shared sample", path, .broken(.unusable(path: path, reason: "it is damaged: \(error)", remedy: .reinstall))))
      } else {
        out.append(("shared sample", path, .healthy(records: 0, detail: "")))
      }
    }
    if let path = home.sharedAtlasPath {
      do throws(StoreError) {
        let atlas = try Atlas(path: path, scanning: true)
        defer { atlas.close() }
        try atlas.check()
        out.append(("shared atlas", path, .healthy(records: atlas.meta.count, detail: "")))
      } catch {
        out.append(("shared atlas", path, .broken(.unusable(path: path, reason: "it is damaged: \(error)", remedy: .reinstall))))
      }
    }
    return out
  }

  /// Builds the atlas again from the shipped data, under `lock`, and renames it over the
  /// damaged one, which is kept beside it (``replace(_:with:)``: a failed or killed repair
  /// leaves the damaged atlas where it was).
  package func repairAtlas(holding lock: WriterLock) throws -> Repair {
    let (builder, meta) = try home.atlasBuilder()
    let backup = try replace(home.atlasPath, with: builder)
    return Repair(recovered: meta.count, lost: 0, backup: backup, note: "rebuilt from the shipped data (\(meta.count) places)")
  }
}
