/// A refresh of some of the catalogue's cities, from plan to publish, in one place: the plan
/// (``RefreshPlan``: all, the favourites, one place), a provider that only fetches and decodes
/// (``OpenMeteoProvider``, ``OpenMeteoAirQuality``: no store opened), one merge into the
/// catalogue planned from (``merge(_:plan:into:)``: the generation it was planned from, or
/// ``SyncError/catalogueChanged``), one publish (``SyncService``, which checks the generation
/// again under the writer lock). `wx sync --provider open-meteo`, `wx show --refresh` and `wx
/// aqi sync` all go through it.
package struct Refresher: Sendable {
  package let service: SyncService

  package init(home: Home, now: Int64) { service = SyncService(home: home, now: now) }

  /// The weather of `plan`'s cities into the catalogue it was made from; every other city
  /// keeps its record (and its provenance), the plan's new places join it.
  package func weather(_ plan: RefreshPlan, config: ProviderConfig, allowShrink: Bool = false) async throws -> SyncReport {
    var report = try await service.catalogue(
      from: Merged(fetcher: OpenMeteoProvider(config: config, plan: plan)), source: config.url, allowShrink: allowShrink,
      basis: plan.basis, refreshed: plan.chosen.count)
    report.skipped = plan.skipped
    return report
  }

  /// One air-quality reading for each of `plan`'s cities into the history (all or nothing).
  package func airQuality(_ plan: RefreshPlan, config: ProviderConfig) async throws -> SyncReport {
    try await service.recordAirQuality(plan, config: config)
  }

  /// The catalogue as the publish reads it: the fetched weather merged into the catalogue
  /// planned from, city by city.
  struct Merged: WeatherProvider {
    let fetcher: OpenMeteoProvider
    var name: String { fetcher.name }

    func fetch() async throws -> [City] {
      var out: [City] = []
      _ = try await stream { out.append($0) }
      return out
    }

    func stream(into record: (City) throws -> Void) async throws -> Int {
      try Refresher.merge(try await fetcher.weather(), plan: fetcher.plan, into: record)
    }
  }

  /// ``merge(_:plan:into:)`` of cities held as values (tests).
  static func merge(_ fetched: [City], plan: RefreshPlan, into record: (City) throws -> Void) throws -> Int {
    let held = OpenMeteoProvider.Fetched(count: fetched.count, directory: Home.temporaryDirectory)
    for (i, city) in fetched.enumerated() { try held.add(city, at: i) }
    return try merge(held, plan: plan, into: record)
  }

  /// Hands on the cities of the catalogue `plan` was made from, read again a record block at
  /// a time, with `fetched` (the plan's cities with their new weather, in its order) in their
  /// places, then the plan's new places; returns how many. Throws
  /// ``SyncError/catalogueChanged`` when the catalogue is no longer the one planned from.
  static func merge(_ fetched: OpenMeteoProvider.Fetched, plan: RefreshPlan, into record: (City) throws -> Void) throws -> Int {
    // Plan positions of catalogue cities, by catalogue position (the plan keeps catalogue
    // order, but a sorted pair list does not rely on it), then the new places.
    var replaced: [(position: Int, index: Int)] = []
    var added: [Int] = []
    for (i, c) in plan.chosen.prefix(fetched.count).enumerated() {
      if let p = c.position { replaced.append((p, i)) } else { added.append(i) }
    }
    replaced.sort { $0.position < $1.position }
    let catalogue = try Catalogue(path: plan.path)
    defer { catalogue.close() }
    guard catalogue.meta.generation == plan.basis.generation else { throw SyncError.catalogueChanged }
    let count = catalogue.meta.count
    var next = 0
    for start in stride(from: 0, to: count, by: CatalogueKey.citiesPerBlock) {
      let page = try catalogue.page(order: .catalogue, offset: start, limit: CatalogueKey.citiesPerBlock)
      catalogue.forgetBlocks()
      for (k, city) in page.enumerated() {
        while next < replaced.count && replaced[next].position < start + k { next += 1 }
        if next < replaced.count && replaced[next].position == start + k {
          try record(try fetched.city(replaced[next].index))
        } else {
          try record(city)
        }
      }
    }
    for i in added { try record(try fetched.city(i)) }
    return count + added.count
  }
}
