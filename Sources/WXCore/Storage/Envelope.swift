/// The frame around every value wx stores in GDBM.
///
/// GDBM has no checksums: a flipped byte inside a value goes unnoticed and a foreign or
/// half-written file can open without error. Every value therefore carries a magic byte, a
/// schema version, a kind tag and a CRC-32 of its payload, and is rejected, never printed,
/// when any of them is off.
///
/// Layout: `0xB7, schema, kind, crc32 (LE, 4 bytes), payload…`.
package enum Envelope {
  package static let magic: UInt8 = 0xB7
  /// Bumped whenever a payload layout changes; older values are then reported as foreign.
  package static let schema: UInt8 = 1
  package static let headerSize = 7

  /// What a value holds; a value read under the wrong kind is damage.
  package enum Kind: UInt8, Sendable {
    case meta = 0x4D  // M
    case city = 0x43  // C
    case trieNode = 0x54  // T
    case entryBlock = 0x45  // E
    /// The countries of a name block's entries, stored beside it (readers that predate it
    /// never ask for it, so older releases still read the catalogue).
    case countryBlock = 0x4B  // K
    case order = 0x4F  // O
    case idList = 0x49  // I
    /// A small store's list of its own keys (``SmallStore``).
    case manifest = 0x4E  // N
    case preference = 0x50  // P
    case favourite = 0x46  // F
    case aqi = 0x41  // A
    /// The world atlas (``Atlas``): its header, a block of places, a prefix's ranking.
    case atlasMeta = 0x47  // G
    case places = 0x4C  // L
    case ranking = 0x52  // R
    /// The places of one folded name, each with its record (``AtlasWriter``'s `p` records).
    case namedPlaces = 0x51  // Q
    /// GeoNames ids and their places' positions, and the index of their blocks.
    case geoNamesIDs = 0x44  // D
    /// The catalogue city each atlas place is, stored by a sync (``AtlasLinks``).
    case atlasLinks = 0x4A  // J
    /// What `wx alerts --notify` has sent (``SentAlerts``).
    case sentAlert = 0x53  // S
    /// What a small store derives from its records and keeps beside them to read a part
    /// without the whole (``SmallStore/Index``: the favourites in the order added).
    case storeIndex = 0x58  // X
  }

  /// Frames `payload` (which must not be empty: GDBM 1.23 cannot dump empty values).
  /// `version` is the schema byte: ``schema`` unless the kind versions its payload itself
  /// (city records, ``CityRecord``).
  package static func seal(_ kind: Kind, _ payload: [UInt8], version: UInt8 = schema) -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(payload.count + headerSize)
    out.append(magic)
    out.append(version)
    out.append(kind.rawValue)
    let crc = CRC32.checksum(payload)
    out.append(UInt8(truncatingIfNeeded: crc))
    out.append(UInt8(truncatingIfNeeded: crc >> 8))
    out.append(UInt8(truncatingIfNeeded: crc >> 16))
    out.append(UInt8(truncatingIfNeeded: crc >> 24))
    out.append(contentsOf: payload)
    return out
  }

  /// Checks the frame and returns a reader positioned at the payload.
  package static func open(_ kind: Kind, _ value: [UInt8]) throws(MalformedValue) -> ByteReader {
    try open(kind, value, versions: schema...schema).reader
  }

  /// Checks the frame, accepting any schema in `versions`, and returns the reader and schema.
  package static func open(_ kind: Kind, _ value: [UInt8], versions: ClosedRange<UInt8>) throws(MalformedValue)
    -> (reader: ByteReader, version: UInt8)
  {
    guard value.count > headerSize, value[0] == magic, versions.contains(value[1]), value[2] == kind.rawValue
    else { throw MalformedValue() }
    let crc = UInt32(value[3]) | UInt32(value[4]) << 8 | UInt32(value[5]) << 16 | UInt32(value[6]) << 24
    guard CRC32.checksum(value[headerSize...]) == crc else { throw MalformedValue() }
    return (ByteReader(value, offset: headerSize), value[1])
  }
}

extension Envelope.Kind {
  /// Whether values of this kind belong to a catalogue or the atlas: data wx makes again
  /// (a sync, the shipped atlas), never the only copy of the user's own.
  package var isDerived: Bool {
    switch self {
    case .meta, .city, .trieNode, .entryBlock, .countryBlock, .order, .idList, .atlasMeta, .places, .ranking, .namedPlaces,
      .geoNamesIDs, .atlasLinks:
      return true
    case .manifest, .preference, .favourite, .aqi, .sentAlert, .storeIndex: return false
    }
  }

  /// What values of this kind are, in messages ("favourites", "a catalogue").
  package var contents: String {
    switch self {
    case .preference: return "preferences"
    case .favourite: return "favourites"
    case .aqi: return "air-quality readings"
    case .sentAlert: return "alerts sent"
    case .manifest: return "a store's list of keys"
    case .storeIndex: return "a store's index"
    case .meta, .city, .trieNode, .entryBlock, .countryBlock, .order, .idList, .atlasLinks: return "a catalogue"
    case .atlasMeta, .places, .ranking, .namedPlaces, .geoNamesIDs: return "the world atlas"
    }
  }
}

extension Envelope {
  /// The kind of an intact value, whatever kind was expected; nil when the frame or CRC is off.
  package static func kind(of value: [UInt8]) -> Kind? {
    guard value.count > headerSize, value[0] == magic, let kind = Kind(rawValue: value[2]),
      (try? open(kind, value, versions: 0...255)) != nil
    else { return nil }
    return kind
  }
}
