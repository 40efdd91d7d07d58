import ArgumentParser
import Dispatch
import WXCore

#if canImport(Glibc)
  import Glibc
#endif


extension WX.AQI {
  struct Show: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "A city's recorded air quality as a chart, offline.",
      discussion: "CITY is matched ignoring case and accents. --ascii draws the chart with # . | instead of blocks.")

    @Argument(help: "City name as the feed spells it (case and accents ignored; unquoted words are joined).")
    var words: [String]
    var city: String { words.joined(separator: " ") }
    @Flag(help: "Print JSON instead of a chart.") var json = false
    @Flag(help: "Draw the chart with plain ASCII.") var ascii = false
    @OptionGroup var display: AQIColorOption

    func execute() async throws {
      var options = display.value
      options.ascii = ascii
      let ctx = try Context.make(display: options)
      guard let history = try ctx.home.aqi.history(city), let latest = history.latest else {
        throw AQIError.noReadings(city)
      }
      let values = history.samples.map(\.aqi)
      let lo = values.min()!, hi = values.max()!
      if json {
        func reading(_ s: AQISample) -> JSON {
          .object([
            ("time", .string(Clock.iso8601(s.time))), ("aqi", .number(s.aqi)), ("category", .string(s.category.name(on: s.scale))),
            ("scale", .string(s.scale.name)), ("european_aqi", s.european.map { .number($0) } ?? .null),
            ("pm2_5", s.pm25.map { .number($0) } ?? .null),
          ])
        }
        Terminal.data(
          JSON.object([
            ("city", .string(history.city)), ("readings", .array(history.samples.map(reading))),
            ("min", .number(lo)), ("max", .number(hi)), ("latest", reading(latest)),
          ]).text)
        return
      }
      let t = ctx.terminal
      let n = history.samples.count
      var out = t.bold(history.city.visible) + " · air quality, \(n) reading\(n == 1 ? "" : "s")\n"
      out += Chart.render(history.samples, terminal: t).joined(separator: "\n") + "\n"
      out += "latest \(AQIText.value(latest.aqi)) \(AQIText.category(latest, t))"
      out += t.dim(" (\(AQIText.ago(ctx.now - latest.time))) · min \(AQIText.value(lo)) · max \(AQIText.value(hi))")
      // Open-Meteo's readings carry the European AQI and PM2.5 beside the charted US AQI.
      var beside: [String] = []
      if let european = latest.european { beside.append("European AQI \(AQIText.value(european))") }
      if let pm25 = latest.pm25 { beside.append("PM2.5 \(AQIText.value(pm25)) µg/m³") }
      if !beside.isEmpty { out += "\n" + t.dim(beside.joined(separator: " · ")) }
      Terminal.out(out)
    }
  }
}
