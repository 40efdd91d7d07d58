import ArgumentParser
import WXCore

extension WX.AQI {
  struct Show: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "A city's recorded air quality as a chart, offline.",
      discussion: """
        CITY resolves like `wx show` (a name, a prefix, "Name, Country"), among the cities with \
        readings, then through the catalogue. --ascii draws the chart with # . | instead of blocks.
        """)

    @Argument(help: "City name as the feed spells it (case and accents ignored; unquoted words are joined).")
    var city: [String]
    var name: String { city.joined(with: " ") }
    @Flag(help: "Print JSON instead of a chart.") var json = false
    @Flag(help: "Draw the chart with plain ASCII.") var ascii = false
    @OptionGroup var display: AQIColorOption

    func execute() async throws {
      var options = display.value
      options.ascii = ascii
      let ctx = try Context.make(display: options)
      // Without a catalogue (none synced yet), the recorded names alone.
      let catalogue = try? ctx.home.openCatalogue(seed: false).catalogue
      defer { catalogue?.close() }
      guard let history = try ctx.home.aqi.find(name, catalogue: catalogue) else { throw AQIError.noReadings(name) }
      guard let latest = history.latest else { throw AQIError.noReadings(name) }
      Runner.show(AQIShowView(history: history, latest: latest, now: ctx.now), json: json, ctx.terminal)
    }
  }
}

/// One city's recorded readings as a chart, the latest with its category, min and max (and,
/// from Open-Meteo, the European AQI and PM2.5); `{"city", "readings", "min", "max", "latest"}`.
struct AQIShowView: View {
  var history: AQIHistory
  var latest: AQISample
  var now: Int64
  var lowest: Double { history.samples.map(\.aqi).min() ?? latest.aqi }
  var highest: Double { history.samples.map(\.aqi).max() ?? latest.aqi }

  static func reading(_ s: AQISample) -> JSON {
    .object([
      ("time", .string(Clock.iso8601(s.time))), ("aqi", .number(s.aqi)), ("category", .string(s.category.name(on: s.scale))),
      ("scale", .string(s.scale.name)), ("european_aqi", s.european.map { .number($0) } ?? .null),
      ("pm2_5", s.pm25.map { .number($0) } ?? .null),
    ])
  }

  func json() -> JSON {
    .object([
      ("city", .string(history.city)), ("readings", .array(history.samples.map(Self.reading))),
      ("min", .number(lowest)), ("max", .number(highest)), ("latest", Self.reading(latest)),
    ])
  }

  func text(_ t: Terminal) -> String {
    let n = history.samples.count
    var out = t.bold(history.city.visible) + " · air quality, \(n) reading\(n == 1 ? "" : "s")\n"
    out += Chart.render(history.samples, terminal: t).joined(separator: "\n") + "\n"
    out += "latest \(AQIText.value(latest.aqi)) \(AQIText.category(latest, t))"
    out += t.dim(" (\(AQIText.ago(now - latest.time))) · min \(AQIText.value(lowest)) · max \(AQIText.value(highest))")
    // Open-Meteo's readings carry the European AQI and PM2.5 beside the charted US AQI.
    var beside: [String] = []
    if let european = latest.european { beside.append("European AQI \(AQIText.value(european))") }
    if let pm25 = latest.pm25 { beside.append("PM2.5 \(AQIText.value(pm25)) µg/m³") }
    if !beside.isEmpty { out += "\n" + t.dim(beside.joined(separator: " · ")) }
    return out
  }
}
