#if canImport(Glibc)
  import Glibc
#endif

/// The city search index: a burst trie over folded names, stored in the catalogue file.
///
/// ## Layout
/// Two sorted arrays of entries are stored in blocks of 64 (`n`+block, `w`+block):
/// - the **name array**: one entry per city, keyed by its folded name;
/// - the **word array**: one entry per later word of a name ("york" for New York,
///   "salem" for Winston-Salem, "chi minh city" and "minh city" and "city" for Ho Chi Minh City).
///
/// Both are sorted by (folded key bytes, city rank) where the rank orders cities by folded
/// name, then country, then catalogue position. Every prefix therefore matches one
/// contiguous range in each array.
///
/// Trie nodes (`t` + folded prefix bytes) are stored only for prefixes that match more than
/// ``burstThreshold`` entries; each holds its two ranges, and the ranges of its children
/// (one per next byte). A lookup fetches the node of the whole prefix, or walks down from the
/// root to the deepest stored ancestor (one fetch per stored level) and then reads the
/// child's small range (at most ``burstThreshold`` entries, one or two blocks) to narrow it.
/// The page itself costs one block per 64 entries plus one city block per 16 cities:
/// nothing is ever scanned and the index is never loaded whole.
///
/// ## Ranking
/// Name-start matches first, then later-word matches, each in folded-name order (then
/// country). A city matched both ways, or by two of its words ("Baden-Baden"), is listed
/// once: each word entry records its *shadow*, the longest prefix it shares with the
/// name or an earlier word, and is skipped for queries no longer than that.
package enum CityIndex {
  package static let blockSize = 64
  package static let burstThreshold = 32

  package struct Entry: Equatable, Sendable {
    package var key: [UInt8]
    /// Bytes this (word) entry shares with an earlier start of the same name; 0 for names.
    package var shadow: Int
    /// The city's catalogue position.
    package var ref: Int
  }

  /// A prefix's matches: ranges in both arrays and how many word entries are duplicates.
  package struct Match: Equatable, Sendable {
    package var names: Range<Int>
    package var words: Range<Int>
    package var duplicates: Int
    package var total: Int { names.count + words.count - duplicates }
    package static let none = Match(names: 0..<0, words: 0..<0, duplicates: 0)
  }

  // MARK: Building

  /// Folded names end to end, the way the builder keeps them: name `i` is
  /// `bytes[start(i)..<ends[i]]` (a byte each plus 4, instead of an array each).
  package struct PackedNames: Sendable {
    package var bytes: [UInt8] = []
    package var ends: [UInt32] = []
    package init() {}
    package var count: Int { ends.count }
    package func start(_ i: Int) -> Int { i == 0 ? 0 : Int(ends[i - 1]) }
    package mutating func append(_ key: [UInt8]) {
      bytes.append(contentsOf: key)
      ends.append(UInt32(bytes.count))
    }
  }

  /// A later word of a name: 8 bytes (its key is the end of the name's bytes).
  private struct Word {
    var city: Int32
    var start: UInt16
    var shadow: UInt16
  }

  /// One sorted array, read through an accessor: (key bytes, shadow, city position).
  private struct Entries {
    let count: Int
    let at: (Int) -> (key: UnsafeBufferPointer<UInt8>, shadow: Int, ref: Int)
  }

  /// Sorted arrays and nodes for the cities whose folded names are `packed`, delivered
  /// through `store`. `countryRanks[i]` is the place of city `i`'s folded country in byte
  /// order among the catalogue's countries (equal names sort by it); `wordStarts(i)` gives the
  /// offsets in name `i` where its later words start (``Fold/wordStarts(of:)``). Returns the
  /// number of word entries.
  ///
  /// Memory: besides `packed`, 8 bytes a city (its rank and its place in name order) and
  /// 8 bytes a later word; keys are never copied out of `packed`.
  package static func build(
    names packed: PackedNames, countryRanks: [UInt32], wordStarts: (Int) -> ArraySlice<UInt16>,
    store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) -> Int {
    try packed.bytes.withUnsafeBufferPointer { (arena) throws(StoreError) -> Int in
      let count = packed.count
      func key(_ i: Int32, from offset: Int = 0) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: arena[(packed.start(Int(i)) + offset)..<Int(packed.ends[Int(i)])])
      }
      // Rank cities by (folded name, folded country, position).
      var byName = Array(0..<Int32(count))
      byName.sort { a, b in
        let c = compare(key(a), key(b))
        if c != 0 { return c < 0 }
        let (x, y) = (countryRanks[Int(a)], countryRanks[Int(b)])
        if x != y { return x < y }
        return a < b
      }
      var rank = [Int32](repeating: 0, count: count)
      for (r, i) in byName.enumerated() { rank[Int(i)] = Int32(r) }

      var words: [Word] = []
      words.reserveCapacity((0..<count).reduce(0) { $0 + wordStarts($1).count })
      for i in 0..<Int32(count) {
        let name = key(i)
        var earlier = [0]
        for start in wordStarts(Int(i)) {
          var shadow = 0
          for e in earlier {
            shadow = max(shadow, commonPrefix(name[e...], name[Int(start)...]))
          }
          words.append(Word(city: i, start: start, shadow: UInt16(clamping: shadow)))
          earlier.append(Int(start))
        }
      }
      words.sort { a, b in
        let c = compare(key(a.city, from: Int(a.start)), key(b.city, from: Int(b.start)))
        return c != 0 ? c < 0 : rank[Int(a.city)] < rank[Int(b.city)]
      }

      let names = Entries(count: count) { r in (key(byName[r]), 0, Int(byName[r])) }
      let wordEntries = Entries(count: words.count) { k in
        (key(words[k].city, from: Int(words[k].start)), Int(words[k].shadow), Int(words[k].city))
      }
      try storeBlocks(tag: "n", names, store)
      try storeBlocks(tag: "w", wordEntries, store)
      var prefix: [UInt8] = []
      try buildNode(depth: 0, prefix: &prefix, names: names, words: wordEntries, n: 0..<count, w: 0..<words.count, store)
      return words.count
    }
  }

  private static func storeBlocks(
    tag: Character, _ entries: Entries, _ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    var b = 0
    while b * blockSize < entries.count {
      var w = ByteWriter(capacity: blockSize * 16)
      let slice = (b * blockSize)..<min(entries.count, (b + 1) * blockSize)
      w.varint(UInt64(slice.count))
      for k in slice {
        let e = entries.at(k)
        w.bytes(Array(e.key))
        w.varint(UInt64(e.shadow))
        w.varint(UInt64(e.ref))
      }
      try store(CatalogueKey.block(tag, b), Envelope.seal(.entryBlock, w.bytes))
      b += 1
    }
  }

  private static func buildNode(
    depth: Int, prefix: inout [UInt8], names: Entries, words: Entries, n: Range<Int>, w: Range<Int>,
    _ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    var out = ByteWriter(capacity: 64)
    out.varint(UInt64(n.lowerBound))
    out.varint(UInt64(n.upperBound))
    out.varint(UInt64(w.lowerBound))
    out.varint(UInt64(w.upperBound))
    var duplicates = 0
    for k in w where words.at(k).shadow >= depth && depth > 0 { duplicates += 1 }
    out.varint(UInt64(duplicates))

    // Children: group both ranges by the byte at `depth` (entries that end here come first).
    var i = n.lowerBound
    while i < n.upperBound && names.at(i).key.count == depth { i += 1 }
    var j = w.lowerBound
    while j < w.upperBound && words.at(j).key.count == depth { j += 1 }
    var children: [(UInt8, Range<Int>, Range<Int>)] = []
    while i < n.upperBound || j < w.upperBound {
      let bn: UInt8? = i < n.upperBound ? names.at(i).key[depth] : nil
      let bw: UInt8? = j < w.upperBound ? words.at(j).key[depth] : nil
      let byte = min(bn ?? 0xFF, bw ?? 0xFF)
      let i0 = i
      while i < n.upperBound && names.at(i).key[depth] == byte { i += 1 }
      let j0 = j
      while j < w.upperBound && words.at(j).key[depth] == byte { j += 1 }
      children.append((byte, i0..<i, j0..<j))
    }
    out.varint(UInt64(children.count))
    for (byte, cn, cw) in children {
      out.u8(byte)
      out.varint(UInt64(cn.lowerBound))
      out.varint(UInt64(cn.upperBound))
      out.varint(UInt64(cw.lowerBound))
      out.varint(UInt64(cw.upperBound))
    }
    try store([UInt8(ascii: "t")] + prefix, Envelope.seal(.trieNode, out.bytes))

    for (byte, cn, cw) in children where cn.count + cw.count > burstThreshold {
      prefix.append(byte)
      try buildNode(depth: depth + 1, prefix: &prefix, names: names, words: words, n: cn, w: cw, store)
      prefix.removeLast()
    }
  }

  /// Byte-wise comparison: negative, zero or positive.
  package static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
    a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in compare(pa, pb) } }
  }

  static func compare(_ pa: UnsafeBufferPointer<UInt8>, _ pb: UnsafeBufferPointer<UInt8>) -> Int {
    let n = min(pa.count, pb.count)
    if n > 0 {
      let c = memcmp(pa.baseAddress!, pb.baseAddress!, n)
      if c != 0 { return Int(c) }
    }
    return pa.count - pb.count
  }

  private static func commonPrefix(_ a: Slice<UnsafeBufferPointer<UInt8>>, _ b: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
    var k = 0
    var ia = a.startIndex
    var ib = b.startIndex
    while ia < a.endIndex && ib < b.endIndex && a[ia] == b[ib] {
      k += 1
      ia += 1
      ib += 1
    }
    return k
  }
}
