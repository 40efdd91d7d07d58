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
    nameKeys: [UInt8], nameEnds: [UInt32], namePosition: [Int32], nameRank: [UInt32],
    nameCountries: [UInt8], nameCountryEnds: [UInt32],
    wordKeys: [UInt8], wordEnds: [UInt32], wordPosition: [Int32], wordRank: [UInt32],
    wordStart: [UInt16], wordShadow: [UInt16], nBase: Int, wBase: Int,
    nameBlocks: inout BlockWriter, wordBlocks: inout BlockWriter, rootChildren: inout [Child],
    _ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) -> (names: Int, words: Int) {
    try nameKeys.withUnsafeBufferPointer { (nk) throws(StoreError) -> (names: Int, words: Int) in
      try wordKeys.withUnsafeBufferPointer { (wk) throws(StoreError) -> (names: Int, words: Int) in
        func name(_ i: Int32) -> UnsafeBufferPointer<UInt8> {
          let start = i == 0 ? 0 : Int(nameEnds[Int(i) - 1])
          return UnsafeBufferPointer(rebasing: nk[start..<Int(nameEnds[Int(i)])])
        }
        func whole(_ k: Int32) -> UnsafeBufferPointer<UInt8> {
          let start = k == 0 ? 0 : Int(wordEnds[Int(k) - 1])
          return UnsafeBufferPointer(rebasing: wk[start..<Int(wordEnds[Int(k)])])
        }
        func word(_ k: Int32) -> UnsafeBufferPointer<UInt8> {
          UnsafeBufferPointer(rebasing: whole(k)[Int(wordStart[Int(k)])...])
        }
        var byName = Array(0..<Int32(nameEnds.count))
        byName.sort { a, b in
          let c = compare(name(a), name(b))
          if c != 0 { return c < 0 }
          if nameRank[Int(a)] != nameRank[Int(b)] { return nameRank[Int(a)] < nameRank[Int(b)] }
          return namePosition[Int(a)] < namePosition[Int(b)]
        }
        var byWord = Array(0..<Int32(wordEnds.count))
        byWord.sort { a, b in
          var c = compare(word(a), word(b))
          if c != 0 { return c < 0 }
          c = compare(whole(a), whole(b))
          if c != 0 { return c < 0 }
          if wordRank[Int(a)] != wordRank[Int(b)] { return wordRank[Int(a)] < wordRank[Int(b)] }
          return wordPosition[Int(a)] < wordPosition[Int(b)]
        }
        let names = Entries(count: byName.count) { r in (name(byName[r]), 0, Int(namePosition[Int(byName[r])])) }
        let words = Entries(count: byWord.count) { r in
          let k = byWord[r]
          return (word(k), Int(wordShadow[Int(k)]), Int(wordPosition[Int(k)]))
        }
        try nameCountries.withUnsafeBufferPointer { (nc) throws(StoreError) in
          for r in 0..<names.count {
            let e = names.at(r)
            let i = Int(byName[r])
            let start = i == 0 ? 0 : Int(nameCountryEnds[i - 1])
            let country = UnsafeBufferPointer(rebasing: nc[start..<Int(nameCountryEnds[i])])
            try nameBlocks.add(e.key, shadow: e.shadow, ref: e.ref, country: country, store)
          }
        }
        for r in 0..<words.count {
          let e = words.at(r)
          try wordBlocks.add(e.key, shadow: e.shadow, ref: e.ref, store)
        }
        // The batch's part of the root: its first bytes (empty names come first, in no child).
        let children = Self.children(depth: 0, names: names, words: words, n: 0..<names.count, w: 0..<words.count)
        for (byte, cn, cw) in children {
          rootChildren.append((byte, (cn.lowerBound + nBase)..<(cn.upperBound + nBase), (cw.lowerBound + wBase)..<(cw.upperBound + wBase)))
          if cn.count + cw.count > burstThreshold {
            var prefix = [byte]
            try buildNode(depth: 1, prefix: &prefix, names: names, words: words, n: cn, w: cw, nBase: nBase, wBase: wBase, store)
          }
        }
        return (names.count, words.count)
      }
    }
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
    try storeNode(
      prefix: prefix, n: (n.lowerBound + nBase)..<(n.upperBound + nBase),
      w: (w.lowerBound + wBase)..<(w.upperBound + wBase), duplicates: duplicates,
      children: children.map { ($0.byte, ($0.names.lowerBound + nBase)..<($0.names.upperBound + nBase), ($0.words.lowerBound + wBase)..<($0.words.upperBound + wBase)) },
      store)
    for (byte, cn, cw) in children where cn.count + cw.count > burstThreshold {
      prefix.append(byte)
      try buildNode(depth: depth + 1, prefix: &prefix, names: names, words: words, n: cn, w: cw, nBase: nBase, wBase: wBase, store)
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
}
