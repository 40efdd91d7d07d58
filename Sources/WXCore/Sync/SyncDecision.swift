/// What a sync does before it fetches anything: nothing at all while the catalogue is younger
/// than `--if-older`; else fetch from the provider asked for, or, with none named, the one
/// the catalogue's weather last came from (so every "run `wx sync`" brings newer data):
/// Open-Meteo when an option only it takes was given, freetestapi for the sample or no
/// catalogue. A pure function of the header, the clock and the options.
package enum SyncDecision: Equatable, Sendable {
  /// The catalogue was synced `age` seconds ago, within the limit: no request at all.
  case skip(age: Int64)
  /// Fetch from `provider` (`freetestapi`, `accuweather`, `open-meteo`); `favouritesOnly`
  /// when an Open-Meteo refresh of everything would exceed ``RefreshPlan/cap``.
  case fetch(provider: String, favouritesOnly: Bool)

  package static func decide(
    meta: CatalogueMeta?, now: Int64, asked: String?, openMeteoOnly: Bool, ifOlder: Int64?
  ) -> SyncDecision {
    if let ifOlder, let meta, !meta.isSample {
      // A sync of some cities (`show --refresh`, the favourites) does not make the rest young:
      // then the oldest observation counts (the list's sync when the header has none).
      let basis = meta.refreshed < meta.count ? (meta.oldestObservation ?? meta.listSyncedAt) : meta.syncedAt
      let age = now - basis
      if age >= 0 && age < ifOlder { return .skip(age: age) }
    }
    if let asked { return .fetch(provider: asked, favouritesOnly: false) }
    if openMeteoOnly { return .fetch(provider: "open-meteo", favouritesOnly: false) }
    guard let meta, ["freetestapi", "accuweather", "open-meteo"].contains(meta.provider) else {
      return .fetch(provider: "freetestapi", favouritesOnly: false)
    }
    return .fetch(provider: meta.provider, favouritesOnly: meta.provider == "open-meteo" && meta.count > RefreshPlan.cap)
  }
}
