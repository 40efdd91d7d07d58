/// The catalogue city each atlas place is, worked out as a sync writes the catalogue and
/// stored beside its records, so a search lists a page of places with their weather without
/// looking each one's name up in the catalogue (at a million cities that was 3.65 M of
/// `wx search par`'s 9.7 M instructions).
///
/// A place's city is the one ``PlaceFinder/nearestCity(named:country:latitude:longitude:)``
/// finds: of the place's own name (folded), its country (``PlaceFinder/sameCountry(_:name:code:lines:version:)``),
/// nearest within ``PlaceFinder/sameTown``, the first in catalogue order at equal distance.
/// Links name places by position, which is their order in the `atlas.bin` they were worked
/// out from; a reader uses them only with an atlas built from that file (its CRC-32 and
/// count), and looks names up as before otherwise.
///
/// Layout in the catalogue store: `L` (head) and `L` + block number (big-endian, 4 bytes),
/// both ``Envelope/Kind/atlasLinks``. Head: format, the data's CRC-32, its place count, the
/// fold version, the number of links and of blocks, then each block's first position (as
/// deltas). Block: its count (at most ``perBlock``), then each link as the position's delta from the one before
/// and the city's catalogue position, positions ascending.
package enum AtlasLinks {
  /// Bumped when the layout changes, and when the rule does (the same-country rule or the
  /// country table it reads, ``PlaceFinder/sameCountry(_:name:code:lines:version:)``): links
  /// of another format are not read, and the names are looked up until the next sync.
  package static let format = 2
  package static let perBlock = 256
  package static let head: [UInt8] = [UInt8(ascii: "L")]
  /// Catalogues smaller than this get no links: a search lists their matches whole, and the
  /// sync does not read the atlas data for nothing (it takes 0.3 s).
  package static let threshold = 1_000

  package struct Head: Equatable, Sendable {
    package var dataChecksum: UInt32
    package var places: Int
    package var foldVersion: Int
    package var links: Int
    package var firsts: [Int]

    func encoded() -> [UInt8] {
      var w = ByteWriter(capacity: 32 + firsts.count * 3)
      w.varint(UInt64(AtlasLinks.format))
      w.u32(dataChecksum)
      w.varint(UInt64(places))
      w.varint(UInt64(foldVersion))
      w.varint(UInt64(links))
      w.varint(UInt64(firsts.count))
      var last = 0
      for f in firsts {
        w.varint(UInt64(f - last))
        last = f
      }
      return w.bytes
    }

    init(dataChecksum: UInt32, places: Int, foldVersion: Int, links: Int, firsts: [Int]) {
      self.dataChecksum = dataChecksum
      self.places = places
      self.foldVersion = foldVersion
      self.links = links
      self.firsts = firsts
    }

    /// Throws unless the head is whole and its blocks' first positions ascend within the
    /// atlas's places.
    init(decoding r: inout ByteReader) throws(MalformedValue) {
      guard try r.count() == AtlasLinks.format else { throw MalformedValue() }
      dataChecksum = try r.u32()
      places = try r.count()
      foldVersion = try r.count(limit: 1000)
      links = try r.count(limit: places)
      let blocks = try r.count(limit: places)
      guard blocks == (links + AtlasLinks.perBlock - 1) / AtlasLinks.perBlock else { throw MalformedValue() }
      var firsts: [Int] = []
      firsts.reserveCapacity(blocks)
      var last = 0
      for k in 0..<blocks {
        let d = try r.count(limit: places)
        guard k == 0 || d > 0 else { throw MalformedValue() }
        last += d
        guard last < places else { throw MalformedValue() }
        firsts.append(last)
      }
      guard r.isAtEnd else { throw MalformedValue() }
      self.firsts = firsts
    }
  }

  /// Reads a block of a catalogue of `cities` link by link, each checked (positions ascending
  /// from the head's first for it, below `places`), calling `body` with each (position, city)
  /// until it returns false; a block read to its end must end there.
  static func scanBlock(
    _ r: inout ByteReader, first: Int, places: Int, cities: Int, _ body: (_ position: Int, _ city: Int) -> Bool
  ) throws(MalformedValue) {
    let n = try r.count(limit: perBlock)
    guard n > 0 else { throw MalformedValue() }
    var position = -1
    for k in 0..<n {
      let d = try r.count(limit: places)
      guard k == 0 || d > 0 else { throw MalformedValue() }
      position = k == 0 ? d : position + d
      let city = try r.count(limit: cities)
      guard position < places, city < cities, k > 0 || position == first else { throw MalformedValue() }
      if !body(position, city) { return }
    }
    guard r.isAtEnd else { throw MalformedValue() }
  }

  /// The city linked to `position` in a block (``scanBlock(_:first:places:cities:_:)``'s
  /// layout), or nil: read to the position, the cities before it skipped unread (`wx search`
  /// asks for a page's twenty places, each in a block of 256 links: decoding every link up to
  /// it was 6 % of `wx search par` at a million cities). The positions read are checked as
  /// the scan checks them, and so is the city returned; the cities skipped are not (the
  /// block's CRC-32 was, and `wx doctor` decodes every link).
  static func city(at position: Int, _ r: ByteReader, first: Int, places: Int, cities: Int) throws(MalformedValue) -> Int? {
    try r.buffer.withUnsafeBufferPointer { (b) throws(MalformedValue) -> Int? in
      let end = b.count
      var i = r.offset
      // A varint at `i`, inline: a one-byte delta is one comparison.
      @inline(__always) func varint() throws(MalformedValue) -> Int {
        guard i < end else { throw MalformedValue() }
        let c = b[i]
        i += 1
        if c < 0x80 { return Int(c) }
        var v = Int(c & 0x7F)
        var shift = 7
        while i < end && shift < 63 {
          let d = b[i]
          i += 1
          v |= Int(d & 0x7F) << shift
          if d < 0x80 { return v }
          shift += 7
        }
        throw MalformedValue()
      }
      let n = try varint()
      guard n > 0 && n <= perBlock else { throw MalformedValue() }
      var at = try varint()
      guard at == first, at < places else { throw MalformedValue() }
      var k = 0
      while true {
        if at >= position {
          guard at == position else { return nil }
          let city = try varint()
          guard city < cities else { throw MalformedValue() }
          return city
        }
        while i < end && b[i] >= 0x80 { i += 1 }  // the city, unread
        i += 1
        k += 1
        guard k < n else { return nil }
        let d = try varint()
        guard d > 0, d < places - at else { throw MalformedValue() }  // checked before it is added
        at += d
      }
    }
  }

  /// A block's (position, city) links, whole (``scanBlock(_:first:places:cities:_:)``).
  static func decodeBlock(_ r: inout ByteReader, first: Int, places: Int, cities: Int) throws(MalformedValue) -> [(
    position: Int, city: Int
  )] {
    var out: [(position: Int, city: Int)] = []
    try scanBlock(&r, first: first, places: places, cities: cities) { position, city in
      out.append((position, city))
      return true
    }
    return out
  }

  /// The head and blocks of `links` (position ascending), as stored.
  static func encode(_ links: [(position: Int, city: Int)], dataChecksum: UInt32, places: Int, foldVersion: Int)
    -> (head: [UInt8], blocks: [[UInt8]])
  {
    var blocks: [[UInt8]] = []
    var firsts: [Int] = []
    var start = 0
    while start < links.count {
      let part = links[start..<min(links.count, start + perBlock)]
      var w = ByteWriter(capacity: part.count * 5 + 4)
      w.varint(UInt64(part.count))
      var last = 0
      for (k, link) in zip(part.indices, part) {
        w.varint(UInt64(k == start ? link.position : link.position - last))
        w.varint(UInt64(link.city))
        last = link.position
      }
      firsts.append(part.first!.position)
      blocks.append(Envelope.seal(.atlasLinks, w.bytes))
      start += perBlock
    }
    let head = Head(dataChecksum: dataChecksum, places: places, foldVersion: foldVersion, links: links.count, firsts: firsts)
    return (Envelope.seal(.atlasLinks, head.encoded()), blocks)
  }
}
