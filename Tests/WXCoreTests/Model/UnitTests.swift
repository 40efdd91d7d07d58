import Testing

@testable import WXCore

@Suite struct UnitTests {
  @Test func convertsNumbersOnly() {
    #expect(TemperatureUnit.fahrenheit.temperature(18) == 64.4)
    #expect(TemperatureUnit.fahrenheit.jsonTemperature(18) == 64.4)
    #expect(TemperatureUnit.fahrenheit.jsonWind(16.09344) == 10)
    #expect(TemperatureUnit.round(-2.5) == -3 && TemperatureUnit.round(18.5) == 19)
  }

  @Test(arguments: [
    ("Rain showers", Condition.showers), ("Rainy", .rain), ("Partly Cloudy", .partlyCloudy), ("Partly cloudy", .partlyCloudy),
    ("Clear sky", .clear), ("Sunny", .sunny), ("Scattered clouds", .scatteredClouds), ("Snow", .snow), ("Fog", .fog),
    // WMO wordings (Open-Meteo).
    ("Thunderstorm with hail", .thunder), ("Depositing rime fog", .fog), ("Slight snow showers", .snow),
    ("Moderate drizzle", .rain), ("Overcast", .cloudy), ("Mainly clear", .clear),
    // AccuWeather's icon phrases.
    ("Mostly sunny", .sunny), ("Partly sunny", .partlyCloudy), ("Intermittent clouds", .partlyCloudy),
    ("Hazy sunshine", .sunny), ("Dreary (Overcast)", .cloudy), ("T-Storms", .thunder),
    ("Mostly cloudy w/ t-storms", .thunder), ("Partly sunny w/ showers", .showers), ("Flurries", .snow),
    ("Mostly cloudy w/ flurries", .snow), ("Ice", .snow), ("Sleet", .snow), ("Freezing rain", .rain),
    ("Rain and snow", .rain), ("Hot", .sunny), ("Mostly clear", .clear), ("Hazy moonlight", .clear),
    ("Cold", .unknown), ("Windy", .unknown), ("Snowstorm", .snow), ("Notice", .unknown),
  ])
  func classifiesDescriptions(_ text: String, _ condition: Condition) {
    #expect(Condition(description: text) == condition)
  }
}
