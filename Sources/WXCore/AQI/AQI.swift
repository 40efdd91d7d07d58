import WXFeed

/// The Indian National Air Quality Index categories that `wx aqi` shows with every feed
/// reading; readings on the US AQI scale (Open-Meteo) use the six US EPA bands instead, in
/// the same order (see ``name(on:)``).
///
/// The published bands are whole numbers (Good 0–50, Satisfactory 51–100, …); a value
/// between two bands belongs to the lower one, so 50.23 and 50.99 are Good and 100.5 is
/// Satisfactory. Values above 500 (up to the 1000 that feeds may send) are Severe.
package enum AQICategory: Int, CaseIterable, Sendable {
  case good, satisfactory, moderate, poor, veryPoor, severe

  /// The band of `aqi` on `scale` (the US bands end at 50, 100, 150, 200, 300).
  package init(aqi: Double, scale: AQIScale = .naqi) {
    if scale == .us {
      let ends: [Double] = [51, 101, 151, 201, 301]
      self = AQICategory(rawValue: ends.firstIndex { aqi < $0 } ?? 5)!
      return
    }
    if aqi < 51 {
      self = .good
    } else if aqi < 101 {
      self = .satisfactory
    } else if aqi < 201 {
      self = .moderate
    } else if aqi < 301 {
      self = .poor
    } else if aqi < 401 {
      self = .veryPoor
    } else {
      self = .severe
    }
  }

  /// The category's name on `scale`.
  package func name(on scale: AQIScale) -> String {
    guard scale == .us else { return name }
    switch self {
    case .good: return "Good"
    case .satisfactory: return "Moderate"
    case .moderate: return "Unhealthy for Sensitive Groups"
    case .poor: return "Unhealthy"
    case .veryPoor: return "Very Unhealthy"
    case .severe: return "Hazardous"
    }
  }

  package var name: String {
    switch self {
    case .good: "Good"
    case .satisfactory: "Satisfactory"
    case .moderate: "Moderate"
    case .poor: "Poor"
    case .veryPoor: "Very Poor"
    case .severe: "Severe"
    }
  }

  /// The published band, as printed in the man page.
  package var band: ClosedRange<Int> {
    switch self {
    case .good: 0...50
    case .satisfactory: 51...100
    case .moderate: 101...200
    case .poor: 201...300
    case .veryPoor: 301...400
    case .severe: 401...500
    }
  }
}

/// One city's value from one feed frame.
package struct AQIReading: Equatable, Sendable {
  package var city: String
  package var aqi: Double
  /// The scale of ``aqi`` and, from Open-Meteo, the European AQI and PM2.5 beside it.
  package var scale: AQIScale = .naqi
  package var european: Double? = nil
  package var pm25: Double? = nil
  /// When the provider says the reading was taken (seconds since the epoch: Open-Meteo's
  /// `current.time`); nil for a feed's reading, which is taken as it arrives.
  package var time: Int64? = nil

  package init(city: String, aqi: Double, scale: AQIScale = .naqi, european: Double? = nil, pm25: Double? = nil) {
    self.city = city
    self.aqi = aqi
    self.scale = scale
    self.european = european
    self.pm25 = pm25
  }

  package var category: AQICategory { AQICategory(aqi: aqi, scale: scale) }
}

/// Decodes the text frames of a live air-quality feed.
///
/// A frame is a JSON array of objects with a `city` string and an `aqi` number; other
/// members are ignored, and any subset of cities may appear. Each entry that is not such an
/// object, or whose AQI is negative or above 1000, is skipped and counted; a frame that is
/// not JSON, or not an array, counts as one bad entry and yields nothing.
package enum AQIFrame {
  /// AQI values wx accepts; anything else is a bad reading.
  package static let accepted: ClosedRange<Double> = 0...1000
  /// Longest city name accepted, in bytes of UTF-8.
  package static let maxCityBytes = 200

  package struct Decoded: Equatable, Sendable {
    /// The good readings in frame order; a city named twice keeps its last value.
    package var readings: [AQIReading] = []
    /// How many entries (or whole frames) were skipped.
    package var bad = 0
    /// Why the first skipped entry was skipped, for a warning.
    package var problem: String?

    package init(readings: [AQIReading] = [], bad: Int = 0, problem: String? = nil) {
      self.readings = readings
      self.bad = bad
      self.problem = problem
    }

    mutating func skip(_ why: String) {
      bad += 1
      if problem == nil { problem = why }
    }
  }

  package static func decode(_ text: String) -> Decoded {
    decode(Array(text.utf8))
  }

  package static func decode(_ bytes: [UInt8]) -> Decoded {
    var out = Decoded()
    let json: JSON
    do throws(JSONError) {
      json = try JSON.parse(bytes)
    } catch {
      out.skip("not JSON (\(error))")
      return out
    }
    guard case .array(let items) = json else {
      out.skip("expected an array of readings, found \(json.typeName)")
      return out
    }
    var byKey: [[UInt8]: Int] = [:]
    for (index, item) in items.enumerated() {
      guard case .object = item else {
        out.skip("entry \(index + 1) is \(item.typeName), not an object")
        continue
      }
      guard case .string(let rawCity)? = item["city"] else {
        out.skip("entry \(index + 1) has no \"city\" string")
        continue
      }
      // Cleaned as sync cleans the catalogue's text (``StoredText``): no control, bidi or
      // other format character is stored.
      guard let city = try? StoredText.clean(rawCity), Fold.hasKey(city), city.utf8.count <= maxCityBytes else {
        out.skip("entry \(index + 1) has an unusable city name")
        continue
      }
      let key = Fold.key(city)
      guard case .number(let aqi, _)? = item["aqi"] else {
        let found = item["aqi"].map(\.typeName) ?? "nothing"
        out.skip("\(city): \"aqi\" is \(found), not a number")
        continue
      }
      guard accepted.contains(aqi) else {
        out.skip("\(city): AQI \(JSONWriter.number(aqi)) is out of range (0–1000)")
        continue
      }
      let reading = AQIReading(city: city, aqi: aqi)
      if let k = byKey[key] {
        out.readings[k] = reading
        out.skip("\(city) is named more than once in one frame (its last value is kept)")
      } else {
        byKey[key] = out.readings.count
        out.readings.append(reading)
      }
    }
    return out
  }
}

/// `aqi.gdbm`: folded city name → display name and the last 20 readings, oldest first.
///
/// Each frame is recorded in one locked read-modify-write of the whole (small) store, so a
/// reader (`wx aqi list`) never waits and never sees half a frame.
package struct AQIStore: Sendable {
  /// Readings kept per city; older ones are dropped.
  package static let capacity = 20

  package let store: SmallStore
  package let writers: WriterLock.Policy

  package init(path: String, writers: WriterLock.Policy) {
    store = SmallStore(path: path, kind: .aqi)
    self.writers = writers
  }

  /// The key a salvaged payload is filed under, or nil if it is not a history (repair).
  package static func key(salvaging payload: [UInt8]) -> [UInt8]? {
    guard let history = try? AQIHistory(decoding: payload) else { return nil }
    let key = Fold.key(history.city)
    return key.isEmpty ? nil : key
  }

  /// Every city's history, by folded name (the store's keys).
  package func histories() throws(StoreError) -> [AQIHistory] {
    var out: [AQIHistory] = []
    for (_, payload) in try store.read().sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
      out.append(try history(decoding: payload))
    }
    return out
  }

  /// One city's history (case- and accent-insensitive), or nil.
  package func history(_ city: String) throws(StoreError) -> AQIHistory? {
    let key = Fold.key(city)
    guard !key.isEmpty else { return nil }
    guard let payload = try store.read()[key] else { return nil }
    return try history(decoding: payload)
  }

  /// The history a typed name picks: the readings of the place `wx show` would show for it
  /// (`finder`, the place book: `tokio` is 東京, `Paris` Paris, France, though Paris, Texas
  /// has readings too), recorded under its name (and its country and region, where recorded);
  /// when the place book knows no such place (a name only the feed spells so), or without a
  /// catalogue, among the recorded names by the rules every city argument follows
  /// (``Resolver``). nil when no history fits; throws ``LookupError`` when the name
  /// fits several places, as `wx show` does, or several recorded names.
  package func find(_ text: String, finder: PlaceFinder?) throws -> AQIHistory? {
    var looked: Found? = nil
    return try find(text, finder: finder, looked: &looked)
  }

  /// ``find(_:finder:)``, and the place `text` names in the place book, when it names one
  /// (`looked`): what a message says when it has no readings, without a second lookup.
  package func find(_ text: String, finder: PlaceFinder?, looked: inout Found?) throws -> AQIHistory? {
    let all = try histories()
    // Twins recorded with their ids, typed as `wx aqi list` shows them ("Testville,
    // Testland, id 2", in any case and spacing): no place of the place book is named so.
    if let typed = OpenMeteoAirQuality.withID(text) {
      let head = Fold.key(typed.head)
      let whole = all.first { h in
        OpenMeteoAirQuality.withID(h.city).map { $0.id == typed.id && Fold.key($0.head) == head } == true
      }
      if let whole { return whole }
    }
    let list = PlaceList(airQuality: all)
    let resolver = Resolver(list)
    if let finder {
      do {
        let found = try finder.lookup(text).found
        looked = found
        let named = try resolver.named(found.name).filter { i in
          let item = list.items[i]
          // Twins the region does not tell apart were recorded with the catalogue city's id.
          if let id = item.id { return id == found.city?.id }
          if let region = item.region, Fold.key(region) != Fold.key(found.place?.region ?? "") { return false }
          return item.country.isEmpty
            || resolver.fit(
              Fold.key(item.country), Qualifiers(country: found.country),
              lines: Countries.lines(naming: Fold.key(item.country), version: Fold.version)) == .exact
        }
        return Self.merged(named.map { all[$0] })
      } catch LookupError.notFound {
        // A name the feed spells so: among the recorded names.
      }
    }
    switch try resolver.resolve(text) {
    case .one(let i): return all[i]
    case .several(let hits): throw LookupError.ambiguous(query: text, candidates: hits.map(list.candidate))
    case .none: return nil
    }
  }

  /// The recorded names closest to `text`, for a message: the recorded places of the name
  /// itself (`paris` read as Paris, France, which has none, while Paris, Texas has
  /// readings), else those a typo away (`berln`); none when nothing recorded is near.
  package func closest(_ text: String) throws -> [String] {
    let all = try histories()
    let name = { (s: String) in Fold.key(String(s.split(separator: ",", maxSplits: 1).first ?? "")) }
    let namesakes = all.filter { name($0.city) == name(text) }.map(\.city)
    if !namesakes.isEmpty { return namesakes }
    guard case .none(let near) = try Resolver(PlaceList(airQuality: all)).resolve(text) else { return [] }
    return near.map { all[$0].city }
  }

  /// The histories recorded for one place as one: the feed's bare name and Open-Meteo's
  /// "Name, Country" of one city share a chart (each scale charted on its own), under the
  /// most qualified of their names. nil for none.
  static func merged(_ histories: [AQIHistory]) -> AQIHistory? {
    guard let first = histories.first else { return nil }
    guard histories.count > 1 else { return first }
    let name = histories.map(\.city).max { $0.split(separator: ",").count < $1.split(separator: ",").count }!
    let samples = histories.flatMap(\.samples).sorted { $0.time < $1.time }
    return AQIHistory(city: name, samples: Array(samples.suffix(capacity)))
  }

  /// Appends one frame's readings, all stamped `time`, in one locked read-modify-write.
  package func record(_ readings: [AQIReading], at time: Int64) throws {
    guard !readings.isEmpty else { return }
    try store.update(under: writers) { map in
      for reading in readings {
        let key = Fold.key(reading.city)
        guard !key.isEmpty else { continue }
        var history = AQIHistory(city: reading.city, samples: [])
        if let payload = map[key] { history.samples = try self.history(decoding: payload).samples }
        history.city = reading.city  // the feed's latest spelling
        let sample = AQISample(
          time: reading.time ?? time, aqi: reading.aqi, scale: reading.scale, european: reading.european, pm25: reading.pm25)
        // The same reading fetched twice (two syncs within the provider's interval) is kept once.
        if let last = history.samples.last, reading.time != nil, last.time == sample.time, last.scale == sample.scale {
          history.samples[history.samples.count - 1] = sample
        } else {
          history.samples.append(sample)
        }
        if history.samples.count > Self.capacity {
          history.samples.removeFirst(history.samples.count - Self.capacity)
        }
        map[key] = history.encoded()
      }
    }
  }

  /// A stored history; a value that does not decode is damage to the file.
  private func history(decoding payload: [UInt8]) throws(StoreError) -> AQIHistory {
    do throws(MalformedValue) {
      return try AQIHistory(decoding: payload)
    } catch {
      throw .damaged(path: store.path, detail: "an air-quality record is unreadable")
    }
  }
}
