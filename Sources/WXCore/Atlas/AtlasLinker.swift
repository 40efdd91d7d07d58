import Glibc

/// Works out ``AtlasLinks`` for a catalogue being written (``CatalogueWriter``): each city's
/// name (a 64-bit hash of it folded), coordinates and country are set aside as it arrives
/// (28 bytes: in memory up to 256 KiB, then in a temporary file beside the catalogue, as the
/// orders' fields are), and ``finish()``, once the download is over and its memory handed
/// back, reads the atlas data and compares every city with the places of its name in memory:
/// a hash lookup a city, not an atlas lookup a city.
///
/// A catalogue smaller than ``AtlasLinks/threshold`` cities, or atlas data that cannot be
/// read, gets no links (readers look names up as before). The comparison holds about 40 bytes
/// a place (170,000 places: 7 MB), and the data file (6 MB) while it reads it, all freed
/// before the orders and the index are built. A hash that two names share can only link a place to a
/// city of another name, which a reader refuses (``PlaceFinder/ownNamedCity(_:)``).
final class AtlasLinker {
  private let dataPath: String
  private static let size = 28
  /// The fields not yet handed to `spill`, which takes them 2,048 cities at a time.
  private var pending: [UInt8] = []
  private var spill: SpillBuffer
  private var count = 0

  /// `dataPath`: the `atlas.bin` the atlas store is built from; `directory`: the catalogue's.
  init(dataPath: String, directory: String) {
    self.dataPath = dataPath
    spill = SpillBuffer(directory: directory, spillAbove: 1 << 18)
  }

  /// The next city, in catalogue order: its folded name (``Fold/key(_:)``), the number the
  /// index builder gave its country as stored (``CityIndexBuilder/add(_:wordStarts:country:)``)
  /// and coordinates.
  func add(key: [UInt8], country number: UInt32, latitude: Double, longitude: Double) throws(StoreError) {
    withUnsafeBytes(of: CityIndex.fnv1a(key[...]).littleEndian) { pending.append(contentsOf: $0) }
    withUnsafeBytes(of: latitude.bitPattern.littleEndian) { pending.append(contentsOf: $0) }
    withUnsafeBytes(of: longitude.bitPattern.littleEndian) { pending.append(contentsOf: $0) }
    // A name that folds to nothing is no place's (the lookup never asks for it).
    withUnsafeBytes(of: (key.isEmpty ? -1 : Int32(number)).littleEndian) { pending.append(contentsOf: $0) }
    count += 1
    if pending.count >= Self.size << 11 {
      try spill.append(pending)
      pending.removeAll(keepingCapacity: true)
    }
  }

  /// The links (positions ascending) and the data they are of; nil when there are none to
  /// store (a small catalogue, unreadable data). `countryKeys`: the index builder's folded
  /// countries, by number (``CityIndexBuilder/countryKeys``).
  func finish(countryKeys: [[UInt8]]) throws(StoreError) -> (
    links: [(position: Int, city: Int)], dataChecksum: UInt32, places: Int
  )? {
    guard count >= AtlasLinks.threshold, var table = try? Table(data: AtlasData(path: dataPath)) else { return nil }
    table.countryKeys = countryKeys
    table.countryRanks = CityIndex.countryRanks(countryKeys)
    table.start()
    var city: Int32 = 0
    func link(_ bytes: [UInt8]) {
      bytes.withUnsafeBytes { raw in
        var k = 0
        while k + Self.size <= raw.count {
          table.link(
            city: city, hash: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)),
            latitude: Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k + 8, as: UInt64.self))),
            longitude: Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k + 16, as: UInt64.self))),
            country: Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: k + 24, as: Int32.self))))
          city += 1
          k += Self.size
        }
      }
    }
    try spill.forEachPiece(Self.size << 14, link)
    link(pending)
    guard city == count else { throw .io(path: spill.directory, operation: "reading a temporary file in", errno: EIO) }
    (spill, pending) = (SpillBuffer(directory: spill.directory, spillAbove: 0), [])
    var links: [(position: Int, city: Int)] = []
    for (p, c) in table.best.enumerated() where c >= 0 { links.append((p, Int(c))) }
    return (links, table.checksum, table.best.count)
  }

  /// The places' name hashes sorted, and their coordinates and countries by position.
  private struct Table {
    let checksum: UInt32
    var hashes: [UInt64] = []
    var order: [Int32] = []
    /// In hundred-thousandths of a degree, as `atlas.bin` has them (``AtlasData``): the same
    /// Doubles again, exactly, in half the memory.
    var latitudes: [Int32] = []
    var longitudes: [Int32] = []
    var countryOf: [UInt16] = []
    /// Each atlas country (by the data's numbers): its folded name, code and code's table lines.
    var countries: [(name: [UInt8], code: [UInt8], lines: [Int])] = []
    /// The catalogue's countries folded, by number, and whether each of the first 1,024 is
    /// each atlas country (0 unknown, 1 yes, 2 no: a hostile catalogue of a million
    /// spellings is not kept).
    var countryKeys: [[UInt8]] = []
    var countryRanks: [UInt32] = []
    var same: [[UInt8]] = []
    /// By position: the city linked so far (-1: none), its distance and country's number.
    var best: [Int32] = []
    var bestKm: [Double] = []
    var bestCountry: [Int32] = []

    init(data: AtlasData) throws(StoreError) {
      checksum = data.checksum
      var byPosition: [UInt64] = []
      byPosition.reserveCapacity(data.count)
      let version = Fold.version
      for n in 0..<data.countryCount {
        let (code, name) = data.country(n)
        let folded = Fold.key(code)
        countries.append((Fold.key(name), folded, Countries.lines(naming: folded, version: version)))
      }
      // Names, countries and coordinates only: decoding every place whole (regions, zones,
      // alternate names) made linking a 1,000-city sync eight times as long.
      try data.forEachSpot { name, country, latitude, longitude in
        byPosition.append(CityIndex.fnv1a(Fold.key(name)[...]))
        latitudes.append(Int32((latitude * 100_000).rounded()))
        longitudes.append(Int32((longitude * 100_000).rounded()))
        countryOf.append(UInt16(country))
      }
      order = byPosition.indices.map { Int32($0) }
      order.sort { (byPosition[Int($0)], $0) < (byPosition[Int($1)], $1) }
      hashes = order.map { byPosition[Int($0)] }
    }

    /// The links' own arrays, made once the data file is let go.
    mutating func start() {
      best = [Int32](repeating: -1, count: order.count)
      bestKm = [Double](repeating: .infinity, count: order.count)
      bestCountry = [Int32](repeating: 0, count: order.count)
    }

    /// Links `city` to each place of its name, country and within ``PlaceFinder/sameTown``
    /// to which it is nearer than the city linked so far. At equal distance the city the
    /// catalogue's index lists first stays: the lower country rank (``CityIndex/countryRanks(_:)``),
    /// then the earlier city (``PlaceFinder/nearestCity(named:country:latitude:longitude:)``
    /// reads them so). A name that folds to nothing (-1) names no place.
    mutating func link(city: Int32, hash h: UInt64, latitude: Double, longitude: Double, country: Int) {
      guard country >= 0 else { return }
      var lo = 0
      var hi = hashes.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if hashes[mid] < h { lo = mid + 1 } else { hi = mid }
      }
      while lo < hashes.count && hashes[lo] == h {
        let p = Int(order[lo])
        lo += 1
        let km = Place.distance(Double(latitudes[p]) / 100_000, Double(longitudes[p]) / 100_000, latitude, longitude)
        guard km <= PlaceFinder.sameTown, km <= bestKm[p], isSame(country, Int(countryOf[p])) else { continue }
        if km == bestKm[p] && countryRanks[country] >= countryRanks[Int(bestCountry[p])] { continue }
        (best[p], bestKm[p], bestCountry[p]) = (city, km, Int32(country))
      }
    }

    private mutating func isSame(_ country: Int, _ n: Int) -> Bool {
      func work() -> Bool {
        let c = countries[n]
        return PlaceFinder.sameCountry(countryKeys[country], name: c.name, code: c.code, lines: c.lines, version: Fold.version)
      }
      guard country < 1_024 else { return work() }
      while same.count <= country { same.append([UInt8](repeating: 0, count: countries.count)) }
      if same[country][n] == 0 { same[country][n] = work() ? 1 : 2 }
      return same[country][n] == 1
    }
  }
}
