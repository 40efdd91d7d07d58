/// WMO weather interpretation codes (Open-Meteo's `weather_code`) as the descriptions wx stores.
///
/// Worded so that ``Condition/init(description:)`` classifies them: drizzle, rain, showers and
/// thunderstorms are rain (`hottest` leaves them out), snow is snow, fog is unknown.
package enum WMOCode {
  package static func description(_ code: Int) -> String {
    switch code {
    case 0: "Clear sky"
    case 1: "Mainly clear"
    case 2: "Partly cloudy"
    case 3: "Overcast"
    case 45: "Fog"
    case 48: "Depositing rime fog"
    case 51: "Light drizzle"
    case 53: "Moderate drizzle"
    case 55: "Dense drizzle"
    case 56, 57: "Freezing drizzle"
    case 61: "Slight rain"
    case 63: "Moderate rain"
    case 65: "Heavy rain"
    case 66, 67: "Freezing rain"
    case 71: "Slight snow fall"
    case 73: "Moderate snow fall"
    case 75: "Heavy snow fall"
    case 77: "Snow grains"
    case 80: "Slight rain showers"
    case 81: "Moderate rain showers"
    case 82: "Violent rain showers"
    case 85: "Slight snow showers"
    case 86: "Heavy snow showers"
    case 95: "Thunderstorm"
    case 96, 99: "Thunderstorm with hail"
    default: "Weather code \(code)"
    }
  }
}
