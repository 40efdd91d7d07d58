import Testing
import WXCore

@testable import wx

/// Views are values: their JSON and text are checked here without spawning the binary
/// (the end-to-end suites check what needs a process: parsing, stores, terminals).
@Suite struct InProcessViewTests {
  static let plain = Terminal(color: false, unicode: true, width: nil)
  static let ascii = Terminal(color: false, unicode: false, width: nil)

  /// A city freetestapi served at the epoch (views are given the epoch as now: fresh).
  static func city(_ id: Int, _ name: String, _ celsius: Double?) -> City {
    var c = City(
      id: id, name: name, country: "Testland", latitude: 1, longitude: 2, temperatureC: celsius,
      description: "Sunny", humidity: nil, windKmh: 16.09344, forecast: [])
    c.provenance = Provenance(source: .freetestapi, observedAt: 0)
    return c
  }

  @Test func populationsReadWithThousandsSeparators() {
    let cases = [0: "0", 999: "999", 1000: "1,000", 12_345: "12,345", 272_220: "272,220", 3_644_826: "3,644,826"]
    for (n, text) in cases { #expect(PlaceText.people(n) == text) }
    #expect(PlaceText.people(-1234) == "-1,234" && PlaceText.people(-123) == "-123")
  }

  @Test func unitsReadAsText() {
    #expect(TemperatureUnit.fahrenheit.format(18) == "64 °F")
    #expect(TemperatureUnit.celsius.format(18) == "18 °C")
    #expect(TemperatureUnit.celsius.format(-2.5) == "-3 °C")
    #expect(Units.fahrenheit.formatWind(16.09344) == "10 mph")
    #expect(Units.celsius.formatWind(12.25) == "12.3 km/h")
    #expect(
      Units(.celsius, wind: .ms).formatWind(36) == "10 m/s" && Units(.fahrenheit, wind: .knots).formatWind(18.52) == "10 kn")
    #expect(Units(.celsius, wind: .beaufort).formatWind(15) == "3 Bft" && Units(.celsius, wind: .beaufort).jsonWind(200) == 12)
    #expect([0.0, 2, 7, 13, 21, 30, 40, 51, 63, 76, 90, 104, 119].map(WindUnit.beaufort) == Array(0...12))
    #expect(Units.fahrenheit.formatPrecipitation(0.5) == "0.02 in" && Units.celsius.formatPrecipitation(0.25) == "0.3 mm")
    #expect(Number.oneDecimal(0.04) == "0" && Number.oneDecimal(2.0) == "2" && Number.oneDecimal(-0.25) == "-0.3")
  }

  @Test func topViewJSONAndText() {
    let view = TopView(
      cities: [Self.city(1, "Oslo", -2.5), Self.city(2, "Nowhere\u{1B}[2J", nil)], unit: .fahrenheit, freshness: "fresh")
    #expect(
      view.json().text == #"{"unit":"fahrenheit","items":[{"id":1,"city":"Oslo","country":"Testland","temperature":27.5,"#
        + #""source":"freetestapi","sample":false,"observed_at":"1970-01-01T00:00:00Z","age_seconds":0,"#
        + #""current_from":"observation"},{"id":2,"city":"Nowhere\u001b[2J","country":"Testland","temperature":null,"#
        + #""source":"freetestapi","sample":false,"observed_at":"1970-01-01T00:00:00Z","age_seconds":0,"#
        + #""current_from":"observation"}]}"#)
    #expect(
      view.text(Self.plain)
        == "Weather\nCity            Temperature\nOslo                  28 °F\nNowhere\\x1b[2J            –\nfresh")
    // Without Unicode the cells are spelled before they are measured: still right-aligned.
    #expect(
      view.text(Self.ascii)
        == "Weather\nCity            Temperature\nOslo                   28 F\nNowhere\\x1b[2J            -\nfresh")
    // Values over three hours old carry their age, in a column of its own; invented ones say so.
    var old = view
    old.now = 5 * 3600
    old.cities[1].provenance = .sample
    #expect(
      old.text(Self.plain)
        == "Weather\nCity            Temperature     Age\nOslo                  28 °F      5h\nNowhere\\x1b[2J            –  sample\nfresh"
    )
  }

  /// No picture is painted in white, grey or dim, which vanish on a light background or a dark
  /// one (cloud, fog and snow did: SGR 37, 2;37, 97): the terminal's own foreground or a hue.
  @Test func conditionColoursReadOnLightAndDarkBackgrounds() {
    let unreadable: Set<String> = ["2", "30", "37", "90", "97", "47", "107"]
    for c in Condition.allCases {
      let parts = Set(Art.color(c).split(separator: ";").map(String.init))
      #expect(parts.isDisjoint(with: unreadable), "\(c): \(Art.color(c))")
    }
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
    #expect(
      Art.picture(.sunny, unicode: true) == [
        "    \\   /    ", "     .-.     ", "  ― (   ) ―  ", "     `-’     ", "    /   \\    ",
      ])
    #expect(Art.picture(.rain, unicode: false)[3] == "   / / / /   ")
    #expect(
      Art.picture(.cloudy, unicode: true)[2] == "  .-(    ).  "
        && Art.picture(.scatteredClouds, unicode: true)[4] == "  (____)     ")
    // Fog and thunderstorms have pictures of their own, not the unknown one or plain rain.
    #expect(Art.picture(.fog, unicode: true)[1] == " _ - _ - _ - ")
    #expect(Art.picture(.thunder, unicode: false)[3...] == ["     _/  / / ", "     /   /   "])
    for text in ["Fog", "Thunderstorm", "T-Storms", "Flurries", "Dreary (Overcast)", "Hazy moonlight"] {
      #expect(Condition(description: text) != .unknown, "\(text)")
    }
  }

  /// US AQI categories take the EPA's colours; NAQI ones keep the CPCB's.
  @Test func aqiCategoriesTakeTheirScalesColours() {
    let epa = ["32", "33", "38;5;208", "31", "35", "38;5;124"]  // green yellow orange red purple maroon
    let cpcb = ["32", "38;5;148", "33", "38;5;208", "31", "38;5;124"]
    #expect(AQICategory.allCases.map { AQIText.colour($0, on: .us) } == epa)
    #expect(AQICategory.allCases.map { AQIText.colour($0, on: .naqi) } == cpcb)
    let coloured = Terminal(color: true, unicode: true, width: nil)
    let moderate = AQISample(time: 0, aqi: 75, scale: .us)
    #expect(AQIText.category(moderate, coloured) == "\u{1B}[33mModerate (US AQI)\u{1B}[0m")
    #expect(Chart.render([moderate], terminal: coloured)[7].contains("\u{1B}[33m"))
  }

  /// `wx aqi show` charts one scale, names it, and counts what it left out.
  @Test func aqiShowChartsOneScaleAtATime() throws {
    let history = AQIHistory(
      city: "Delhi",
      samples: [
        AQISample(time: 0, aqi: 400), AQISample(time: 60, aqi: 90, scale: .us), AQISample(time: 120, aqi: 80, scale: .us),
      ])
    let us = try #require(history.series())
    let view = AQIShowView(city: history.city, series: us, now: 180)
    let json = view.json()
    #expect(json["scale"] == .string("US AQI") && json["min"]?.text == "80" && json["max"]?.text == "90")
    #expect(json["other_scales"]?.text == #"[{"scale":"NAQI","readings":1}]"#)
    if case .array(let readings)? = json["readings"] { #expect(readings.count == 2) } else { Issue.record("\(json)") }
    let text = view.text(Self.plain).split(separator: "\n").map(String.init)
    #expect(text.first == "Delhi · air quality (US AQI), 2 readings")
    // US AQI is a scale of whole numbers: its labels print whole.
    #expect(text[1].hasPrefix("90 ┤") && text[8].hasPrefix("80 ┤"), "\(text)")
    #expect(text.last == "also 1 NAQI reading (--scale naqi)")
    let naqi = AQIShowView(city: history.city, series: try #require(history.series(on: .naqi)), now: 180)
    #expect(naqi.json()["min"]?.text == "400" && naqi.text(Self.plain).hasSuffix("also 2 US AQI readings (--scale us)"))
  }

  static func days(_ dated: [(String, Double?, String)], today: String) -> DatedForecast {
    let t = CalendarDay.number(today)!
    return DatedForecast(
      today: today,
      days: dated.map { date, temp, text in
        DatedForecast.Day(
          day: ForecastDay(date: date, temperatureC: temp, description: text, humidity: 50, windKmh: 9.5),
          fromToday: CalendarDay.number(date)! - t)
      })
  }

  /// Hottest first, each day keeps its date's label; past days are counted, never shown as the forecast.
  @Test func forecastDaysKeepTheirDatesLabel() {
    let f = Self.days(
      [("2026-11-24", 30, "Sunny"), ("2026-11-25", 12, "Sunny"), ("2026-11-26", 14, "Rain"), ("2026-11-27", 20, "Clear sky")],
      today: "2026-11-25")
    let hottest = [f.days[3], f.days[1]]
    let view = ForecastView(
      city: Self.city(1, "Oslo", 3), forecast: f, days: hottest, hottest: true, unit: .celsius, freshness: "fresh")
    let lines = view.text(Self.plain).split(separator: "\n").map(String.init)
    #expect(lines[2].hasPrefix("Fri    2026-11-27") && lines[3].hasPrefix("Today  2026-11-25"), "\(lines)")
    #expect(lines[4] == "1 past day not shown (2026-11-24).")
    let json = view.json()
    #expect(json["today"] == .string("2026-11-25"))
    #expect(json["days"]?.text.contains(#""date":"2026-11-27""#) == true && json["days"]?.text.contains("2026-11-24") == false)
    #expect(json["past_days"]?.text.contains(#""date":"2026-11-24""#) == true)
    // A forecast wholly in the past says so instead of a table, in show too.
    let old = Self.days([("2023-07-28", 24, "Sunny"), ("2023-07-29", 26, "Sunny")], today: "2026-11-25")
    let stale = ForecastView(
      city: Self.city(1, "Oslo", 3), forecast: old, days: [], hottest: false, unit: .celsius, freshness: "fresh")
    // freetestapi's forecasts are fixed: the hint names what brings a current one.
    #expect(
      stale.text(Self.plain).hasPrefix(
        "Oslo, Testland\nForecast wholly past (to 2023-07-29).\nToday there: 2026-11-25.\n"
          + "freetestapi has no current one;\nrun `wx sync --provider open-meteo`.\nserved "))
    #expect(stale.json()["days"]?.text == "[]" && stale.json()["past_days"]?.text.contains("2023-07-29") == true)
    #expect(!CityView.forecast(old, .celsius, Self.plain).contains("Day"))
    #expect(CityView.forecast(old, .celsius, Self.plain, source: .openMeteo).contains("Run `wx sync` for a current one."))
  }

  /// A view is a function of the terminal it is given, not of the one the writers were set
  /// up for: an ASCII terminal's table cuts with `~` whatever the process's own terminal is.
  @Test func tablesFollowTheTerminalTheyAreGiven() {
    var t = Table(headers: ["City", "Country"])
    t.rows = [["Llanfairpwllgwyngyll", "United Kingdom"]]
    t.maxWidths = [(0, 10)]
    let narrow = { (unicode: Bool) in Terminal(color: false, unicode: unicode, width: 40) }
    #expect(t.render(narrow(false)) == "City        Country\nLlanfairp~  United Kingdom\n")
    #expect(t.render(narrow(true)) == "City        Country\nLlanfairp…  United Kingdom\n")
  }

  /// Browse's list shares its width fairly: a long country is not cut while City has room.
  @Test func browseColumnsShareTheWidthFairly() {
    let rows = [["Abu Dhabi", "United Arab Emirates", "Sunny"], ["Dubai", "United Arab Emirates", "Clear sky"]]
    // 80 columns: 65 for City, Country and Conditions.
    #expect(BrowseView.columnWidths(room: 65, rows) == [9, 20, 10])
    // Narrow: City and Country both cut, 4 : 2 of what Conditions (its share) leaves.
    let long = [["Llanfairpwllgwyngyll", "United Arab Emirates", "Sunny"]]
    #expect(BrowseView.columnWidths(room: 25, long) == [10, 5, 10])
    #expect(BrowseView.columnWidths(room: 0, long) == [0, 0, 0])
  }

  @Test func statusCreditsOpenMeteoForWhatItShows() {
    let meta = CatalogueMeta(
      generation: 1, source: "https://api.open-meteo.com/v1/forecast", provider: "open-meteo",
      syncedAt: 1_700_000_000, count: 3, isSample: false)
    var view = StatusView(
      home: "/h", meta: meta, unit: .celsius, now: 1_700_000_060, files: [], airUpdated: nil, openMeteoAir: true)
    #expect(view.attribution == "Weather and air quality data by Open-Meteo.com (CC BY 4.0)")
    view.openMeteoAir = false
    #expect(view.text(Self.plain).contains("data      Weather data by Open-Meteo.com (CC BY 4.0)"))
    view.meta.provider = "freetestapi"
    #expect(view.attribution == nil && view.json()["attribution"] == .null)
  }
}
