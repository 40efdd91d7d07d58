import ArgumentParser
import WXCore

/// `--provider`: the one place a name becomes a provider.
enum ProviderName: String, CaseIterable, ExpressibleByArgument {
  case freetestapi, accuweather
  case openMeteo = "open-meteo"

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
    /// Cities of the catalogue left out for having no coordinates (Open-Meteo).
    var skipped = 0
  }

  func plan(_ config: ProviderConfig, ctx: Context, selection: OpenMeteoSelection) throws -> Plan {
    switch self {
    case .freetestapi: return Plan(provider: FreeTestAPIProvider(config: config))
    case .accuweather:
      guard config.apiKey != nil else { throw SyncError.missingKey(provider: rawValue) }
      return Plan(provider: AccuWeatherProvider(config: config))
    case .openMeteo:
      let (cities, chosen, meta) = try selection.cities(ctx)
      let (refresh, skipped) = try OpenMeteoSelection.located(cities, chosen)
      return Plan(
        provider: OpenMeteoProvider(config: config, cities: cities, refresh: refresh), basis: meta, refreshed: refresh.count,
        skipped: skipped)
    }
  }
}
