import WXCore

/// Which of the catalogue's cities an Open-Meteo call covers (`--favourites`, `--max-cities`,
/// `--city`): the options' values and ranges, for `wx sync --provider open-meteo` and `wx aqi
/// sync`. The choosing is WXCore's ``RefreshPlan``.
struct OpenMeteoSelection {
  static let maxCitiesRange = 1...100_000
  var favourites = false
  var maxCities: Int?
  /// `--city`: one place, a catalogue city or any atlas place (`wx sync --provider open-meteo`).
  var city: String? = nil

  func validate() throws(UsageError) {
    if let maxCities, !Self.maxCitiesRange.contains(maxCities) {
      throw UsageError("--max-cities must be between 1 and \(Self.maxCitiesRange.upperBound)")
    }
    if city != nil && (favourites || maxCities != nil) {
      throw UsageError("--city names one place: it goes without --favourites and --max-cities")
    }
    if let city { try TypedName.check(city, as: "--city") }
  }

  /// The plan for the current catalogue: one `city` (resolved like `wx show`), the
  /// favourites, or every city; the first `maxCities` of them when given.
  func plan(_ ctx: Context) throws -> RefreshPlan {
    let catalogue = try ctx.catalogue(forSync: true)
    defer { catalogue.close() }
    var atlas: Atlas?
    defer { atlas?.close() }
    func finder() throws -> PlaceFinder {
      let finder = try ctx.finder(catalogue)
      atlas = finder.atlas
      return finder
    }
    let scope: RefreshPlan.Scope
    if let city {
      // Not remembered as the last city shown: a sync shows none, and a failed one changes no store.
      scope = .place(
        try ctx.resolvePlace(city, in: try finder(), remembering: false, command: "wx sync --provider open-meteo --city"))
    } else if favourites {
      scope = .favourites(try ctx.home.favourites.list())
    } else {
      scope = .all
    }
    return try RefreshPlan(scope, limit: maxCities, catalogue: catalogue, finder: finder)
  }

  /// How a summary says that cities were skipped for having no coordinates (nil when none were).
  static func skippedWords(_ n: Int) -> String? {
    n == 0 ? nil : "skipped \(n) \(n == 1 ? "city" : "cities") without coordinates (Open-Meteo is asked by coordinates)"
  }
}

extension RefreshPlanError {
  /// The one-line message (a usage error: exit 64).
  var message: String {
    switch self {
    case .noFavourites: return "no favourites to refresh; add some with `wx fav add CITY`"
    case .noFavouriteInCatalogue: return "none of the favourites is in the current catalogue"
    case .tooMany(let count, let cap, false):
      return "the catalogue has \(count) cities, more than the \(cap) Open-Meteo is asked for by default "
        + "(one API call each); pass --favourites or --max-cities N"
    case .tooMany(let count, let cap, true):
      return "the favourites are \(count) places, more than the \(cap) Open-Meteo is asked for by default "
        + "(one API call each); pass --max-cities \(count) to fetch them all"
    case .noCoordinates(let count):
      return "none of the \(count) cities has coordinates, which Open-Meteo needs; sync a list of cities with them first"
    }
  }
}
