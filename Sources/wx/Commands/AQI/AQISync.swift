import ArgumentParser
import WXCore
import WXFeed

extension WX.AQI {
  struct Sync: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Record real air quality from Open-Meteo for the catalogue's cities.",
      discussion: """
        Asks Open-Meteo's air-quality API (air quality data by Open-Meteo.com, CC BY 4.0) for the \
        current US AQI, European AQI and PM2.5 of every city of the catalogue (at most 500 unless \
        --max-cities says otherwise), or only the favourites, and adds one reading per city to the \
        history `wx aqi list` and `wx aqi show` read. Categories of these readings are US AQI bands. \
        All or nothing: on any failure the history stays exactly as it was.
        """)

    @Option(help: "Air-quality API URL (default: $WX_OPEN_METEO_AQ_URL or Open-Meteo's).") var url: String?
    @Flag(help: "Only the favourites.") var favourites = false
    @Option(name: .customLong("max-cities"), help: "At most N cities, the first of the catalogue.") var maxCities: Int?
    @Flag(help: "Print nothing but errors.") var quiet = false

    var selection: OpenMeteoSelection { OpenMeteoSelection(favourites: favourites, maxCities: maxCities) }

    func validate() throws {
      do { try selection.validate() } catch { throw ValidationError(error.message) }
    }

    func execute(_ console: Console) async throws {
      TempFiles.removeOnTermination()  // Ctrl-C, SIGTERM: the temp file goes too
      let ctx = try Context.make(console)
      let timeout = try Context.seconds("WX_HTTP_TIMEOUT", default: 30, allowZero: false)
      let config = ProviderConfig(
        url: url ?? Environment.get("WX_OPEN_METEO_AQ_URL") ?? OpenMeteoAirQuality.defaultURL, timeout: timeout)
      let report = try await Refresher(home: ctx.home, now: ctx.currentTime()).airQuality(
        try selection.plan(ctx), config: config)
      if !quiet { SyncSummary(report: report).show(console) }
    }
  }
}
