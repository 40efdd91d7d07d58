import Testing

@testable import WXCore

/// The events' rules at their thresholds (each exactly at it, and just under it), gaps in the
/// stored hours, and the sent-alerts store's "once, and once more when it changed".
@Suite struct OutlookTests {
  /// 2026-11-23T11:00Z; the city at UTC, its hours from 11:00 local on.
  static let now: Int64 = 1_795_431_600
  static let start = LocalTime.minutes("2026-11-23T11:00")!

  static func city(_ hours: [ForecastHour], highs: [Double?] = []) -> City {
    var c = City(
      id: 1, name: "Here", country: "There", latitude: 0, longitude: 0, temperatureC: 10, description: "Sunny",
      humidity: nil, windKmh: nil,
      forecast: highs.enumerated().map {
        ForecastDay(
          date: "2026-11-2\(3 + $0.offset)", temperatureC: $0.element, description: "Sunny", humidity: nil, windKmh: nil)
      },
      observation: Observation(localTime: "2026-11-23T11:00", utcOffsetSeconds: 0, source: "Open-Meteo"))
    c.hourly = hours
    return c
  }

  /// Calm hours from 11:00, with `change` applied to hour `k`.
  static func hours(_ n: Int = 24, _ change: [Int: (inout ForecastHour) -> Void] = [:]) -> [ForecastHour] {
    (0..<n).map { k in
      var h = ForecastHour(
        minutes: start + Int64(k) * 60, temperatureC: 10, feelsLikeC: 9, precipitationProbability: 10, precipitationMm: 0,
        weatherCode: 1, gustsKmh: 20, uvIndex: 1)
      change[k]?(&h)
      return h
    }
  }

  static func events(_ c: City) -> [String] {
    Outlook.events(c, now: now, until: now + 86_400).map {
      "\($0.event.rawValue) \(LocalTime.format($0.start).suffix(5))-\($0.end.map { String(LocalTime.format($0).suffix(5)) } ?? "…")"
    }
  }

  @Test func eachThresholdCountsAtItAndNotUnder() {
    let at = Self.hours(
      24,
      [
        1: { $0.precipitationProbability = 50 }, 3: { $0.temperatureC = 0 }, 5: { $0.gustsKmh = 62 },
        7: { $0.uvIndex = 8 }, 9: { $0.temperatureC = 30 }, 11: { $0.feelsLikeC = 32 }, 13: { $0.weatherCode = 51 },
      ])
    #expect(
      Self.events(Self.city(at)) == [
        "precipitation 12:00-13:00", "frost 14:00-15:00", "gusts 16:00-17:00", "uv 18:00-19:00", "heat 20:00-21:00",
        "heat 22:00-23:00", "precipitation 00:00-01:00",
      ])
    let under = Self.hours(
      24,
      [
        1: { $0.precipitationProbability = 49 }, 3: { $0.temperatureC = 0.1 }, 5: { $0.gustsKmh = 61.9 },
        7: { $0.uvIndex = 7.9 }, 9: { $0.temperatureC = 29.9 }, 11: { $0.feelsLikeC = 31.9 }, 13: { $0.weatherCode = 48 },
      ])
    #expect(Self.events(Self.city(under)).isEmpty)
    // Unknown values are no event (never taken as 0 °C: no frost from a missing temperature).
    let unknown = Self.hours(
      24,
      [
        2: {
          $0.temperatureC = nil; $0.precipitationProbability = nil; $0.weatherCode = nil
        }
      ])
    #expect(Self.events(Self.city(unknown)).isEmpty)
  }

  @Test func spellsHaveAKindAnAmountAndAnEnd() {
    let hours = Self.hours(
      30,
      [
        2: {
          $0.weatherCode = 61; $0.precipitationMm = 1
        },
        3: {
          $0.weatherCode = 96; $0.precipitationMm = 2.5
        },
        10: {
          $0.weatherCode = 71; $0.precipitationMm = 0.4
        }, 29: { $0.weatherCode = 80 },
      ])
    let events = Outlook.events(Self.city(hours), now: Self.now, until: Self.now + 2 * 86_400)
    let wet = events.filter { $0.event == .precipitation }
    #expect(wet.map(\.kind) == [.thunder, .snow, .rain])
    #expect(wet[0].value == 3.5 && wet[0].end == Self.start + 4 * 60)
    #expect(wet[2].end == nil, "a spell running past the stored hours has no end")
    #expect(events.filter { $0.event == .thunderstorm }.map(\.start) == [Self.start + 3 * 60])
    // A gap in the stored hours ends a spell.
    var gapped = Self.hours(6, [2: { $0.precipitationProbability = 80 }, 4: { $0.precipitationProbability = 80 }])
    gapped.remove(at: 3)
    #expect(Self.events(Self.city(gapped)) == ["precipitation 13:00-14:00", "precipitation 15:00-16:00"])
  }

  @Test func onlyHoursStillToComeAndTheWindowCount() {
    // Rain at 09:00 (past) and at 12:00: only the second; a window of an hour leaves it out.
    var hours = Self.hours(24, [1: { $0.precipitationProbability = 90 }])
    hours.insert(ForecastHour(minutes: Self.start - 120, precipitationProbability: 90), at: 0)
    let c = Self.city(hours)
    #expect(Self.events(c) == ["precipitation 12:00-13:00"])
    #expect(Outlook.events(c, now: Self.now, until: Self.now + 3599).isEmpty)
    #expect(Outlook.events(c, now: Self.now, until: Self.now + 3600).count == 1, "one starting at the window's end is in it")
    // No hours: nothing, whatever the days say.
    #expect(Outlook.events(Self.city([], highs: [20, 5]), now: Self.now, until: Self.now + 86_400).isEmpty)
  }

  @Test func aDayFiveDegreesWarmerOrColder() {
    let c = { (highs: [Double?]) in Self.city(Self.hours(), highs: highs) }
    #expect(Outlook.events(c([10, 15]), now: Self.now, until: Self.now + 86_400).map(\.kind) == [.warmer])
    #expect(Outlook.events(c([10, 5]), now: Self.now, until: Self.now + 86_400).map(\.kind) == [.colder])
    #expect(Outlook.events(c([10, 14.9]), now: Self.now, until: Self.now + 86_400).isEmpty)
    #expect(Outlook.events(c([10, nil]), now: Self.now, until: Self.now + 86_400).isEmpty)
    // Tomorrow starts after a window of 6 hours.
    #expect(Outlook.events(c([10, 15]), now: Self.now, until: Self.now + 6 * 3600).isEmpty)
  }

  @Test func sentAlertsSendEachOnceAndAChangedOneAgain() throws {
    let s = Scratch()
    let sent = SentAlerts(path: s.file("alerts.gdbm"), writers: WriterLock.Policy(directory: s.path, deadline: 5))
    let rain = Outlook.Event(event: .precipitation, kind: .rain, start: Self.start + 240, end: Self.start + 480, unit: .mm)
    let frost = Outlook.Event(event: .frost, start: Self.start + 780, end: Self.start + 900, unit: .celsius)
    let entries = [rain, frost].map { SentAlerts.Entry(place: "1", event: $0, offset: 0) }
    var calls: [Int] = []
    #expect(
      try sent.sendNew(entries, now: Self.now) {
        calls.append($0); return true
      } == 2)
    #expect(
      try sent.sendNew(entries, now: Self.now) {
        calls.append($0); return true
      } == 0)
    // The rain moved two hours: sent again, once.
    var moved = rain
    moved.start += 120
    let again = [SentAlerts.Entry(place: "1", event: moved, offset: 0), entries[1]]
    #expect(
      try sent.sendNew(again, now: Self.now) {
        calls.append($0); return true
      } == 1)
    #expect(
      try sent.sendNew(again, now: Self.now) {
        calls.append($0); return true
      } == 0)
    #expect(calls == [0, 1, 0])
    // A send that fails is tried again next time; one that throws stops, keeping what was sent.
    let other = SentAlerts.Entry(place: "2", event: rain, offset: 0)
    #expect(try sent.sendNew([other], now: Self.now) { _ in false } == 0)
    struct Boom: Error {}
    let third = SentAlerts.Entry(place: "3", event: rain, offset: 0)
    #expect(throws: Boom.self) {
      try sent.sendNew([other, third], now: Self.now) { i in
        if i == 1 { throw Boom() }
        return true
      }
    }
    #expect(try sent.sendNew([other, third], now: Self.now) { _ in true } == 1)
    // Two days after the events ended, the entries are gone (the store does not grow).
    #expect(try sent.sendNew([], now: Self.now + 3 * 86_400) { _ in true } == 0)
    #expect(try sent.store.read().isEmpty)
  }

  /// A spell under way keeps the hour it started as the hours pass (its values are those of
  /// the hours to come); two spells of one kind are two events, each sent once.
  @Test func aSpellUnderWayKeepsItsStartAndTwoSpellsAreTwoEvents() throws {
    let hours = Self.hours(
      24,
      [
        1: {
          $0.precipitationProbability = 80; $0.precipitationMm = 1
        },
        2: {
          $0.precipitationProbability = 90; $0.precipitationMm = 2
        },
        3: {
          $0.precipitationProbability = 70; $0.precipitationMm = 0.5
        }, 8: { $0.precipitationProbability = 60 },
      ])
    let c = Self.city(hours)
    let first = Outlook.events(c, now: Self.now, until: Self.now + 86_400)
    let later = Outlook.events(c, now: Self.now + 2 * 3600, until: Self.now + 86_400)
    #expect(first.map(\.start) == later.map(\.start) && first.count == 2)
    #expect(first[0].value == 3.5 && later[0].value == 2.5 && later[0].chance == 90)
    #expect(Set(first.map(\.key)).count == 2)
    let s = Scratch()
    let sent = SentAlerts(path: s.file("alerts.gdbm"), writers: WriterLock.Policy(directory: s.path, deadline: 5))
    let entries = first.map { SentAlerts.Entry(place: "Here, There", event: $0, offset: 0) }
    #expect(try sent.sendNew(entries, now: Self.now) { _ in true } == 2)
    let again = later.map { SentAlerts.Entry(place: "Here, There", event: $0, offset: 0) }
    #expect(try sent.sendNew(again, now: Self.now + 7200) { _ in true } == 0)
  }
}
