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

  /// Opens the atlas, building it first when it is missing, was built by another version of
  /// wx or from other data (an upgrade shipped a new `atlas.bin`: its CRC-32, the file's last
  /// four bytes, is compared with the one the store records). nil when there is no atlas and
  /// no data to build one from (not installed). Errors: a damaged store (``StoreError``: `wx
  /// doctor --repair` rebuilds it), an unwritable state folder, a damaged data file.
  package func openAtlas() throws -> Atlas? {
    let data = atlasDataPath
    func current(_ atlas: Atlas) -> Bool {
      atlas.meta.version == AtlasWriter.version
        && (data.flatMap(AtlasData.checksum(of:)).map { $0 == atlas.meta.dataChecksum } ?? true)
    }
    do throws(StoreError) {
      let atlas = try Atlas(path: atlasPath)
      if current(atlas) { return atlas }
      atlas.close()
    } catch {
      guard case .missing = error else { throw error }
    }
    guard data != nil else { return nil }
    do {
      try prepare()
      let lock = try writers.acquire()
      defer { lock.release() }
      // Another wx may have built it meanwhile.
      if let atlas = try? Atlas(path: atlasPath) {
        if current(atlas) { return atlas }
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
      return (builder, try AtlasWriter.write(data, into: builder.database, now: Clock.now()))
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
    guard FileSystem.exists(home.atlasPath) else { return .absent }
    do throws(StoreError) {
      let atlas = try Atlas(path: home.atlasPath)
      defer { atlas.close() }
      guard atlas.meta.version == AtlasWriter.version,
        home.atlasDataPath.flatMap(AtlasData.checksum(of:)).map({ $0 == atlas.meta.dataChecksum }) ?? true
      else {
        return .healthy(records: atlas.meta.count, detail: "from other data or an older wx: rebuilt on first use")
      }
      try atlas.check()
      return withMode(.healthy(records: atlas.meta.count, detail: "GeoNames places"), home.atlasPath)
    } catch {
      return .broken(error)
    }
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
