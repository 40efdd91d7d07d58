/// What is coming, read from a city's stored hours: rain and snow starting and stopping,
/// thunderstorms, frost, heat, strong gusts, a very high UV index, and a day much warmer or
/// colder than the one before (``Outlook/events(_:now:until:)``). Pure functions of the
/// hours, the clock and the thresholds below; the words are the interface's business.
///
/// The thresholds, each from a public scale (wx(1) lists them):
/// - precipitation: a chance of 50 % or more, or a WMO weather code of drizzle, rain, showers,
///   snow or thunder (WMO 4677 codes 51–67, 71–77, 80–86, 95–99, as Open-Meteo reports them);
/// - thunderstorm: WMO codes 95–99;
/// - frost: 0 °C or below (the freezing point);
/// - heat: 30 °C or above, or feels like 32 °C or above (the US National Weather Service's
///   heat index "extreme caution" band starts at 32 °C);
/// - gusts: 62 km/h or more (Beaufort force 8, gale);
/// - UV: an index of 8 or more (the WHO's "very high");
/// - a day's high 5 °C or more above or below the day before.
package enum Outlook {
  package static let precipitationChance = 50.0
  package static let frostC = 0.0
  package static let heatC = 30.0
  package static let heatFeelsLikeC = 32.0
  package static let gustsKmh = 62.0
  package static let uvIndex = 8.0
  package static let dayChangeC = 5.0

  /// Events of the stored hours still to come at `now` (the current hour counts) that start
  /// by `until` (seconds since the epoch), in time order; none without hourly data.
  ///
  /// A spell is read whole from the stored hours, so one already under way keeps the hour it
  /// started (its identity does not change as the hours pass: `wx alerts --notify` sends it
  /// once); its values (amount, chance, lowest, highest) are those of the hours still to come.
  package static func events(_ city: City, now: Int64, until: Int64) -> [Event] {
    guard case .hours = city.hours(at: now), let offset = city.observation?.utcOffsetSeconds else { return [] }
    let local = Int64.floorDivide(now + Int64(offset), by: 60)
    let current = local - ((local % 60) + 60) % 60
    let end = Int64.floorDivide(until + Int64(offset), by: 60)
    let hours = city.hourly
    var out: [Event] = []
    /// The spells of `test` not over yet, each with the hours still to come.
    func spells(_ test: (ForecastHour) -> Bool) -> [(start: Int64, end: Int64?, hours: [ForecastHour])] {
      runs(hours, where: test).compactMap { spell in
        let ahead = spell.hours.filter { $0.minutes >= current }
        return ahead.isEmpty ? nil : (spell.start, spell.end, ahead)
      }
    }
    for spell in spells(isWet) {
      let codes = spell.hours.compactMap(\.weatherCode)
      let kind: Event.Kind =
        codes.contains(where: isThunder) ? .thunder : codes.contains(where: isSnow) ? .snow : .rain
      let amounts = spell.hours.compactMap(\.precipitationMm)
      out.append(
        Event(
          event: .precipitation, kind: kind, start: spell.start, end: spell.end,
          value: amounts.isEmpty ? nil : amounts.reduce(0, +), unit: .mm,
          chance: spell.hours.compactMap(\.precipitationProbability).max()))
    }
    for spell in spells({ $0.weatherCode.map(isThunder) ?? false }) {
      out.append(Event(event: .thunderstorm, start: spell.start, end: spell.end, unit: .none))
    }
    for spell in spells({ ($0.temperatureC ?? .infinity) <= frostC }) {
      out.append(
        Event(
          event: .frost, start: spell.start, end: spell.end, value: spell.hours.compactMap(\.temperatureC).min(), unit: .celsius))
    }
    let hot = { (h: ForecastHour) in (h.temperatureC ?? -.infinity) >= heatC || (h.feelsLikeC ?? -.infinity) >= heatFeelsLikeC }
    for spell in spells(hot) {
      var e = Event(
        event: .heat, start: spell.start, end: spell.end, value: spell.hours.compactMap(\.temperatureC).max(), unit: .celsius)
      e.feelsLike = spell.hours.compactMap(\.feelsLikeC).max()
      out.append(e)
    }
    for spell in spells({ ($0.gustsKmh ?? 0) >= gustsKmh }) {
      out.append(
        Event(event: .gusts, start: spell.start, end: spell.end, value: spell.hours.compactMap(\.gustsKmh).max(), unit: .kmh))
    }
    for spell in spells({ ($0.uvIndex ?? 0) >= uvIndex }) {
      out.append(
        Event(event: .uv, start: spell.start, end: spell.end, value: spell.hours.compactMap(\.uvIndex).max(), unit: .index))
    }
    if let change = dayChange(city, now: now, offset: offset) { out.append(change) }
    // An event that starts at the end of the window is in it ("the next 3 hours" from 12:00
    // include rain from 15:00).
    return out.filter { $0.start <= end }.sorted { ($0.start, $0.event.order) < ($1.start, $1.event.order) }
  }

  /// Where the stored hours end (the end of the last one), local minutes; nil without hours.
  package static func storedUntil(_ city: City) -> Int64? { city.hourly.last.map { $0.minutes + 60 } }

  /// Tomorrow's high against today's, 5 °C apart or more: an event from tomorrow's midnight.
  static func dayChange(_ city: City, now: Int64, offset: Int) -> Event? {
    let days = city.datedForecast(at: now).days
    guard let today = days.first(where: { $0.fromToday == 0 })?.day.temperatureC,
      let next = days.first(where: { $0.fromToday == 1 }), let tomorrow = next.day.temperatureC,
      let midnight = LocalTime.minutes(next.day.date + "T00:00"), abs(tomorrow - today) >= dayChangeC
    else { return nil }
    return Event(
      event: .temperatureChange, kind: tomorrow > today ? .warmer : .colder, start: midnight, end: midnight + 24 * 60,
      value: tomorrow - today, unit: .celsius)
  }

  /// Runs of consecutive hours that pass `test`: where each starts and ends (the start of the
  /// first hour after it; nil when the stored hours end first), local minutes.
  static func runs(_ hours: [ForecastHour], where test: (ForecastHour) -> Bool) -> [(
    start: Int64, end: Int64?, hours: [ForecastHour]
  )] {
    var out: [(start: Int64, end: Int64?, hours: [ForecastHour])] = []
    var current: [ForecastHour] = []
    for h in hours {
      if test(h) {
        // A gap in the stored hours ends a run.
        if let last = current.last, h.minutes != last.minutes + 60 {
          out.append((current[0].minutes, last.minutes + 60, current))
          current = []
        }
        current.append(h)
      } else if let first = current.first {
        out.append((first.minutes, h.minutes, current))
        current = []
      }
    }
    if let first = current.first { out.append((first.minutes, nil, current)) }
    return out
  }

  static func isWet(_ h: ForecastHour) -> Bool {
    if let p = h.precipitationProbability, p >= precipitationChance { return true }
    guard let c = h.weatherCode else { return false }
    return (51...67).contains(c) || (71...77).contains(c) || (80...86).contains(c) || isThunder(c)
  }
  static func isThunder(_ code: Int) -> Bool { (95...99).contains(code) }
  static func isSnow(_ code: Int) -> Bool { (71...77).contains(code) || code == 85 || code == 86 }

  /// One thing coming.
  package struct Event: Equatable, Sendable {
    package enum Name: String, Sendable, CaseIterable {
      case precipitation, thunderstorm, frost, heat, gusts, uv
      case temperatureChange = "temperature_change"

      /// Which of two events at the same hour comes first, and which matter most in a sentence.
      package var order: Int {
        switch self {
        case .thunderstorm: 0
        case .precipitation: 1
        case .gusts: 2
        case .heat: 3
        case .frost: 4
        case .temperatureChange: 5
        case .uv: 6
        }
      }
    }
    package enum Kind: String, Sendable { case rain, snow, thunder, warmer, colder }
    /// What ``value`` is in: stored units (mm, °C, km/h), converted only when shown.
    package enum Unit: String, Sendable {
      case mm, celsius, kmh, index, none
    }

    package var event: Name
    package var kind: Kind? = nil
    /// Local minutes (``LocalTime``) of the place: the first hour, and the start of the first
    /// hour after it (nil: beyond the stored hours).
    package var start: Int64
    package var end: Int64?
    /// The spell's amount (precipitation), lowest (frost) or highest value, or the change
    /// from today's high (signed).
    package var value: Double? = nil
    package var unit: Unit
    /// The highest chance of precipitation over the spell, percent.
    package var chance: Double? = nil
    /// Heat: the highest feels-like temperature over the spell, °C.
    package var feelsLike: Double? = nil

    package init(
      event: Name, kind: Kind? = nil, start: Int64, end: Int64?, value: Double? = nil, unit: Unit, chance: Double? = nil
    ) {
      (self.event, self.kind, self.start, self.end, self.value, self.unit, self.chance) =
        (event, kind, start, end, value, unit, chance)
    }

    /// What identifies it for a notification already sent: the event, its kind and its start
    /// (two spells of rain are two events; rain moved to 17:00 is a new one); its end tells
    /// whether it changed.
    package var key: String { event.rawValue + (kind.map { ":" + $0.rawValue } ?? "") + "@\(start)" }
  }
}
