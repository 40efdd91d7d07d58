internal import CGDBM

import Glibc
import WXFeed

/// The stores a sync replaces.
package enum SyncedStore: Equatable, Sendable {
  case catalogue
  case airQuality
}

/// What a sync did, as values the executable words: which store it replaced, how many
/// records that store was given, how many cities were fetched and skipped, from where.
package struct SyncReport: Equatable, Sendable {
  package var store: SyncedStore
  /// The published catalogue's header (nil for air quality).
  package var meta: CatalogueMeta?
  /// Records the new store was given: the catalogue's cities, or the readings recorded.
  package var records: Int
  /// Cities whose weather (or air quality) was fetched: `records` for a whole new
  /// catalogue, fewer for a refresh of some of its cities.
  package var refreshed: Int
  /// Cities left out for having no coordinates (Open-Meteo).
  package var skipped = 0
  /// Where the records came from (redacted).
  package var source: String
}

/// A failed sync, and what it left: every store as it was unless ``published`` (the new
/// catalogue took the old one's place and what failed came after: the folder's fsync).
package struct SyncFailure: Error, Sendable {
  package enum Cause: Sendable {
    /// The download failed, or its data was refused.
    case download(SyncError)
    /// A store could not be read or written.
    case store(StoreError)
  }

  package var cause: Cause
  /// The store the sync would have replaced.
  package var store: SyncedStore
  /// The store error is about the new file being written, thrown away with it (its path
  /// means nothing to anyone: say what it was), not about a live file.
  package var inTempFile = false
  /// There was a store to keep (a first sync has none).
  package var existed = true
  /// The new file took the old one's place.
  package var published = false

  /// The store is the one there was.
  package var unchanged: Bool { existed && !published }
}

/// Syncs: downloads into a new file beside the live store, publishes it atomically under the
/// writer lock, and reports what happened (``SyncReport``) or what failed and what it left
/// (``SyncFailure``). A failed sync leaves every store byte-identical.
package struct SyncService: Sendable {
  package let home: Home
  /// The time the sync runs at (seconds since the epoch), from the caller's one clock: the
  /// header's sync time, and the time freetestapi's records were served.
  package let now: Int64

  package init(home: Home, now: Int64) {
    self.home = home
    self.now = now
  }

  /// A new catalogue from `provider` (freetestapi, AccuWeather): every city it sends.
  package func replace(from provider: any WeatherProvider, source: String, allowShrink: Bool = false) async throws
    -> SyncReport
  {
    try await catalogue(from: provider, source: source, allowShrink: allowShrink)
  }

  /// One air-quality reading for each of `plan`'s cities into the history. All or nothing:
  /// a failed download records nothing (a ``SyncFailure``); a store error is the store's own.
  package func recordAirQuality(_ plan: RefreshPlan, config: ProviderConfig) async throws -> SyncReport {
    let readings: [AQIReading]
    do throws(SyncError) {
      readings = try await OpenMeteoAirQuality(config: config, cities: plan.cities, regions: plan.regions).fetch()
    } catch {
      throw SyncFailure(cause: .download(error), store: .airQuality)
    }
    try home.prepare()
    try home.aqi.record(readings, at: now)
    return SyncReport(
      store: .airQuality, records: readings.count, refreshed: plan.chosen.count, skipped: plan.skipped,
      source: Redact.url(config.url))
  }

  /// Downloads from `provider` straight into a new catalogue file (records are written as
  /// they are validated; the live catalogue is untouched), then takes the lock, writes the
  /// orders and the index and publishes. Any failure removes the new file. Unless
  /// `allowShrink`, refuses to replace a downloaded catalogue whose list came from the same
  /// provider with fewer than a tenth of its cities (``SyncError/shrinks(url:from:to:)``).
  ///
  /// A provider that refreshes the weather of an existing list (Open-Meteo) passes `basis`,
  /// the header of the catalogue it read, and `refreshed`, how many cities it fetched: the
  /// list's provenance is kept, and a catalogue replaced meanwhile is not overwritten
  /// (``SyncError/catalogueChanged``).
  func catalogue(
    from provider: any WeatherProvider, source: String, allowShrink: Bool, basis: CatalogueMeta? = nil, refreshed: Int? = nil
  ) async throws -> SyncReport {
    // Arrays of a quarter megabyte or more get pages of their own, handed back when freed.
    // (glibc's default threshold rises to the largest block freed, up to 32 MiB: after the
    // download's 16 MiB of seen records, the catalogue writer's arrays came from the heap,
    // whose freed holes stayed resident.) Set once a sync starts, for the whole process.
    _ = mallopt(M_MMAP_THRESHOLD, 1 << 18)
    let path = home.cataloguePath
    let tempPath = FileSystem.tempName(for: path)
    let existed = FileSystem.exists(path)
    var builder: StoreBuilder?
    do {
      try home.prepare()
      // The temp file is written before the lock is taken (a slow download must not hold up
      // `wx fav`); GDBM's own lock on it tells a lock holder's clean-up that it is in use.
      builder = try StoreBuilder(finalPath: path, tempPath: tempPath)
      let meta = try await publish(from: provider, into: builder!, source: source, allowShrink, basis, refreshed)
      return SyncReport(
        store: .catalogue, meta: meta, records: meta.count, refreshed: refreshed ?? meta.count, source: meta.source)
    } catch let error as SyncError {
      throw SyncFailure(cause: .download(error), store: .catalogue, existed: existed)
    } catch let error as StoreError {
      throw SyncFailure(
        cause: .store(error), store: .catalogue, inTempFile: error.path == tempPath, existed: existed,
        published: builder?.published ?? false)
    }
  }

  private func publish(
    from provider: any WeatherProvider, into builder: StoreBuilder, source: String, _ allowShrink: Bool,
    _ basis: CatalogueMeta?, _ refreshed: Int?
  ) async throws -> CatalogueMeta {
    // The atlas places' cities are linked, when the atlas data is installed (whether or not
    // commands read the atlas: `WX_ATLAS` is theirs to decide).
    let writer = CatalogueWriter(into: builder.database, atlasData: home.atlasDataPath)
    // Records are stored on a second thread while the next ones are read off the network:
    // at most 256 records or 256 KiB of them a batch, four batches waiting.
    // A record the provider gives no provenance (freetestapi, which says nothing of when it
    // observed its values) was served now.
    let served = Provenance(source: WeatherSource(provider: provider.name) ?? .freetestapi, observedAt: now)
    let handoff = Handoff<City>(batchWeight: 256 << 10, weight: Self.approximateSize) { batch in
      for var city in batch {
        if city.provenance == nil { city.provenance = served }
        try writer.add(city)
      }
    }
    do {
      _ = try await provider.stream { try handoff.send($0) }
      try handoff.finish()
    } catch {
      // A storage failure among the records before the download's own failure is what a
      // sync storing them one by one would have met first.
      throw handoff.drain() ?? error
    }
    try writer.link()  // outside the writer lock: others need not wait for it
    let lock = try home.writers.acquire()
    defer { lock.release() }
    let current = try? Catalogue(path: home.cataloguePath)
    let old = current?.meta
    current?.close()
    if let basis, old?.generation != basis.generation { throw SyncError.catalogueChanged }
    // The list's provider: a weather refresh (Open-Meteo) in between does not lift the check.
    if !allowShrink, let old, !old.isSample, old.listProvider == provider.name, writer.count * 10 < old.count {
      throw SyncError.shrinks(url: source, from: old.count, to: writer.count)
    }
    let meta = CatalogueMeta(
      generation: UInt64.random(in: 1...UInt64.max), source: Redact.url(source), provider: provider.name,
      syncedAt: now, count: writer.count, isSample: false, listProvider: basis?.listProvider,
      listSyncedAt: basis?.listSyncedAt, refreshed: refreshed)
    let written = try writer.finish(meta: meta)
    try builder.publish()
    return written
  }

  /// About how many bytes a city takes in memory (its strings and forecast days).
  static func approximateSize(_ city: City) -> Int {
    var size = 160 + city.name.utf8.count + city.country.utf8.count + city.description.utf8.count
    for day in city.forecast { size += 80 + day.date.utf8.count + day.description.utf8.count }
    return size
  }
}
