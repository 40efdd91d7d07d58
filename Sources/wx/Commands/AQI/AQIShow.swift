import ArgumentParser
import WXCore

extension WX.AQI {
  struct Show: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "A city's recorded air quality as a chart, offline.",
      discussion: """
        CITY is the place `wx show` would show (a name, a prefix, "Name, Country", "Name, \
        Region"; tokio finds 東京's readings); a name no place has, among the cities with readings \
        as recorded. --ascii draws the chart with # . | instead of blocks.
        """)

    @Argument(
      help:
        "A place as `wx show` takes it, or a name as the feed spells it (case and accents ignored; unquoted words are joined).")
    var city: [String]
    var name: String { city.joined(with: " ") }
    @Flag(help: "Print JSON instead of a chart.") var json = false
    @Flag(help: "Draw the chart with plain ASCII.") var ascii = false
    @Option(help: "The scale to chart: naqi or us (default: the latest reading's).") var scale: ScaleArgument?
    @OptionGroup var display: AQIColorOption

    func execute(_ console: Console) async throws {
      var options = display.value
      options.ascii = ascii
      let ctx = try Context.make(console, display: options)
      // Without a catalogue (none synced yet), the recorded names alone.
      let catalogue = try? ctx.home.openCatalogue(seed: false).catalogue
      defer { catalogue?.close() }
      let finder = try catalogue.map { c in try ctx.finder(c) }
      defer { finder?.atlas?.close() }
      var looked: Found? = nil
      guard let history = try ctx.home.aqi.find(name, finder: finder, looked: &looked) else {
        throw AQIError.noReadings(name, closest: try ctx.home.aqi.closest(name), looked: looked.map(PlaceText.full))
      }
      // One scale at a time: values on two scales are never charted or compared together.
      guard let series = history.series(on: scale?.scale) else { throw AQIError.noReadings(name, scale: scale?.scale) }
      Runner.show(AQIShowView(city: history.city, series: series, now: ctx.now), json: json, ctx)
    }
  }
}

/// `--scale`: the AQI scales by the names people type.
enum ScaleArgument: String, CaseIterable, ExpressibleByArgument {
  case naqi, us

  var scale: AQIScale { self == .us ? .us : .naqi }
  /// The name `--scale` takes for a stored scale.
  init(_ scale: AQIScale) { self = scale == .us ? .us : .naqi }
}

/// One city's recorded readings on one scale as a chart, the latest with its category, min and
/// max (and, from Open-Meteo, the European AQI and PM2.5), and how many readings on another
/// scale were left out; `{"city", "scale", "readings", "min", "max", "latest", "other_scales"}`.
struct AQIShowView: View {
  var city: String
  var series: AQISeries
  var now: Int64

  static func reading(_ s: AQISample) -> JSON {
    .object([
      ("time", .string(Clock.iso8601(s.time))), ("aqi", .number(s.aqi)), ("category", .string(s.category.name(on: s.scale))),
      ("scale", .string(s.scale.name)), ("european_aqi", s.european.map { .number($0) } ?? .null),
      ("pm2_5", s.pm25.map { .number($0) } ?? .null),
    ])
  }

  func json() -> JSON {
    .object([
      ("city", .string(city)), ("scale", .string(series.scale.name)), ("readings", .array(series.samples.map(Self.reading))),
      ("min", .number(series.min)), ("max", .number(series.max)), ("latest", Self.reading(series.latest)),
      (
        "other_scales",
        .array(series.others.map { .object([("scale", .string($0.scale.name)), ("readings", .int($0.count))]) })
      ),
    ])
  }

  func text(_ t: Terminal) -> String {
    let n = series.samples.count, latest = series.latest
    var out = t.bold(city.visible) + " · air quality (\(series.scale.name)), \(n) reading\(n == 1 ? "" : "s")\n"
    out += Chart.render(series.samples, terminal: t).joined(separator: "\n") + "\n"
    let scale = series.scale
    out += "latest \(AQIText.value(latest.aqi, on: scale)) \(AQIText.category(latest, t))"
    out += t.dim(
      " (\(AQIText.ago(now - latest.time))) · min \(AQIText.value(series.min, on: scale)) · max \(AQIText.value(series.max, on: scale))"
    )
    // Open-Meteo's readings carry the European AQI and PM2.5 beside the charted US AQI.
    var beside: [String] = []
    if let european = latest.european { beside.append("European AQI \(AQIText.whole(european))") }
    if let pm25 = latest.pm25 { beside.append("PM2.5 \(Number.oneDecimal(pm25)) µg/m³") }
    if !beside.isEmpty { out += "\n" + t.dim(beside.joined(separator: " · ")) }
    for other in series.others {
      let k = other.count
      out +=
        "\n" + t.dim("also \(k) \(other.scale.name) reading\(k == 1 ? "" : "s") (--scale \(ScaleArgument(other.scale).rawValue))")
    }
    return out
  }
}
