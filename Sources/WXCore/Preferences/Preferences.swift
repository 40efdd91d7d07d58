/// What wx remembers between runs: the temperature unit, the wind unit (nil: it follows the
/// temperature unit) and the last city shown.
package struct Preferences: Equatable, Sendable {
  package var unit: TemperatureUnit = .celsius
  package var wind: WindUnit?
  package var lastCity: CityIdentity?
  /// The GeoNames id of the last place shown, when it was an atlas place: two places of one
  /// name and country (two Halles of Flanders) are told apart by it.
  package var lastPlace: Int?

  package init(unit: TemperatureUnit = .celsius, wind: WindUnit? = nil, lastCity: CityIdentity? = nil, lastPlace: Int? = nil) {
    self.unit = unit
    self.wind = wind
    self.lastCity = lastCity
    self.lastPlace = lastPlace
  }
}

/// Preferences in `prefs.gdbm`: key `unit` → `celsius`/`fahrenheit`, key `wind` → a
/// ``WindUnit`` name (absent: wind follows the unit), key `last` → name and country, then the
/// place's GeoNames id when it is an atlas place (a varint an older wx does not read).
package struct PreferencesStore: Sendable {
  package let store: SmallStore
  package let writers: WriterLock.Policy

  package init(path: String, writers: WriterLock.Policy) {
    store = SmallStore(path: path, kind: .preference)
    self.writers = writers
  }

  static let unitKey = Array("unit".utf8)
  static let windKey = Array("wind".utf8)
  static let lastKey = Array("last".utf8)

  /// The key a salvaged payload is filed under, or nil if it is not a setting (repair).
  package static func key(salvaging payload: [UInt8]) -> [UInt8]? {
    if TemperatureUnit(rawValue: String(decoding: payload, as: UTF8.self)) != nil { return unitKey }
    if WindUnit(rawValue: String(decoding: payload, as: UTF8.self)) != nil { return windKey }
    var r = ByteReader(payload)
    guard let name = try? r.string(), (try? r.string()) != nil, !name.isEmpty else { return nil }
    if !r.isAtEnd { _ = try? r.varint() }
    return r.isAtEnd ? lastKey : nil
  }

  /// Reads the settings directly (no whole-store read on the read path).
  package func load() throws(StoreError) -> Preferences {
    let v = try store.values([Self.unitKey, Self.windKey, Self.lastKey])
    return Self.decode(unit: v[0], wind: v[1], last: v[2])
  }

  static func decode(_ map: [[UInt8]: [UInt8]], path: String) -> Preferences {
    decode(unit: map[unitKey], wind: map[windKey], last: map[lastKey])
  }

  static func decode(unit: [UInt8]?, wind: [UInt8]?, last: [UInt8]?) -> Preferences {
    var prefs = Preferences()
    if let raw = unit, let unit = TemperatureUnit(rawValue: String(decoding: raw, as: UTF8.self)) {
      prefs.unit = unit
    }
    if let raw = wind { prefs.wind = WindUnit(rawValue: String(decoding: raw, as: UTF8.self)) }
    if let raw = last {
      var r = ByteReader(raw)
      if let name = try? r.string(), let country = try? r.string(), !name.isEmpty {
        prefs.lastCity = CityIdentity(name: name, country: country)
        if !r.isAtEnd, let id = try? r.varint(), id > 0, id < 1 << 40 { prefs.lastPlace = Int(id) }
      }
    }
    return prefs
  }

  /// Changes preferences in one locked read-modify-write; writes nothing when nothing changes.
  package func modify(_ change: (inout Preferences) -> Void) throws {
    try store.update(under: writers) { map in
      var prefs = Self.decode(map, path: store.path)
      change(&prefs)
      map[Self.unitKey] = Array(prefs.unit.rawValue.utf8)
      map[Self.windKey] = prefs.wind.map { Array($0.rawValue.utf8) }
      if let last = prefs.lastCity {
        var w = ByteWriter()
        w.string(last.name)
        w.string(last.country)
        if let id = prefs.lastPlace { w.varint(UInt64(id)) }
        map[Self.lastKey] = w.bytes
      }
    }
  }
}
