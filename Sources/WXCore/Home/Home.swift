internal import CGDBM

import Glibc
import WXFeed

/// The state folder and everything wx keeps in it.
///
/// Built once per process by the executable from the environment (`WX_HOME`, `XDG_DATA_HOME`,
/// `HOME`, …); WXCore itself never reads environment variables.
package struct Home: Sendable {
  package let directory: String
  /// Where the bundled sample (`sample-weathers.json`) may be, in order of preference.
  package let sampleCandidates: [String]
  /// Seconds a writer waits for the lock before failing with `busy`.
  package let lockDeadline: Double
  /// The caller's clock (seconds since the epoch): the one time a sample's seeding and an
  /// atlas's build are dated by. The executable passes its own (`WX_NOW` in tests); WXCore
  /// reads the system's only for file-system facts (a temp file's age, a kept file's name)
  /// and an HTTP `Retry-After` date.
  package let now: @Sendable () -> Int64

  package init(
    directory: String, sampleCandidates: [String], lockDeadline: Double = 5, now: @escaping @Sendable () -> Int64 = Clock.now
  ) {
    self.directory = directory
    self.sampleCandidates = sampleCandidates
    self.lockDeadline = lockDeadline
    self.now = now
  }

  package var cataloguePath: String { directory + "/" + FileSystem.StateFileName.catalogue }

  /// The catalogue's header, when there is a readable catalogue (nothing is seeded).
  package func catalogueMeta() -> CatalogueMeta? {
    guard FileSystem.exists(cataloguePath), let c = try? Catalogue(path: cataloguePath) else { return nil }
    defer { c.close() }
    return c.meta
  }
  package var preferencesPath: String { directory + "/" + FileSystem.StateFileName.preferences }
  package var favouritesPath: String { directory + "/" + FileSystem.StateFileName.favourites }
  package var aqiPath: String { directory + "/" + FileSystem.StateFileName.aqi }
  package var alertsPath: String { directory + "/" + FileSystem.StateFileName.alerts }
  /// What `wx alerts --notify` has sent.
  package var sentAlerts: SentAlerts { SentAlerts(path: alertsPath, writers: writers) }
  package var lockPath: String { directory + "/" + FileSystem.StateFileName.lock }
  /// Every store file, for status and doctor.
  package var storePaths: [(name: String, path: String)] {
    [
      ("catalogue", cataloguePath), ("preferences", preferencesPath), ("favourites", favouritesPath), ("air quality", aqiPath),
      ("alerts sent", alertsPath), ("atlas", atlasPath),
    ]
  }

  /// How this folder's writers serialise: wx.lock here, waited for up to `lockDeadline`.
  package var writers: WriterLock.Policy { WriterLock.Policy(directory: directory, deadline: lockDeadline) }

  package var preferences: PreferencesStore {
    PreferencesStore(path: preferencesPath, writers: writers)
  }

  package var favourites: FavouritesStore {
    FavouritesStore(path: favouritesPath, writers: writers)
  }

  package var aqi: AQIStore {
    AQIStore(path: aqiPath, writers: writers)
  }

  /// Creates the state folder (0700) if needed.
  package func prepare() throws(StoreError) { try FileSystem.makeDirectory(directory) }

  /// The bundled sample's path, if installed.
  package var samplePath: String? { sampleCandidates.first(where: FileSystem.exists) }

  // MARK: Catalogue

  /// Opens the catalogue. With no catalogue yet, seeds it from the bundled sample and
  /// reports that it did (`seeded == true`).
  package func openCatalogue(seed: Bool = true) throws -> (catalogue: Catalogue, seeded: Bool, unwritable: StoreError?) {
    do throws(StoreError) {
      return (try Catalogue(path: cataloguePath), false, nil)
    } catch {
      guard case .missing = error, seed else { throw error }
    }
    do {
      try prepare()
      let lock = try writers.acquire()
      defer { lock.release() }
      if !FileSystem.exists(cataloguePath) {  // another wx may have seeded it meanwhile
        try seedFromSample(holding: lock)
      }
      return (try Catalogue(path: cataloguePath), true, nil)
    } catch let error as StoreError where error.isUnwritable {
      // A state folder that cannot be written (read-only, immutable, not ours) must not stop
      // a read: the sample is seeded into a private temporary folder instead, opened, and
      // its files removed at once (the open handle keeps them readable until it closes).
      // `unwritable` says why of the folder (a read-only file system is no matter of owner
      // and mode).
      let why: StoreError
      if case .io(_, let operation, let e) = error {
        why = .io(path: directory, operation: operation, errno: e)
      } else {
        why = .permission(path: directory)
      }
      return (try openSampleElsewhere(), true, why)
    }
  }

  /// The bundled sample, seeded into a private temporary folder that is gone by the time
  /// this returns. The catalogue's `path` is then not ``cataloguePath``.
  private func openSampleElsewhere() throws -> Catalogue {
    var template = Array("\(Self.temporaryDirectory)/wx-sample-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw StoreError.io(path: Self.temporaryDirectory, operation: "creating a folder in", errno: errno)
    }
    let folder = String(cString: made)
    let elsewhere = Home(directory: folder, sampleCandidates: sampleCandidates, lockDeadline: lockDeadline, now: now)
    defer {
      for name in FileSystem.list(folder) { FileSystem.remove(folder + "/" + name) }
      rmdir(folder)
    }
    let lock = try elsewhere.writers.acquire()
    defer { lock.release() }
    try elsewhere.seedFromSample(holding: lock)
    return try Catalogue(path: elsewhere.cataloguePath)
  }

  /// `$TMPDIR`'s folder is the caller's business; WXCore uses /tmp.
  package static let temporaryDirectory = "/tmp"

  /// Writes the bundled sample as the catalogue, under `lock`: a copy of the shared sample
  /// catalogue beside it when there is a current one (``sharedSamplePath``: a file copy,
  /// a third of a first command's time saved), else built from the sample itself.
  package func seedFromSample(holding lock: WriterLock) throws {
    if let shared = sharedSamplePath, let catalogue = try? Catalogue(path: shared) {
      let usable = catalogue.meta.isSample
      catalogue.close()
      if usable {
        try FileSystem.publishCopy(of: shared, to: cataloguePath)
        return
      }
    }
    try sampleCatalogue(holding: lock).publish()
  }

  /// The shared sample catalogue beside the bundled sample (`make install` builds it, read-only,
  /// with the shared atlas), when it is there and no older than the sample (an upgrade that
  /// ships a new sample without rebuilding it is passed over).
  package var sharedSamplePath: String? {
    guard let sample = samplePath else { return nil }
    let path = FileSystem.directoryName(sample) + "/" + FileSystem.StateFileName.sharedSample
    guard let built = FileSystem.modified(path), let shipped = FileSystem.modified(sample),
      (built.tv_sec, built.tv_nsec) >= (shipped.tv_sec, shipped.tv_nsec)
    else {
      return nil
    }
    return path
  }

  /// Builds the shared sample catalogue beside the sample in `folder` (`wx __build-atlas`),
  /// read-only; nothing when a current one is there. True when it built one.
  package static func buildSharedSample(in folder: String) throws -> Bool {
    let home = shared(in: folder)
    if home.sharedSamplePath != nil { return false }
    try home.buildingShared(folder + "/" + FileSystem.StateFileName.sharedSample) { lock in
      try home.sampleCatalogue(holding: lock, at: folder + "/" + FileSystem.StateFileName.sharedSample).publish()
    }
    return true
  }

  /// The folder of what ships with wx (`share/wx`: the sample and the atlas data beside it),
  /// as a home whose stores `wx __build-atlas` builds there.
  package static func shared(in folder: String) -> Home {
    Home(directory: folder, sampleCandidates: [folder + "/sample-weathers.json"])
  }

  /// Runs `build` under the folder's writer lock, then leaves `path` read-only (0444) for every
  /// user and the folder without the lock file: a shared folder holds only the data.
  @discardableResult
  package func buildingShared<R>(_ path: String, _ build: (WriterLock) throws -> R) throws -> R {
    let lock = try writers.acquire()
    defer {
      lock.release()
      FileSystem.remove(directory + "/" + FileSystem.StateFileName.lock)
    }
    let result = try build(lock)
    try FileSystem.setMode(path, 0o444)
    return result
  }

  /// The bundled sample written as a new catalogue file, not yet published (`wx doctor
  /// --repair` keeps a copy of the damaged catalogue before it publishes this one).
  package func sampleCatalogue(holding lock: WriterLock, at path: String? = nil) throws -> StoreBuilder {
    guard let sample = samplePath else { throw HomeError.noSample(searched: sampleCandidates) }
    let cities: [City]
    do {
      let bytes = try FileSystem.read(sample)
      if let reason = SampleChecksum.mismatch(bytes, of: sample) { throw HomeError.badSample(path: sample, reason: reason) }
      cities = try FreeTestAPIDecoder.decode(bytes).map {
        var city = $0
        city.provenance = .sample
        return city
      }
    } catch let error as PayloadError {
      throw HomeError.badSample(path: sample, reason: error.reason)
    }
    let meta = CatalogueMeta(
      generation: UInt64.random(in: 1...UInt64.max), source: "sample:" + sample, provider: "sample",
      syncedAt: now(), count: cities.count, isSample: true)
    let builder = try StoreBuilder(finalPath: path ?? cataloguePath)
    _ = try CatalogueWriter.write(cities, meta: meta, into: builder.database)
    return builder
  }

  /// Publishes a complete new catalogue atomically, under `lock`.
  @discardableResult
  package func publishCatalogue(_ cities: [City], meta: CatalogueMeta, holding lock: WriterLock) throws(StoreError)
    -> CatalogueMeta
  {
    let builder = try StoreBuilder(finalPath: cataloguePath)
    let written = try CatalogueWriter.write(cities, meta: meta, into: builder.database)
    try builder.publish()
    return written
  }
}

/// Problems with the installation rather than the data.
package enum HomeError: Error, Equatable, Sendable, CustomStringConvertible {
  case noSample(searched: [String])
  case badSample(path: String, reason: String)
  /// `wx doctor --repair` was asked to build the atlas and its data is not installed.
  case noAtlasData(searched: [String])

  package var description: String {
    switch self {
    case .noSample:
      return "no catalogue yet and the bundled sample is not installed"
    case .badSample(let path, let reason): return "the bundled sample \(path) is unusable: \(reason)"
    case .noAtlasData: return "the atlas data (atlas.bin) is not installed"
    }
  }

  /// What to do about it.
  package var remedy: Remedy? {
    if case .noSample = self { return .syncOrFindTheSample }
    if case .badSample = self { return .reinstall }
    if case .noAtlasData = self { return .findTheData }
    return nil
  }
}

/// The bundled sample's checksum, `sample-weathers.crc32` beside it (`make sample` writes it:
/// the CRC-32 of the file in hex and its size): a flipped bit in a number would otherwise read
/// as other weather. A sample without one (a folder of the user's own) is taken as it is.
package enum SampleChecksum {
  /// Why `bytes`, read from `path`, do not match the checksum beside it; nil when they do or
  /// there is none.
  package static func mismatch(_ bytes: [UInt8], of path: String) -> String? {
    let sidecar = path.hasSuffix(".json") ? String(path.dropLast(5)) + ".crc32" : path + ".crc32"
    guard FileSystem.exists(sidecar) else { return nil }
    guard let text = try? FileSystem.read(sidecar), text.count < 64 else { return "its checksum file is unreadable" }
    let fields = String(decoding: text, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard fields.count == 2, let crc = UInt32(fields[0], radix: 16), let size = Int(fields[1]) else {
      return "its checksum file is unreadable"
    }
    guard bytes.count == size, CRC32.checksum(bytes[...]) == crc else {
      return "its checksum does not match (a damaged or altered file)"
    }
    return nil
  }
}
