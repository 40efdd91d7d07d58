/// Reading the atlas links a sync stored (``AtlasLinks``).
extension Catalogue {
  /// What the links say of one atlas place.
  package enum PlaceLink: Equatable, Sendable {
    /// The catalogue has no links for the atlas asked about: look the name up.
    case unknown
    /// The place is no catalogue city.
    case none
    /// The catalogue city at this position.
    case city(Int)
  }

  /// The catalogue city atlas place `position` is, when the catalogue's links were worked
  /// out from the data the atlas `atlas` describes was built from (its CRC-32 and count) with
  /// this catalogue's folding; else ``PlaceLink/unknown``. One block read (a head read
  /// first, once per catalogue).
  package func link(ofPlace position: Int, atlas: AtlasMeta) throws(StoreError) -> PlaceLink {
    guard let head = try readLinkHead(), head.dataChecksum == atlas.dataChecksum, head.places == atlas.count,
      head.foldVersion == meta.foldVersion
    else { return .unknown }
    var lo = 0
    var hi = head.firsts.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if head.firsts[mid] <= position { lo = mid + 1 } else { hi = mid }
    }
    guard lo > 0 else { return .none }
    // The block is read as far as the position, not decoded whole (20 places of a page are
    // in as many blocks).
    let b = lo - 1
    let r = try linkBlockReader(b)
    do throws(MalformedValue) {
      let city = try AtlasLinks.city(at: position, r, first: head.firsts[b], places: head.places, cities: meta.count)
      return city.map { .city($0) } ?? .none
    } catch {
      throw .damaged(path: path, detail: "atlas links block \(b) is unreadable")
    }
  }

  /// For `wx doctor`: the head and every block decode, and the blocks hold as many links as
  /// the head says.
  func checkLinks() throws(StoreError) {
    guard let head = try readLinkHead() else { return }
    var total = 0
    for b in head.firsts.indices { total += try readLinkBlock(b, head).count }
    guard total == head.links else { throw .damaged(path: path, detail: "the atlas links are incomplete") }
    guard try db.fetch(CatalogueKey.block("L", head.firsts.count)) == nil else {
      throw .damaged(path: path, detail: "atlas links lie past their head's count")
    }
  }

  /// Whether the catalogue holds atlas links of another format than this wx reads (another
  /// wx's, an older one's as a rule): they are not read, and each place's city is looked up
  /// by name until the next sync stores them again (`wx doctor` says so).
  package func linksOfAnotherFormat() throws(StoreError) -> Bool {
    try linkHeadRecord().map { $0.format != AtlasLinks.format } ?? false
  }

  private func readLinkHead() throws(StoreError) -> AtlasLinks.Head? {
    if let known = linkHead { return known }
    var head: AtlasLinks.Head? = nil
    // Links of another format (another wx's) are none to this one.
    if let record = try linkHeadRecord(), record.format == AtlasLinks.format {
      var r = record.reader
      do throws(MalformedValue) {
        head = try AtlasLinks.Head(decoding: &r)
      } catch {
        throw .damaged(path: path, detail: "the atlas links' head is unreadable")
      }
    }
    linkHead = .some(head)
    return head
  }

  /// The links' head record, its envelope checked: its format, and a reader at the head
  /// itself (which starts with the format, read again by ``AtlasLinks/Head``); nil without one.
  private func linkHeadRecord() throws(StoreError) -> (format: Int, reader: ByteReader)? {
    guard let raw = try db.fetch(AtlasLinks.head) else { return nil }
    do throws(MalformedValue) {
      let r = try Envelope.open(.atlasLinks, raw)
      var format = r
      return (try format.count(), r)
    } catch {
      throw .damaged(path: path, detail: "the atlas links' head is unreadable")
    }
  }

  /// Block `b`'s payload, its envelope checked (the last block read is kept).
  private func linkBlockReader(_ b: Int) throws(StoreError) -> ByteReader {
    if let kept = linkBlock, kept.number == b { return ByteReader(kept.value, offset: Envelope.headerSize) }
    guard let raw = try db.fetch(CatalogueKey.block("L", b)) else {
      throw .damaged(path: path, detail: "atlas links block \(b) is missing")
    }
    do throws(MalformedValue) {
      let r = try Envelope.open(.atlasLinks, raw)
      linkBlock = (b, raw)
      return r
    } catch {
      throw .damaged(path: path, detail: "atlas links block \(b) is unreadable")
    }
  }

  /// Block `b` decoded whole and checked: ascending from the head's first for it to below the
  /// next block's.
  private func readLinkBlock(_ b: Int, _ head: AtlasLinks.Head) throws(StoreError) -> [(position: Int, city: Int)] {
    var r = try linkBlockReader(b)
    do throws(MalformedValue) {
      let links = try AtlasLinks.decodeBlock(&r, first: head.firsts[b], places: head.places, cities: meta.count)
      if b + 1 < head.firsts.count, let last = links.last, last.position >= head.firsts[b + 1] { throw MalformedValue() }
      return links
    } catch {
      throw .damaged(path: path, detail: "atlas links block \(b) is unreadable")
    }
  }
}
