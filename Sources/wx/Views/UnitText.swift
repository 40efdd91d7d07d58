import WXCore

/// How measured values read in text: the symbols, whole degrees, one decimal. WXCore only
/// converts the numbers (``TemperatureUnit/temperature(_:)``, ``TemperatureUnit/wind(_:)``).
extension TemperatureUnit {
  var symbol: String { self == .celsius ? "°C" : "°F" }
  var windSymbol: String { self == .celsius ? "km/h" : "mph" }

  /// Whole degrees with the unit: `18 °C`, `64 °F`.
  func format(_ celsius: Double) -> String { "\(Self.round(temperature(celsius))) \(symbol)" }

  /// One decimal with the unit: `12.2 km/h`, `10 mph`.
  func formatWind(_ kmh: Double) -> String { "\(Number.oneDecimal(wind(kmh))) \(windSymbol)" }
}

/// Numbers in text.
enum Number {
  /// `12`, `12.5`: one decimal, none when whole (half away from zero).
  static func oneDecimal(_ v: Double) -> String {
    let r = (v * 10).rounded(.toNearestOrAwayFromZero) / 10
    return r == r.rounded() ? String(Int(r)) : String(r)
  }
}
