/// The scale an AQI value is on: the live feed's Indian NAQI, or Open-Meteo's US AQI.
package enum AQIScale: UInt8, Sendable {
  case naqi = 0
  case us = 1

  /// How wx names it next to a category: `NAQI`, `US AQI`.
  package var name: String { self == .us ? "US AQI" : "NAQI" }
}

/// A stored reading: when it arrived (seconds since the epoch), its value and scale, and,
/// from Open-Meteo, the European AQI and PM2.5 (µg/m³) beside it.
package struct AQISample: Equatable, Sendable {
  package var time: Int64
  package var aqi: Double
  package var scale: AQIScale
  package var european: Double?
  package var pm25: Double?

  package init(time: Int64, aqi: Double, scale: AQIScale = .naqi, european: Double? = nil, pm25: Double? = nil) {
    self.time = time
    self.aqi = aqi
    self.scale = scale
    self.european = european
    self.pm25 = pm25
  }

  package var category: AQICategory { AQICategory(aqi: aqi, scale: scale) }
  /// `Moderate (US AQI)`: the category and the scale it belongs to.
  package var categoryName: String { "\(category.name(on: scale)) (\(scale.name))" }
}

/// A city's recorded readings, oldest first (at most ``AQIStore/capacity``).
///
/// Layout: city, sample count, (time, aqi) per sample; then, since Open-Meteo readings,
/// (scale byte, optional European AQI, optional PM2.5) per sample. A history without the
/// second part (wx before `aqi sync`) reads as NAQI readings.
package struct AQIHistory: Equatable, Sendable {
  package var city: String
  package var samples: [AQISample]

  package init(city: String, samples: [AQISample]) {
    self.city = city
    self.samples = samples
  }

  package var latest: AQISample? { samples.last }

  /// The scales of its readings, each once, in the order they first appear.
  package var scales: [AQIScale] {
    var out: [AQIScale] = []
    for s in samples where !out.contains(s.scale) { out.append(s.scale) }
    return out
  }

  /// The readings on one scale, with their range: values on two scales are never compared,
  /// charted together or given one minimum. `scale` nil is the latest reading's; nil when
  /// the history holds no reading on the scale asked for.
  package func series(on scale: AQIScale? = nil) -> AQISeries? {
    guard let scale = scale ?? latest?.scale else { return nil }
    let mine = samples.filter { $0.scale == scale }
    guard let last = mine.last else { return nil }
    let values = mine.map(\.aqi)
    let others = scales.filter { $0 != scale }.map { other in
      AQISeries.Other(scale: other, count: samples.count(where: { $0.scale == other }))
    }
    return AQISeries(scale: scale, samples: mine, latest: last, min: values.min()!, max: values.max()!, others: others)
  }

  func encoded() -> [UInt8] {
    var w = ByteWriter(capacity: 16 + city.utf8.count + samples.count * 24)
    w.string(city)
    w.varint(UInt64(samples.count))
    for s in samples {
      w.int(Int(s.time))
      w.double(s.aqi)
    }
    for s in samples {
      w.varint(UInt64(s.scale.rawValue))
      w.optional(s.european)
      w.optional(s.pm25)
    }
    return w.bytes
  }

  init(decoding bytes: [UInt8]) throws(MalformedValue) {
    var r = ByteReader(bytes)
    city = try r.string()
    let n = try r.count(limit: AQIStore.capacity)
    samples = []
    samples.reserveCapacity(n)
    for _ in 0..<n {
      let time = Int64(try r.int())
      let aqi = try r.double()
      guard AQIFrame.accepted.contains(aqi) else { throw MalformedValue() }
      samples.append(AQISample(time: time, aqi: aqi))
    }
    if !r.isAtEnd {
      for k in 0..<n {
        guard let raw = UInt8(exactly: try r.varint()), let scale = AQIScale(rawValue: raw) else { throw MalformedValue() }
        samples[k].scale = scale
        samples[k].european = try r.optionalDouble(always: false)
        samples[k].pm25 = try r.optionalDouble(always: false)
      }
    }
    guard r.isAtEnd, !city.isEmpty else { throw MalformedValue() }
  }
}

/// One city's readings on one scale (``AQIHistory/series(on:)``), oldest first.
package struct AQISeries: Equatable, Sendable {
  /// Readings the history holds on another scale, left out of this series.
  package struct Other: Equatable, Sendable {
    package var scale: AQIScale
    package var count: Int
  }

  package var scale: AQIScale
  package var samples: [AQISample]
  package var latest: AQISample
  package var min: Double
  package var max: Double
  package var others: [Other]
}
