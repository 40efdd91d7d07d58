import WXCore

/// How measured values read in text: the symbols, whole degrees, one decimal. WXCore only
/// converts the numbers (``TemperatureUnit/temperature(_:)``, ``WindUnit/wind(_:)``).
extension TemperatureUnit {
  var symbol: String { self == .celsius ? "°C" : "°F" }

  /// Whole degrees with the unit: `18 °C`, `64 °F`.
  func format(_ celsius: Double) -> String { "\(Self.round(temperature(celsius))) \(symbol)" }
}

extension WindUnit {
  var symbol: String {
    switch self {
    case .kmh: "km/h"
    case .mph: "mph"
    case .ms: "m/s"
    case .knots: "kn"
    case .beaufort: "Bft"
    }
  }
}

extension Units {
  /// The temperature unit's name (JSON `unit`).
  var rawValue: String { temperature.rawValue }
  var symbol: String { temperature.symbol }
  func format(_ celsius: Double) -> String { temperature.format(celsius) }
  func jsonTemperature(_ celsius: Double) -> Double { temperature.jsonTemperature(celsius) }

  /// One decimal with the unit: `12.2 km/h`, `10 mph`, `3.4 m/s`, a breeze `<0.1 m/s`; a
  /// Beaufort force whole: `4 Bft` (force 0 is calm, a measure of its own).
  func formatWind(_ kmh: Double) -> String {
    let v = wind.wind(kmh)
    return "\(wind == .beaufort ? String(Int(v)) : Number.amount(v, 1)) \(wind.symbol)"
  }

  func jsonWind(_ kmh: Double) -> Double { wind.json(kmh) }

  /// `0.4 mm`, or inches to two decimals: `0.02 in`; a trace is `<0.1 mm`, `<0.01 in`.
  func formatPrecipitation(_ mm: Double) -> String {
    inches ? "\(Number.amount(precipitation(mm), 2)) in" : "\(Number.amount(mm, 1)) mm"
  }
}

/// Numbers in text.
enum Number {
  /// `12`, `12.5`: one decimal, none when whole (half away from zero).
  static func oneDecimal(_ v: Double) -> String { decimals(v, 1) }

  /// An amount that is never shown as 0 unless it is 0: `places` decimals (``decimals(_:_:)``),
  /// or `<0.1` (`<1` for whole numbers) when a positive amount would round to 0.
  static func amount(_ v: Double, _ places: Int) -> String {
    let shown = decimals(v, places)
    guard v > 0, shown == "0" else { return shown }
    return places == 0 ? "<1" : "<0." + String(repeating: "0", count: places - 1) + "1"
  }

  /// At most `places` decimals, trailing zeros dropped: `0.02`, `1.5`, `3`.
  static func decimals(_ v: Double, _ places: Int) -> String {
    let scale = [1.0, 10, 100][min(max(places, 0), 2)]
    let r = (v * scale).rounded(.toNearestOrAwayFromZero) / scale
    if r == r.rounded() { return String(Int(r)) }
    if places == 1 { return String(r) }
    let cents = Int((abs(r) * 100).rounded())
    let frac = cents % 100
    let digits = frac % 10 == 0 ? String(frac / 10) : (frac < 10 ? "0" : "") + String(frac)
    return (r < 0 ? "-" : "") + "\(cents / 100).\(digits)"
  }
}
