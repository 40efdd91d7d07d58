extension AtlasWriter {
  /// One place listed twice at the same spot: GeoNames has some places twice, as a populated
  /// place and as an administrative one ("Paris 13 Gobelins" and "Paris 13e Arrondissement",
  /// 181,271 and 177,833 people, a few hundred metres apart; an administrative centroid may
  /// lie kilometres off: the 12th's is 3.5 km east, in the Bois de Vincennes), or a village
  /// twice under one name, and search listed both. The smaller (places come largest first)
  /// is a twin when it is in the same country and region, within ``within`` km, and has the
  /// same name: the same folded words, or, where one of the two is an arrondissement (or a
  /// district, a ward) by its number, the same words up to that number and the same number
  /// (`13` and `13e`, `03` and `3e`). Quarters of one district ("Zürich (Kreis 3) / Sihlfeld"
  /// and "/ Alt-Wiedikon") are not twins. A twin keeps its record and its GeoNames id (`wx
  /// show 12808673` still answers) and is left out of the name index; its name finds the place
  /// it repeats, as an alternate name does.
  struct SameSpot {
    static let within = 4.0
    /// Cells of 0.08°: a place's neighbours within 4 km are in its cell or the eight around
    /// it, up to 60° of latitude (where 0.08° of longitude is 4.4 km).
    private static let cell = 12.5
    /// Words that, after a number, name a numbered division rather than a place of its own.
    private static let divisions: [[UInt8]] = ["arrondissement", "bezirk", "district", "ward"].map { Array($0.utf8) }

    private struct Cell: Hashable {
      var country: String
      var region: String
      var lat: Int
      var lon: Int
    }

    private struct Name: Equatable {
      var key: [UInt8]
      /// The words before its first number and the number, when it has one.
      var numbered: [UInt8]?
      /// Whether the words after the number name a division (`arrondissement`).
      var division: Bool

      func same(as other: Name) -> Bool {
        key == other.key || (numbered != nil && numbered == other.numbered && (division || other.division))
      }
    }

    private var cells: [Cell: [(position: Int, name: Name, latitude: Double, longitude: Double)]] = [:]
    /// How many twins were found.
    private(set) var twins = 0

    /// The position of the larger place that `place` (its folded name `key`) repeats, or nil,
    /// and then `place` is one a later place may repeat.
    mutating func twin(of place: Place, key: [UInt8]) -> Int? {
      let name = Self.name(key)
      let (lat, lon) = (Int((place.latitude * Self.cell).rounded(.down)), Int((place.longitude * Self.cell).rounded(.down)))
      let region = place.region ?? ""
      for dLat in -1...1 {
        for dLon in -1...1 {
          let c = Cell(country: place.countryCode, region: region, lat: lat + dLat, lon: lon + dLon)
          for other in cells[c] ?? [] where other.name.same(as: name) {
            guard Place.distance(place.latitude, place.longitude, other.latitude, other.longitude) <= Self.within else {
              continue
            }
            twins += 1
            return other.position
          }
        }
      }
      cells[Cell(country: place.countryCode, region: region, lat: lat, lon: lon), default: []].append(
        (place.position, name, place.latitude, place.longitude))
      return nil
    }

    private static func name(_ key: [UInt8]) -> Name {
      let words = key.split(separator: 0x20, omittingEmptySubsequences: true)
      guard let k = words.firstIndex(where: { $0.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }) else {
        return Name(key: key, numbered: nil, division: false)
      }
      var digits = Array(words[k].prefix { $0 >= 0x30 && $0 <= 0x39 }.drop { $0 == 0x30 })
      if digits.isEmpty { digits = [0x30] }
      let after = words[(k + 1)...].map(Array.init)
      return Name(
        key: key, numbered: Array(words[..<k].joined(separator: [0x20])) + [0] + digits,
        division: after.count == 1 && divisions.contains(after[0]))
    }
  }
}
