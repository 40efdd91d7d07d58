import Foundation
import Testing
import WXCore

/// A catalogue written straight through WXCore, as an older wx or a foreign file could have
/// left it: nothing of sync's own cleaning applies, so the renderers are on their own.
func publish(_ cities: [City], in home: TempHome) throws {
  let h = Home(directory: home.path, sampleCandidates: [])
  let lock = try h.writers.acquire()
  defer { lock.release() }
  try h.publishCatalogue(
    cities,
    meta: CatalogueMeta(
      generation: 1, source: "test", provider: "test", syncedAt: Clock.now(), count: cities.count, isSample: false),
    holding: lock)
}

func city(_ id: Int, _ name: String, _ country: String, _ description: String = "Sunny", temperature: Double = 20)
  -> City
{
  City(
    id: id, name: name, country: country, latitude: 1.5, longitude: -2.5, temperatureC: temperature,
    description: description, humidity: 50, windKmh: 10,
    forecast: [
      ForecastDay(date: "2026-11-24", temperatureC: temperature + 1, description: description, humidity: 40, windKmh: 5),
      ForecastDay(date: "2026-11-25", temperatureC: temperature - 1, description: "Cloudy", humidity: 60, windKmh: 7),
    ])
}

/// Every control a hostile API or file could slip into a text field.
let hostileBits = [
  "\u{1B}]0;pwned\u{07}", "\u{1B}[2J", "\r", "\n", "\u{0}", "\u{9B}31m", "\u{85}", "\u{202E}", "\u{2066}", "\t",
  "\u{7F}", "\u{1B}[31m", "\u{8}",
]

/// The bytes that may not reach a terminal: C0 but newline, DEL, C1, bidi controls; ESC only
/// as a colour sequence, and only when colour was asked for.
func unsafeBytes(_ s: String, colours: Bool) -> [String] {
  var found: [String] = []
  var t = s
  if colours {
    t = t.replacingOccurrences(of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
  }
  for u in t.unicodeScalars {
    let v = u.value
    if (v < 0x20 && v != 0x0A) || v == 0x7F || (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v)
      || (0x2066...0x2069).contains(v)
    {
      found.append(String(format: "U+%04X", v))
    }
  }
  return found
}
