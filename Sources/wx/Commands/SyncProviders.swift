import ArgumentParser
import WXCore

/// `--provider`: the one place a name becomes a provider.
enum ProviderName: String, CaseIterable, ExpressibleByArgument {
  case freetestapi, accuweather
  case openMeteo = "open-meteo"

  /// Cities an Open-Meteo sync refreshes without `--favourites` or `--max-cities`: the free
  /// tier counts one call per location and allows 600 a minute.
  static let openMeteoCap = 500

  /// The URL used without `--url`: the provider's environment variable, else its API.
  var defaultURL: String {
    switch self {
    case .freetestapi: Environment.get("WX_API_URL") ?? FreeTestAPIProvider.defaultURL
    case .accuweather: Environment.get("WX_ACCUWEATHER_URL") ?? AccuWeatherProvider.defaultURL
    case .openMeteo: Environment.get("WX_OPEN_METEO_URL") ?? OpenMeteoProvider.defaultURL
    }
  }

  /// What a sync runs: the provider and, for one that refreshes the weather of the current
  /// catalogue's cities (Open-Meteo), the header it read and how many cities it fetches.
  struct Plan {
    var provider: any WeatherProvider
    var basis: CatalogueMeta? = nil
    var refreshed: Int? = nil
  }

  func plan(_ config: ProviderConfig, ctx: Context, favourites: Bool, maxCities: Int?) throws -> Plan {
    switch self {
    case .freetestapi: return Plan(provider: FreeTestAPIProvider(config: config))
    case .accuweather:
      guard config.apiKey != nil else { throw SyncError.missingKey(provider: rawValue) }
      return Plan(provider: AccuWeatherProvider(config: config))
    case .openMeteo:
      let (cities, refresh, meta) = try Self.openMeteoCities(ctx: ctx, favourites: favourites, maxCities: maxCities)
      return Plan(
        provider: OpenMeteoProvider(config: config, cities: cities, refresh: refresh), basis: meta, refreshed: refresh.count)
    }
  }

  /// The current catalogue's cities, the positions an Open-Meteo call covers (all, the
  /// favourites, or the first `maxCities`; more than ``openMeteoCap`` only when asked), and
  /// the catalogue's header.
  static func openMeteoCities(ctx: Context, favourites: Bool, maxCities: Int?) throws
    -> (cities: [City], refresh: [Int], meta: CatalogueMeta)
  {
    let catalogue = try ctx.catalogue()
    defer { catalogue.close() }
    let cities = try catalogue.all()
    var refresh = Array(cities.indices)
    if favourites {
      let wanted = Set(try ctx.home.favourites.list().map { $0.identity.key })
      guard !wanted.isEmpty else { throw UsageError("no favourites to refresh; add some with `wx fav add CITY`") }
      refresh = refresh.filter { wanted.contains(cities[$0].identity.key) }
      guard !refresh.isEmpty else { throw UsageError("none of the favourites is in the current catalogue") }
    }
    if let maxCities {
      refresh = Array(refresh.prefix(maxCities))
    } else if refresh.count > openMeteoCap {
      throw UsageError(
        "the catalogue has \(refresh.count) cities, more than the \(openMeteoCap) Open-Meteo is asked for by default "
          + "(one API call each); pass --favourites or --max-cities N")
    }
    return (cities, refresh, catalogue.meta)
  }
}
