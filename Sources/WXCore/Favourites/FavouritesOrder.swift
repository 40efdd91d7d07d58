/// The favourites in the order they were added, kept beside their records as an index
/// (``SmallStore/Index``) so that a page of them is a few fetches: reading 10,000 records one
/// by one to sort them cost 113 M instructions, 40 times a page of 20.
///
/// A head record (`NUL order`: how many favourites, how many to a part) and the parts
/// (`NUL order/K`: the keys of favourites `K*size ..< (K+1)*size`, in order). A page reads the
/// head, the one or two parts it falls in, and its own records.
extension FavouritesStore {
  static let orderKey: [UInt8] = [0] + Array("order".utf8)
  /// Keys to an index part: 256 keys of about 20 bytes, a 5 KB record.
  static let orderPart = 256
  /// Up to this many favourites, a page reads and checks the whole store as before: it costs
  /// little, and damage anywhere in it is reported by every `wx fav`.
  static let readWholeUpTo = 100

  static func orderPartKey(_ k: Int) -> [UInt8] { orderKey + Array("/\(k)".utf8) }

  /// The store's index: the order derived from the records, and its head's count.
  package static let orderIndexing = SmallStore.Index(derive: orderIndex, listed: listed(head:))

  /// How many favourites an index head says there are, nil when `payload` is no head.
  @Sendable package static func listed(head payload: [UInt8]) -> Int? {
    var r = ByteReader(payload)
    guard let total = try? r.count(), let size = try? r.count(), size == orderPart, r.isAtEnd else { return nil }
    return total
  }

  /// The index of `records` (key → favourite): what ``SmallStore`` writes beside them.
  @Sendable static func orderIndex(_ records: [[UInt8]: [UInt8]]) -> [[UInt8]: [UInt8]] {
    var entries: [(key: [UInt8], favourite: Favourite)] = []
    entries.reserveCapacity(records.count)
    for (key, payload) in records {
      guard let f = try? Favourite(decoding: payload) else { continue }
      entries.append((key, f))
    }
    let favourites = inOrder(entries)
    var out: [[UInt8]: [UInt8]] = [:]
    var head = ByteWriter()
    head.varint(UInt64(favourites.count))
    head.varint(UInt64(orderPart))
    out[orderKey] = head.bytes
    var start = 0
    while start < favourites.count {
      let part = favourites[start..<min(start + orderPart, favourites.count)]
      var w = ByteWriter()
      w.varint(UInt64(part.count))
      for entry in part { w.bytes(entry.key) }
      out[orderPartKey(start / orderPart)] = w.bytes
      start += orderPart
    }
    return out
  }

  /// Favourites `offset ..< offset+limit` in the order they were added, and how many there
  /// are. From the index when the store has one and holds more than ``readWholeUpTo``;
  /// otherwise, or when any part of it does not read, from the whole store (``list()``,
  /// which reports what is wrong).
  package func page(offset: Int, limit: Int) throws(StoreError) -> (total: Int, items: [Favourite]) {
    if let page = try indexedPage(offset: offset, limit: limit) { return page }
    let all = try list()
    return (all.count, Array(all.dropFirst(offset).prefix(limit)))
  }

  private func indexedPage(offset: Int, limit: Int) throws(StoreError) -> (total: Int, items: [Favourite])? {
    try store.part { (part) throws(StoreError) -> (total: Int, items: [Favourite])? in
      guard let head = try part.index(Self.orderKey) else { return nil }
      guard let total = Self.listed(head: head), total > Self.readWholeUpTo else { return nil }
      let size = Self.orderPart
      guard offset < total, limit > 0 else { return (total, []) }
      let end = min(total, offset + limit)
      var items: [Favourite] = []
      for k in (offset / size)...((end - 1) / size) {
        guard let payload = try part.index(Self.orderPartKey(k)) else { return nil }
        var p = ByteReader(payload)
        guard let n = try? p.count(), n == min(size, total - k * size) else { return nil }
        for i in 0..<n {
          guard let key = try? p.bytes() else { return nil }
          guard (offset..<end).contains(k * size + i) else { continue }
          guard let record = try part.record(Array(key)), let f = try? Favourite(decoding: record) else { return nil }
          items.append(f)
        }
        guard p.isAtEnd else { return nil }
      }
      return (total, items)
    }
  }
}
