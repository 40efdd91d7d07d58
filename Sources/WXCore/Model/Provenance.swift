/// Who a city's weather came from.
package enum WeatherSource: String, CaseIterable, Sendable {
  /// The bundled sample: invented weather for real city names.
  case sample
  case freetestapi
  case accuweather
  case openMeteo = "open-meteo"

  /// The provider named as a catalogue header names it (`CatalogueMeta.provider`); nil for
  /// a name no wx wrote.
  package init?(provider: String) { self.init(rawValue: provider) }

  /// How the record stores it: 1… (0 is "not stored": a record of version 3 or before).
  var byte: UInt8 { UInt8(Self.allCases.firstIndex(of: self)! + 1) }

  init?(byte: UInt8) {
    guard byte >= 1, Int(byte) <= Self.allCases.count else { return nil }
    self = Self.allCases[Int(byte) - 1]
  }

  /// Whether the provider says when its values were observed (Open-Meteo's `current.time`,
  /// AccuWeather's hour). freetestapi does not: its time is the time it was served.
  package var hasObservationTime: Bool { self == .openMeteo || self == .accuweather }
}

/// Where a city's current conditions came from and when the provider observed them.
///
/// Every record a sync writes carries its own: a sync that refreshes some cities (an Open-Meteo
/// refresh of the favourites) leaves the others' provenance as it was, so the sample's
/// cities stay the sample's, row by row, until a sync replaces them.
package struct Provenance: Equatable, Sendable {
  package var source: WeatherSource
  /// Seconds since the epoch: when the provider observed the values (Open-Meteo, AccuWeather)
  /// or, for freetestapi, which says nothing of it, when it served them; nil for the sample,
  /// whose values were never observed.
  package var observedAt: Int64?

  package init(source: WeatherSource, observedAt: Int64?) {
    self.source = source
    self.observedAt = observedAt
  }

  /// The sample's: invented, observed never.
  package static let sample = Provenance(source: .sample, observedAt: nil)

  package var isSample: Bool { source == .sample }

  /// Seconds since the observation at `now` (never negative); nil for the sample.
  package func age(at now: Int64) -> Int64? { observedAt.map { max(0, now - $0) } }

  /// Whether the values are older than `limit` seconds at `now`; the sample always is.
  package func isOlder(than limit: Int64, at now: Int64) -> Bool {
    guard let age = age(at: now) else { return true }
    return age > limit
  }

  /// What a record written before provenance was stored (record version 3 or before) had:
  /// its observation's when it has one (Open-Meteo wrote it), else the catalogue's list's —
  /// the sample's cities stay the sample's after a refresh of some of them, because the
  /// header keeps the list's provider.
  package static func legacy(_ city: City, _ meta: CatalogueMeta) -> Provenance {
    // Only Open-Meteo wrote an observation (AccuWeather's records never had one).
    if let at = city.observation?.epochSeconds { return Provenance(source: .openMeteo, observedAt: at) }
    if meta.listIsSample { return .sample }
    return Provenance(source: WeatherSource(provider: meta.listProvider) ?? .freetestapi, observedAt: meta.listSyncedAt)
  }
}

/// How old values may be before a row says so: three hours, as issue 29 and `wx(1)` say.
package enum Staleness {
  package static let rowLimit: Int64 = 3 * 3600
}

extension Observation {
  /// The observation as seconds since the epoch (its local time less its UTC offset).
  package var epochSeconds: Int64? {
    LocalTime.minutes(localTime).map { $0 * 60 - Int64(utcOffsetSeconds) }
  }
}

extension City {
  /// Its provenance: stored with records written since version 4; nil only for a record of
  /// an older version before the catalogue fills it in (``Provenance/legacy(_:_:)``).
  package var origin: Provenance { provenance ?? .sample }
}

/// Durations as people write them for status bars and timers: `90m`, `3h`, `2d`, `45s`, or
/// several (`1h30m`); a bare number is minutes.
package enum DurationText {
  /// Seconds, or nil when `text` is no duration (empty, negative, unknown unit, overflow).
  package static func seconds(_ text: String) -> Int64? {
    let b = Array(text.utf8)
    guard !b.isEmpty else { return nil }
    var total: Int64 = 0
    var number: Int64? = nil
    for c in b {
      if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
        let (m, o1) = (number ?? 0).multipliedReportingOverflow(by: 10)
        let (n, o2) = m.addingReportingOverflow(Int64(c - UInt8(ascii: "0")))
        guard !o1, !o2, n < 1 << 40 else { return nil }
        number = n
        continue
      }
      let unit: Int64
      switch c {
      case UInt8(ascii: "s"): unit = 1
      case UInt8(ascii: "m"): unit = 60
      case UInt8(ascii: "h"): unit = 3600
      case UInt8(ascii: "d"): unit = 86_400
      case UInt8(ascii: "w"): unit = 7 * 86_400
      default: return nil
      }
      guard let n = number else { return nil }
      total += n * unit
      number = nil
    }
    if let n = number { total += n * 60 }
    return total
  }
}

/// Where the values shown as current come from.
package enum CurrentSource: String, Sendable {
  /// The provider's observation (or, for freetestapi, its current values).
  case observation
  /// The bundled sample's invented values: never observed.
  case sample
  /// The stored hour that covers now: the observation was over an hour old.
  case forecast
}

extension City {
  /// The city as it is best shown at `now`: when its observation is over an hour old and a
  /// stored hour covers the current hour, that hour's values stand for the current ones
  /// (``CurrentSource/forecast``; the hour is returned too, for its label); else the city
  /// as stored. With 48 hours stored, wx stays useful offline for two days; past them the
  /// last observation shows, with its age.
  package func current(at now: Int64) -> (city: City, source: CurrentSource, hour: ForecastHour?) {
    if provenance?.isSample == true { return (self, .sample, nil) }
    guard let o = observation, let observed = o.epochSeconds, now - observed > 3600,
      case .hours(let hours) = self.hours(at: now, limit: 1), let h = hours.first,
      let t = LocalTime.minutes(o.localTime), h.minutes > t
    else { return (self, .observation, nil) }
    var c = self
    c.temperatureC = h.temperatureC
    c.feelsLikeC = h.feelsLikeC
    c.description = h.description
    // The stored hours have none of these: unknown, not the old observation's.
    (c.humidity, c.pressureHpa, c.visibilityM, c.dewPointC, c.cloudCover) = (nil, nil, nil, nil, nil)
    c.windKmh = h.windKmh
    c.windDirection = h.windDirection
    c.gustsKmh = h.gustsKmh
    c.precipitationMm = h.precipitationMm
    // Its hour is "now" for what is read of the hour and the day (chance of rain, UV, sunrise);
    // the provenance stays the observation's.
    c.observation?.localTime = h.time
    return (c, .forecast, h)
  }
}
