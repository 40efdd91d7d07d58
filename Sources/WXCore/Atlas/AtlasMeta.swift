/// What the atlas store says about itself (key `m`, written last: a store without it is
/// incomplete).
package struct AtlasMeta: Equatable, Sendable {
  /// ``AtlasWriter/version`` of the writer that built it; another is rebuilt on first use.
  package var version: Int
  package var count: Int
  /// Name entries (places and their alternate names) and later-word entries of the index.
  package var nameEntries: Int
  package var wordEntries: Int
  /// Alternate names stored (each found typed whole).
  package var alternateNames: Int
  package var foldVersion: Int
  /// The CRC-32 of the `atlas.bin` it was built from.
  package var dataChecksum: UInt32
  package var builtAt: Int64

  func encoded() -> [UInt8] {
    var w = ByteWriter()
    w.varint(UInt64(version))
    w.varint(UInt64(count))
    w.varint(UInt64(nameEntries))
    w.varint(UInt64(wordEntries))
    w.varint(UInt64(alternateNames))
    w.varint(UInt64(foldVersion))
    w.u32(dataChecksum)
    w.int(Int(builtAt))
    return w.bytes
  }

  init(
    version: Int, count: Int, nameEntries: Int, wordEntries: Int, alternateNames: Int, foldVersion: Int,
    dataChecksum: UInt32, builtAt: Int64
  ) {
    self.version = version
    self.count = count
    self.nameEntries = nameEntries
    self.wordEntries = wordEntries
    self.alternateNames = alternateNames
    self.foldVersion = foldVersion
    self.dataChecksum = dataChecksum
    self.builtAt = builtAt
  }

  init(decoding r: inout ByteReader) throws(MalformedValue) {
    version = try r.count()
    count = try r.count()
    nameEntries = try r.count()
    wordEntries = try r.count()
    alternateNames = try r.count()
    foldVersion = try r.count()
    dataChecksum = try r.u32()
    builtAt = Int64(try r.int())
    guard r.isAtEnd, foldVersion >= 1, foldVersion <= Fold.version, nameEntries <= count else { throw MalformedValue() }
  }
}

/// One page of a prefix's places, ranked: places whose own name starts with the prefix (or
/// of which it is an alternate name, typed whole), then places with a later word that does,
/// each largest first; a place found several ways is listed once, in its first class.
package struct AtlasPage: Sendable {
  package var total: Int
  /// How many of the `total` are name-start matches.
  package var nameMatches: Int
  /// The page's places, with whether each is a name-start match.
  package var places: [(place: Place, nameMatch: Bool)]
  /// The folded key that matched: the query's, or the first of its variants that matches
  /// anything (``Resolver/keys(_:insertions:)``: `o fallon` is `ofallon`).
  package var key: [UInt8] = []
}
