import Glibc

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
    /// The city's country as stored, for name entries read with their country block (`k` +
    /// the name block's number), so resolving "Name, Country" reads no record block but the
    /// answer's; nil for word entries and in catalogues written before country blocks.
    package var country: [UInt8]? = nil
  }

  /// A prefix's matches: ranges in both arrays and how many word entries are duplicates.
  package struct Match: Equatable, Sendable {
    package var names: Range<Int>
    package var words: Range<Int>
    package var duplicates: Int
    package var total: Int { names.count + words.count - duplicates }
    package static let none = Match(names: 0..<0, words: 0..<0, duplicates: 0)
  }

  // MARK: Building (fed by ``CityIndexBuilder``, a batch of first bytes at a time)

  /// A child of a trie node: the next byte and its ranges in the name and word arrays.
  package typealias Child = (byte: UInt8, names: Range<Int>, words: Range<Int>)

  /// Byte strings end to end: string `i` is `bytes[range(i)]` (its bytes and 4, not an array
  /// each).
  package struct PackedBytes {
    package private(set) var bytes: [UInt8] = []
    package private(set) var ends: [UInt32] = []
    package init(reserving count: Int = 0) { ends.reserveCapacity(count) }
    package var count: Int { ends.count }
    package mutating func append(_ b: some Collection<UInt8>) {
      bytes.append(contentsOf: b)
      ends.append(UInt32(bytes.count))
    }
    package func range(_ i: Int) -> Range<Int> { (i == 0 ? 0 : Int(ends[i - 1]))..<Int(ends[i]) }
  }

  /// The entries of a batch of first bytes, in no order: each name with its city's country
  /// (as stored), position and country rank; each later word as the whole name's key with
  /// where the word starts in it, its shadow, and its city's position and country rank.
  package struct Batch {
    package var names: PackedBytes
    package var countries: PackedBytes
    package var namePosition: [Int32] = []
    package var nameRank: [UInt32] = []
    package var wholeNames: PackedBytes
    package var wordStart: [UInt16] = []
    package var wordShadow: [UInt16] = []
    package var wordPosition: [Int32] = []
    package var wordRank: [UInt32] = []

    /// Room for this many name and word entries.
    package init(names n: Int, words w: Int) {
      names = PackedBytes(reserving: n)
      countries = PackedBytes(reserving: n)
      wholeNames = PackedBytes(reserving: w)
      namePosition.reserveCapacity(n)
      nameRank.reserveCapacity(n)
      wordStart.reserveCapacity(w)
      wordShadow.reserveCapacity(w)
      wordPosition.reserveCapacity(w)
      wordRank.reserveCapacity(w)
    }
  }

  /// One sorted array of a batch, read through an accessor: (key bytes, shadow, city position).
  private struct Entries {
    let count: Int
    let at: (Int) -> (key: UnsafeBufferPointer<UInt8>, shadow: Int, ref: Int)
  }

  /// Streams one sorted array out in blocks of ``blockSize`` entries (`n`+block, `w`+block).
  package struct BlockWriter {
    let tag: Character
    /// Whether a country block (`k` + block number) goes beside each block.
    let countries: Bool
    private var body: [UInt8] = []
    private var countryBody: [UInt8] = []
    private var inBlock = 0
    private var number = 0
    package init(tag: Character, countries: Bool = false) {
      self.tag = tag
      self.countries = countries
    }

    fileprivate mutating func add(
      _ key: UnsafeBufferPointer<UInt8>, shadow: Int, ref: Int, country: UnsafeBufferPointer<UInt8>? = nil,
      _ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
    ) throws(StoreError) {
      var w = ByteWriter(capacity: key.count + 24)
      w.varint(UInt64(key.count))
      w.raw(key)
      w.varint(UInt64(shadow))
      w.varint(UInt64(ref))
      body.append(contentsOf: w.bytes)
      if countries {
        var c = ByteWriter(capacity: 24)
        let name = country ?? UnsafeBufferPointer(start: nil, count: 0)
        c.varint(UInt64(name.count))
        c.raw(name)
        countryBody.append(contentsOf: c.bytes)
      }
      inBlock += 1
      if inBlock == blockSize { try finish(store) }
    }

    /// Stores the block being filled, if it holds any entry.
    package mutating func finish(_ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void) throws(StoreError) {
      guard inBlock > 0 else { return }
      var w = ByteWriter(capacity: body.count + 2)
      w.varint(UInt64(inBlock))
      w.raw(body)
      try store(CatalogueKey.block(tag, number), Envelope.seal(.entryBlock, w.bytes))
      if countries {
        var c = ByteWriter(capacity: countryBody.count + 2)
        c.varint(UInt64(inBlock))
        c.raw(countryBody)
        try store(CatalogueKey.block("k", number), Envelope.seal(.countryBlock, c.bytes))
        countryBody.removeAll(keepingCapacity: true)
      }
      body.removeAll(keepingCapacity: true)
      inBlock = 0
      number += 1
    }
  }

  /// Sorts one batch (every entry whose key starts with one of a run of consecutive bytes),
  /// appends its entries to both arrays' blocks, stores the trie nodes below its first bytes
  /// and adds those bytes to the root's children. `nBase` and `wBase` are the number of
  /// entries of earlier batches. Returns the batch's numbers of name and word entries.
  ///
  /// Names sort by (folded name, rank of the folded country, position); words by (word,
  /// then their city's order as a name).
  package static func storeBatch(
    _ batch: Batch, nBase: Int, wBase: Int,
    nameBlocks: inout BlockWriter, wordBlocks: inout BlockWriter, rootChildren: inout [Child],
    _ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) -> (names: Int, words: Int) {
    try batch.names.bytes.withUnsafeBufferPointer { (nk) throws(StoreError) -> (names: Int, words: Int) in
      try batch.wholeNames.bytes.withUnsafeBufferPointer { (wk) throws(StoreError) -> (names: Int, words: Int) in
        func name(_ i: Int32) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: nk[batch.names.range(Int(i))]) }
        func whole(_ k: Int32) -> UnsafeBufferPointer<UInt8> {
          UnsafeBufferPointer(rebasing: wk[batch.wholeNames.range(Int(k))])
        }
        func word(_ k: Int32) -> UnsafeBufferPointer<UInt8> {
          UnsafeBufferPointer(rebasing: whole(k)[Int(batch.wordStart[Int(k)])...])
        }
        var byName = Array(0..<Int32(batch.names.count))
        byName.sort { a, b in
          let c = compare(name(a), name(b))
          if c != 0 { return c < 0 }
          let (x, y) = (batch.nameRank[Int(a)], batch.nameRank[Int(b)])
          return x != y ? x < y : batch.namePosition[Int(a)] < batch.namePosition[Int(b)]
        }
        var byWord = Array(0..<Int32(batch.wholeNames.count))
        byWord.sort { a, b in
          var c = compare(word(a), word(b))
          if c != 0 { return c < 0 }
          c = compare(whole(a), whole(b))
          if c != 0 { return c < 0 }
          let (x, y) = (batch.wordRank[Int(a)], batch.wordRank[Int(b)])
          return x != y ? x < y : batch.wordPosition[Int(a)] < batch.wordPosition[Int(b)]
        }
        let names = Entries(count: byName.count) { r in (name(byName[r]), 0, Int(batch.namePosition[Int(byName[r])])) }
        let words = Entries(count: byWord.count) { r in
          let k = Int(byWord[r])
          return (word(byWord[r]), Int(batch.wordShadow[k]), Int(batch.wordPosition[k]))
        }
        try batch.countries.bytes.withUnsafeBufferPointer { (nc) throws(StoreError) in
          for r in 0..<names.count {
            let e = names.at(r)
            let country = UnsafeBufferPointer(rebasing: nc[batch.countries.range(Int(byName[r]))])
            try nameBlocks.add(e.key, shadow: e.shadow, ref: e.ref, country: country, store)
          }
        }
        for r in 0..<words.count {
          let e = words.at(r)
          try wordBlocks.add(e.key, shadow: e.shadow, ref: e.ref, store)
        }
        // The batch's part of the root: its first bytes (empty names come first, in no child).
        let children = Self.children(depth: 0, names: names, words: words, n: 0..<names.count, w: 0..<words.count)
        rootChildren += children.map { shifted($0, nBase, wBase) }
        for (byte, cn, cw) in children where cn.count + cw.count > burstThreshold {
          var prefix = [byte]
          try buildNode(depth: 1, prefix: &prefix, names: names, words: words, n: cn, w: cw, nBase: nBase, wBase: wBase, store)
        }
        return (names.count, words.count)
      }
    }
  }

  /// `child` with its ranges moved from a batch's indices to the whole arrays'.
  private static func shifted(_ child: Child, _ nBase: Int, _ wBase: Int) -> Child {
    (
      child.byte, (child.names.lowerBound + nBase)..<(child.names.upperBound + nBase),
      (child.words.lowerBound + wBase)..<(child.words.upperBound + wBase)
    )
  }

  /// A node's ranges `n` and `w` grouped by the byte at `depth` (entries that end at `depth`
  /// belong to no child).
  private static func children(depth: Int, names: Entries, words: Entries, n: Range<Int>, w: Range<Int>) -> [Child] {
    var i = n.lowerBound
    while i < n.upperBound && names.at(i).key.count == depth { i += 1 }
    var j = w.lowerBound
    while j < w.upperBound && words.at(j).key.count == depth { j += 1 }
    var children: [Child] = []
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
    return children
  }

  /// Stores the node of `prefix`: its ranges, its duplicate count and its children's ranges.
  package static func storeNode(
    prefix: [UInt8], n: Range<Int>, w: Range<Int>, duplicates: Int, children: [Child],
    _ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    var out = ByteWriter(capacity: 64)
    out.varint(UInt64(n.lowerBound))
    out.varint(UInt64(n.upperBound))
    out.varint(UInt64(w.lowerBound))
    out.varint(UInt64(w.upperBound))
    out.varint(UInt64(duplicates))
    out.varint(UInt64(children.count))
    for (byte, cn, cw) in children {
      out.u8(byte)
      out.varint(UInt64(cn.lowerBound))
      out.varint(UInt64(cn.upperBound))
      out.varint(UInt64(cw.lowerBound))
      out.varint(UInt64(cw.upperBound))
    }
    try store([UInt8(ascii: "t")] + prefix, Envelope.seal(.trieNode, out.bytes))
  }

  /// Stores the node of `prefix` (at `depth` ≥ 1) and, below it, every child matching more
  /// than ``burstThreshold`` entries. Ranges index the batch; stored ones add the bases.
  private static func buildNode(
    depth: Int, prefix: inout [UInt8], names: Entries, words: Entries, n: Range<Int>, w: Range<Int>,
    nBase: Int, wBase: Int, _ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    var duplicates = 0
    for k in w where words.at(k).shadow >= depth { duplicates += 1 }
    let children = children(depth: depth, names: names, words: words, n: n, w: w)
    let node = shifted((0, n, w), nBase, wBase)
    try storeNode(
      prefix: prefix, n: node.names, w: node.words, duplicates: duplicates,
      children: children.map { shifted($0, nBase, wBase) }, store)
    for (byte, cn, cw) in children where cn.count + cw.count > burstThreshold {
      prefix.append(byte)
      try buildNode(
        depth: depth + 1, prefix: &prefix, names: names, words: words, n: cn, w: cw, nBase: nBase, wBase: wBase, store)
      prefix.removeLast()
    }
  }

  /// Byte-wise comparison: negative, zero or positive.
  /// FNV-1a, 64 bits: the index cache's keys and the atlas links' names (``AtlasLinker``).
  static func fnv1a(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return h
  }

  /// Each country number's rank in the order cities of one name are listed: by folded
  /// country (`keys`, by number), spellings that fold alike in the order first met (their
  /// numbers). The index builder and the atlas links (``AtlasLinker``) break ties so.
  package static func countryRanks(_ keys: [[UInt8]]) -> [UInt32] {
    var ranks = [UInt32](repeating: 0, count: keys.count)
    let byKey = keys.indices.sorted { a, b in
      let c = compare(keys[a], keys[b])
      return c != 0 ? c < 0 : a < b
    }
    for (rank, n) in byKey.enumerated() { ranks[n] = UInt32(rank) }
    return ranks
  }

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
}
