import Testing

@testable import WXCore

/// What a sync does before fetching: `--if-older`, and the provider when none is named.
@Suite struct SyncDecisionTests {
  static func meta(_ provider: String, syncedAt: Int64 = 1_000, count: Int = 62, sample: Bool = false) -> CatalogueMeta {
    CatalogueMeta(generation: 1, source: "x", provider: provider, syncedAt: syncedAt, count: count, isSample: sample)
  }

  @Test func youngerThanTheLimitFetchesNothing() {
    let m = Self.meta("open-meteo")
    #expect(
      SyncDecision.decide(meta: m, now: 1_000 + 1_499, asked: nil, openMeteoOnly: false, ifOlder: 1_500) == .skip(age: 1_499))
    #expect(
      SyncDecision.decide(meta: m, now: 1_000 + 1_500, asked: nil, openMeteoOnly: false, ifOlder: 1_500)
        == .fetch(provider: "open-meteo", favouritesOnly: false))
    // The sample is never young; a clock before the sync (a sync from the future) is not either.
    #expect(
      SyncDecision.decide(meta: Self.meta("sample", sample: true), now: 1_001, asked: nil, openMeteoOnly: false, ifOlder: 1_500)
        == .fetch(provider: "freetestapi", favouritesOnly: false))
    #expect(
      SyncDecision.decide(meta: m, now: 900, asked: nil, openMeteoOnly: false, ifOlder: 1_500)
        == .fetch(provider: "open-meteo", favouritesOnly: false))
  }

  /// After a sync of one city (`show --refresh`), the rest are as old as they were: the
  /// oldest observation decides, not the header's sync time.
  @Test func aSyncOfSomeCitiesDoesNotMakeTheRestYoung() {
    var m = Self.meta("open-meteo", syncedAt: 10_000)
    m.refreshed = 1
    (m.oldestObservation, m.newestObservation) = (2_000, 10_000)
    #expect(
      SyncDecision.decide(meta: m, now: 10_600, asked: nil, openMeteoOnly: false, ifOlder: 1_500)
        == .fetch(provider: "open-meteo", favouritesOnly: false))
    m.oldestObservation = 9_500
    #expect(
      SyncDecision.decide(meta: m, now: 10_600, asked: nil, openMeteoOnly: false, ifOlder: 1_500)
        == .skip(age: 1_100, observed: true))
  }

  /// A favourites sync over the bundled sample refreshed every city with weather of its own:
  /// its sync time counts, not its observation (15 minutes older on Open-Meteo), so a timer's
  /// `--if-older 30m` five minutes on fetches nothing and says "synced 5m ago".
  @Test func theSamplesRowsDoNotMakeASyncPartial() {
    var m = Self.meta("open-meteo", syncedAt: 10_000)
    m.refreshed = 1
    m.bySource = [61, 0, 0, 1]
    (m.oldestObservation, m.newestObservation) = (9_400, 9_400)
    #expect(
      SyncDecision.decide(meta: m, now: 10_300, asked: nil, openMeteoOnly: false, ifOlder: 1_800) == .skip(age: 300))
    #expect(
      SyncDecision.decide(meta: m, now: 11_500, asked: nil, openMeteoOnly: false, ifOlder: 1_800) == .skip(age: 1_500))
    #expect(
      SyncDecision.decide(meta: m, now: 11_800, asked: nil, openMeteoOnly: false, ifOlder: 1_800)
        == .fetch(provider: "open-meteo", favouritesOnly: false))
  }

  @Test func theProviderLastUsedUnlessOneIsNamed() {
    let cases: [(CatalogueMeta?, String?, Bool, SyncDecision)] = [
      (nil, nil, false, .fetch(provider: "freetestapi", favouritesOnly: false)),
      (Self.meta("accuweather"), nil, false, .fetch(provider: "accuweather", favouritesOnly: false)),
      (Self.meta("open-meteo", count: 501), nil, false, .fetch(provider: "open-meteo", favouritesOnly: true)),
      (Self.meta("open-meteo"), "freetestapi", false, .fetch(provider: "freetestapi", favouritesOnly: false)),
      (Self.meta("freetestapi"), nil, true, .fetch(provider: "open-meteo", favouritesOnly: false)),
      (Self.meta("bogus"), nil, false, .fetch(provider: "freetestapi", favouritesOnly: false)),
    ]
    for (meta, asked, om, expected) in cases {
      #expect(
        SyncDecision.decide(meta: meta, now: 5_000, asked: asked, openMeteoOnly: om, ifOlder: nil) == expected, "\(expected)")
    }
  }

  @Test func durationsAsPeopleWriteThem() {
    #expect(DurationText.seconds("90m") == 5_400 && DurationText.seconds("3h") == 10_800 && DurationText.seconds("2d") == 172_800)
    #expect(DurationText.seconds("1h30m") == 5_400 && DurationText.seconds("45") == 2_700 && DurationText.seconds("10s") == 10)
    for bad in ["", "h", "3x", "-1h", "1.5h", "99999999999999999999d"] { #expect(DurationText.seconds(bad) == nil, "\(bad)") }
  }
}
