/// What a sync does before it fetches anything: nothing at all while the catalogue is younger
/// than `--if-older`; else fetch from the provider asked for, or, with none named, the one
/// the catalogue's weather last came from (so every "run `wx sync`" brings newer data):
/// Open-Meteo when an option only it takes was given, freetestapi for the sample or no
/// catalogue. A pure function of the header, the clock and the options.
package enum SyncDecision: Equatable, Sendable {
  /// The catalogue was synced `age` seconds ago, within the limit: no request at all; or,
  /// `observed`, its oldest weather was observed `age` seconds ago (a sync of some cities).
  case skip(age: Int64, observed: Bool = false)
  /// Fetch from `provider` (`freetestapi`, `accuweather`, `open-meteo`); `favouritesOnly`
  /// when an Open-Meteo refresh of everything would exceed ``RefreshPlan/cap``.
  case fetch(provider: String, favouritesOnly: Bool)

  package static func decide(
    meta: CatalogueMeta?, now: Int64, asked: String?, openMeteoOnly: Bool, ifOlder: Int64?
  ) -> SyncDecision {
    if let ifOlder, let meta, !meta.isSample {
      // A sync of some cities (`show --refresh`, the favourites) does not make the rest young:
      // then the oldest observation counts (the list's sync when the header has none). The
      // sample's invented rows have no age: a sync of every other city is a whole one (a
      // favourites sync over the sample was timed from its observation, 15 minutes older).
      let invented = meta.bySource?.first ?? 0  // WeatherSource.sample's count
      let partial = meta.refreshed < meta.count - invented
      let basis = partial ? (meta.oldestObservation ?? meta.listSyncedAt) : meta.syncedAt
      let age = now - basis
      if age >= 0 && age < ifOlder { return .skip(age: age, observed: partial && meta.oldestObservation != nil) }
    }
    if let asked { return .fetch(provider: asked, favouritesOnly: false) }
    if openMeteoOnly { return .fetch(provider: "open-meteo", favouritesOnly: false) }
    guard let meta, ["freetestapi", "accuweather", "open-meteo"].contains(meta.provider) else {
      return .fetch(provider: "freetestapi", favouritesOnly: false)
    }
    return .fetch(provider: meta.provider, favouritesOnly: meta.provider == "open-meteo" && meta.count > RefreshPlan.cap)
  }
}
