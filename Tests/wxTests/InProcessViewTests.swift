import Testing
import WXCore

@testable import wx

/// Views are values: their JSON and text are checked here without spawning the binary
/// (the end-to-end suites check what needs a process: parsing, stores, terminals).
@Suite struct InProcessViewTests {
  static let plain = Terminal(color: false, unicode: true, width: nil)
  static let ascii = Terminal(color: false, unicode: false, width: nil)

  static func city(_ id: Int, _ name: String, _ celsius: Double?) -> City {
    City(id: id, name: name, country: "Testland", latitude: 1, longitude: 2, temperatureC: celsius,
         description: "Sunny", humidity: nil, windKmh: 16.09344, forecast: [])
  }

  @Test func unitsReadAsText() {
    #expect(TemperatureUnit.fahrenheit.format(18) == "64 °F")
    #expect(TemperatureUnit.celsius.format(18) == "18 °C")
    #expect(TemperatureUnit.celsius.format(-2.5) == "-3 °C")
    #expect(Units.fahrenheit.formatWind(16.09344) == "10 mph")
    #expect(Units.celsius.formatWind(12.25) == "12.3 km/h")
    #expect(Units(.celsius, wind: .ms).formatWind(36) == "10 m/s" && Units(.fahrenheit, wind: .knots).formatWind(18.52) == "10 kn")
    #expect(Units(.celsius, wind: .beaufort).formatWind(15) == "3 Bft" && Units(.celsius, wind: .beaufort).jsonWind(200) == 12)
    #expect([0.0, 2, 7, 13, 21, 30, 40, 51, 63, 76, 90, 104, 119].map(WindUnit.beaufort) == Array(0...12))
    #expect(Units.fahrenheit.formatPrecipitation(0.5) == "0.02 in" && Units.celsius.formatPrecipitation(0.25) == "0.3 mm")
    #expect(Number.oneDecimal(0.04) == "0" && Number.oneDecimal(2.0) == "2" && Number.oneDecimal(-0.25) == "-0.3")
  }

  @Test func topViewJSONAndText() {
    let view = TopView(
      cities: [Self.city(1, "Oslo", -2.5), Self.city(2, "Nowhere\u{1B}[2J", nil)], unit: .fahrenheit, freshness: "fresh")
    #expect(view.json().text == #"{"unit":"fahrenheit","items":[{"id":1,"city":"Oslo","country":"Testland","temperature":27.5},"#
      + #"{"id":2,"city":"Nowhere\u001b[2J","country":"Testland","temperature":null}]}"#)
    #expect(view.text(Self.plain) == "Weather\nCity            Temperature\nOslo                  28 °F\nNowhere\\x1b[2J            –\nfresh")
    // Without Unicode the cells are spelled before they are measured: still right-aligned.
    #expect(view.text(Self.ascii) == "Weather\nCity            Temperature\nOslo                   28 F\nNowhere\\x1b[2J            -\nfresh")
  }

  /// Every condition has its own picture, five lines of 13 columns; without Unicode the same
  /// picture in ASCII.
  @Test func conditionPictures() {
    var seen: [[String]] = []
    for c in Condition.allCases {
      let picture = Art.picture(c, unicode: true)
      let ascii = Art.picture(c, unicode: false)
      #expect(picture.count == 5 && ascii.count == 5, "\(c)")
      #expect(picture.allSatisfy { $0.count == 13 } && ascii.allSatisfy { $0.count == 13 }, "\(c): \(picture) \(ascii)")
      #expect(ascii.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) }, "\(c): \(ascii)")
      #expect(!seen.contains(picture), "\(c) repeats another picture")
      seen.append(picture)
    }
    #expect(Art.picture(.sunny, unicode: true) == ["    \\   /    ", "     .-.     ", "  ― (   ) ―  ", "     `-’     ", "    /   \\    "])
    #expect(Art.picture(.rain, unicode: false)[3] == "   / / / /   ")
    #expect(Art.picture(.cloudy, unicode: true)[2] == "  .-(    ).  " && Art.picture(.scatteredClouds, unicode: true)[4] == "  (____)     ")
  }

  @Test func statusCreditsOpenMeteoForWhatItShows() {
    let meta = CatalogueMeta(generation: 1, source: "https://api.open-meteo.com/v1/forecast", provider: "open-meteo",
                             syncedAt: 1_700_000_000, count: 3, isSample: false)
    var view = StatusView(home: "/h", meta: meta, unit: .celsius, now: 1_700_000_060, files: [], airUpdated: nil, openMeteoAir: true)
    #expect(view.attribution == "Weather and air quality data by Open-Meteo.com (CC BY 4.0)")
    view.openMeteoAir = false
    #expect(view.text(Self.plain).contains("data      Weather data by Open-Meteo.com (CC BY 4.0)"))
    view.meta.provider = "freetestapi"
    #expect(view.attribution == nil && view.json()["attribution"] == .null)
  }
}
