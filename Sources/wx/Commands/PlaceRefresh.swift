import WXCore

/// `wx show PLACE --refresh` and `wx forecast PLACE --refresh`: the one way a read command
/// touches the network, said by its option. The place (or the last one shown) is resolved as
/// the command resolves it, its weather fetched from Open-Meteo into the catalogue (as `wx
/// sync --provider open-meteo --city PLACE` does), then the command answers from the store.
/// Unreachable or refused, the store answers as it is, with its age and a warning.
enum PlaceRefresh {
  static func run(_ city: String?, quiet: Bool, _ console: Console) async throws {
    let ctx = try Context.make(console)
    // Which place a shared name was taken for is said once, by the command's own lookup after
    // the refresh (`wx forecast --refresh rio` said it twice, offering `wx show` first).
    let muted = console.notesMuted
    console.notesMuted = true
    let plan = try Self.plan(city, ctx)
    console.notesMuted = muted || quiet
    // As many forecast days as the place has stored (a week kept from `--days 7` stays a week).
    let days = min(max(plan.cities.first?.forecast.count ?? 0, ProviderConfig.defaultDays), 16)
    let config = ProviderConfig(
      url: ProviderName.openMeteo.defaultURL, timeout: try Context.seconds("WX_HTTP_TIMEOUT", default: 30, allowZero: false),
      days: days)
    do {
      _ = try await Refresher(home: ctx.home, now: ctx.currentTime()).weather(plan, config: config)
    } catch let failure as SyncFailure {
      guard case .download = failure.cause, failure.unchanged || !failure.existed else { throw failure }
      console.note("wx: warning: not refreshed: \(ExitStatus.of(failure).1); showing the stored weather")
    }
  }

  /// The plan for the one place `city` names (the last place shown without it).
  static func plan(_ city: String?, _ ctx: Context) throws -> RefreshPlan {
    let catalogue = try ctx.catalogue()
    defer { catalogue.close() }
    let finder = try ctx.finder(catalogue)
    defer { finder.atlas?.close() }
    let found = try ctx.resolvePlace(city, in: finder, remembering: false)
    return try RefreshPlan(.place(found), limit: nil, catalogue: catalogue, finder: { finder })
  }
}
