import Glibc
import WXFeed

/// The shipped atlas file, `atlas.bin` (written by `scripts/make-atlas.py`, which documents
/// its layout): checked whole (magic, CRC-32) and read place by place.
package struct AtlasData {
  package static let fileName = "atlas.bin"
  static let magic = Array("WXATLAS1".utf8)

  /// One place as the file has it, with its alternate names.
  package struct Entry {
    package var place: Place
    package var alternateNames: [String]
  }

  package let path: String
  private let bytes: [UInt8]
  /// The file's CRC-32 (its last four bytes): which data a store was built from.
  package let checksum: UInt32
  private var countries: [(code: String, name: String)] = []
  private var regions: [String] = []
  private var zones: [String] = []
  private var placesOffset = 0
  package private(set) var count = 0

  /// Reads and checks `path`. A file that is short, foreign or altered is
  /// ``StoreError/damaged(path:detail:)``; every text is cleaned as sync cleans catalogue
  /// text (``StoredText``).
  package init(path: String) throws(StoreError) {
    self.path = path
    bytes = try FileSystem.read(path)
    guard bytes.count > Self.magic.count + 4, bytes.starts(with: Self.magic) else {
      throw Self.damaged(path, "it is not a wx atlas file")
    }
    let n = bytes.count
    checksum = UInt32(bytes[n - 4]) | UInt32(bytes[n - 3]) << 8 | UInt32(bytes[n - 2]) << 16 | UInt32(bytes[n - 1]) << 24
    guard CRC32.checksum(bytes[..<(n - 4)]) == checksum else {
      throw Self.damaged(path, "its checksum does not match (a damaged or altered file)")
    }
    do throws(MalformedValue) {
      var r = ByteReader(bytes, offset: Self.magic.count)
      for _ in 0..<(try r.count(limit: 1000)) { countries.append((try Self.text(&r), try Self.text(&r))) }
      for _ in 0..<(try r.count(limit: 100_000)) { regions.append(try Self.text(&r)) }
      for _ in 0..<(try r.count(limit: 10_000)) { zones.append(try Self.text(&r)) }
      count = try r.count(limit: 10_000_000)
      placesOffset = r.offset
    } catch {
      throw Self.damaged(path, "its tables are unreadable")
    }
  }

  /// Shipped data that is damaged: no repair of the state folder restores it.
  static func damaged(_ path: String, _ detail: String) -> StoreError {
    .unusable(path: path, reason: "it is damaged: \(detail)", remedy: .reinstall)
  }

  /// The CRC-32 `path` ends with (its last four bytes), read without the rest: whether a
  /// store was built from this file. nil when it cannot be read.
  package static func checksum(of path: String) -> UInt32? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_size > 4 else { return nil }
    var crc: UInt32 = 0
    guard pread(fd, &crc, 4, off_t(st.st_size - 4)) == 4 else { return nil }
    return UInt32(littleEndian: crc)
  }

  /// Calls `body` with every place, in the file's order (largest first).
  package func forEach(_ body: (Entry) throws(StoreError) -> Void) throws(StoreError) {
    var r = ByteReader(bytes, offset: placesOffset)
    for position in 0..<count {
      let entry: Entry
      do throws(MalformedValue) {
        let id = Int(try r.count(limit: Int(Int32.max)))
        let name = try Self.text(&r)
        let country = try r.count(limit: countries.count - 1)
        let region = try r.count(limit: regions.count)
        let zone = try r.count(limit: zones.count - 1)
        let lat = Double(try Self.zigzag(&r)) / 100_000
        let lon = Double(try Self.zigzag(&r)) / 100_000
        let population = try r.count(limit: Int(Int32.max))
        let state = try Self.text(&r)
        var alternates: [String] = []
        for _ in 0..<(try r.count(limit: 1000)) { alternates.append(try Self.text(&r)) }
        guard !name.isEmpty, abs(lat) <= 90, abs(lon) <= 180 else { throw MalformedValue() }
        entry = Entry(
          place: Place(
            position: position, geonameID: id, name: name, countryCode: countries[country].code,
            country: countries[country].name, region: region == 0 ? nil : regions[region - 1],
            stateCode: state.isEmpty ? nil : state, latitude: lat, longitude: lon, population: population,
            timeZone: zones[zone]),
          alternateNames: alternates.filter { !$0.isEmpty })
      } catch {
        throw .damaged(path: path, detail: "place \(position + 1) is unreadable")
      }
      try body(entry)
    }
    guard r.offset == bytes.count - 4 else { throw .damaged(path: path, detail: "it has bytes past its last place") }
  }

  /// Calls `body` with every place's name (cleaned as stored), country (its number: see
  /// ``country(_:)``) and coordinates, in the file's order, decoding nothing else (the atlas
  /// links' pass over every place: ``AtlasLinker``). The same checks as ``forEach(_:)``.
  func forEachSpot(_ body: (_ name: String, _ country: Int, _ latitude: Double, _ longitude: Double) -> Void)
    throws(StoreError)
  {
    var r = ByteReader(bytes, offset: placesOffset)
    for position in 0..<count {
      do throws(MalformedValue) {
        _ = try r.count(limit: Int(Int32.max))
        let name = try Self.text(&r)
        let country = try r.count(limit: countries.count - 1)
        _ = try r.count(limit: regions.count)
        _ = try r.count(limit: zones.count - 1)
        let lat = Double(try Self.zigzag(&r)) / 100_000
        let lon = Double(try Self.zigzag(&r)) / 100_000
        _ = try r.count(limit: Int(Int32.max))
        _ = try r.bytes()
        for _ in 0..<(try r.count(limit: 1000)) { _ = try r.bytes() }
        guard !name.isEmpty, abs(lat) <= 90, abs(lon) <= 180 else { throw MalformedValue() }
        body(name, country, lat, lon)
      } catch {
        throw .damaged(path: path, detail: "place \(position + 1) is unreadable")
      }
    }
    guard r.offset == bytes.count - 4 else { throw .damaged(path: path, detail: "it has bytes past its last place") }
  }

  /// Country number `n`'s code and name (``forEachSpot(_:)``).
  func country(_ n: Int) -> (code: String, name: String) { countries[n] }

  /// How many countries the file names.
  var countryCount: Int { countries.count }

  /// A string, cleaned as stored text is; too long is malformed.
  private static func text(_ r: inout ByteReader) throws(MalformedValue) -> String {
    do { return try StoredText.clean(try r.string()) } catch { throw MalformedValue() }
  }

  private static func zigzag(_ r: inout ByteReader) throws(MalformedValue) -> Int {
    let z = try r.varint()
    return Int(z >> 1) ^ -Int(z & 1)
  }
}
