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

  /// Sorted arrays and nodes for `cities`, delivered through `store`. `wordStarts(i)` gives
  /// the offsets in `folded[i]` where its later words start (``Fold/wordStarts(of:)``).
  /// Returns the name array's city order (alphabetical by folded name, then country).
  package static func build(
    names folded: [[UInt8]], countries: [[UInt8]], wordStarts: (Int) -> [Int],
    store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) -> (nameOrder: [Int], wordEntries: Int) {
    let count = folded.count
    // Rank cities by (folded name, folded country, position).
    var byName = Array(0..<count)
    byName.sort { a, b in
      let c = compare(folded[a], folded[b])
      if c != 0 { return c < 0 }
      let d = compare(countries[a], countries[b])
      if d != 0 { return d < 0 }
      return a < b
    }
    var rank = [Int](repeating: 0, count: count)
    for (r, i) in byName.enumerated() { rank[i] = r }

    let names = byName.map { Entry(key: folded[$0], shadow: 0, ref: $0) }
    var words: [Entry] = []
    words.reserveCapacity(count)
    for i in 0..<count {
      let name = folded[i]
      var earlier = [0]
      for start in wordStarts(i) {
        let suffix = Array(name[start...])
        var shadow = 0
        for e in earlier { shadow = max(shadow, commonPrefix(name[e...], suffix[...])) }
        words.append(Entry(key: suffix, shadow: shadow, ref: i))
        earlier.append(start)
      }
    }
    words.sort { a, b in
      let c = compare(a.key, b.key)
      return c != 0 ? c < 0 : rank[a.ref] < rank[b.ref]
    }

    try storeBlocks(tag: "n", names, store)
    try storeBlocks(tag: "w", words, store)
    var prefix: [UInt8] = []
    try buildNode(depth: 0, prefix: &prefix, names: names, words: words, n: 0..<names.count, w: 0..<words.count, store)
    return (byName, words.count)
  }

  private static func storeBlocks(
    tag: Character, _ entries: [Entry], _ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    var b = 0
    while b * blockSize < entries.count {
      var w = ByteWriter(capacity: blockSize * 16)
      let slice = entries[(b * blockSize)..<min(entries.count, (b + 1) * blockSize)]
      w.varint(UInt64(slice.count))
      for e in slice {
        w.bytes(e.key)
        w.varint(UInt64(e.shadow))
        w.varint(UInt64(e.ref))
      }
      try store(CatalogueKey.block(tag, b), Envelope.seal(.entryBlock, w.bytes))
      b += 1
    }
  }

  private static func buildNode(
    depth: Int, prefix: inout [UInt8], names: [Entry], words: [Entry], n: Range<Int>, w: Range<Int>,
    _ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) {
    var out = ByteWriter(capacity: 64)
    out.varint(UInt64(n.lowerBound))
    out.varint(UInt64(n.upperBound))
    out.varint(UInt64(w.lowerBound))
    out.varint(UInt64(w.upperBound))
    var duplicates = 0
    for k in w where words[k].shadow >= depth && depth > 0 { duplicates += 1 }
    out.varint(UInt64(duplicates))

    // Children: group both ranges by the byte at `depth` (entries that end here come first).
    var i = n.lowerBound
    while i < n.upperBound && names[i].key.count == depth { i += 1 }
    var j = w.lowerBound
    while j < w.upperBound && words[j].key.count == depth { j += 1 }
    var children: [(UInt8, Range<Int>, Range<Int>)] = []
    while i < n.upperBound || j < w.upperBound {
      let bn: UInt8? = i < n.upperBound ? names[i].key[depth] : nil
      let bw: UInt8? = j < w.upperBound ? words[j].key[depth] : nil
      let byte = min(bn ?? 0xFF, bw ?? 0xFF)
      let i0 = i
      while i < n.upperBound && names[i].key[depth] == byte { i += 1 }
      let j0 = j
      while j < w.upperBound && words[j].key[depth] == byte { j += 1 }
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
    a.withUnsafeBufferPointer { pa in
      b.withUnsafeBufferPointer { pb in
        let n = min(pa.count, pb.count)
        if n > 0 {
          let c = memcmp(pa.baseAddress!, pb.baseAddress!, n)
          if c != 0 { return Int(c) }
        }
        return pa.count - pb.count
      }
    }
  }

  private static func commonPrefix(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
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

// MARK: Reading

/// Reads the index of an open catalogue file.
package struct CityIndexReader {
  let db: GDBMDatabase

  package init(database: GDBMDatabase) { db = database }

  struct Node {
    var names: Range<Int>
    var words: Range<Int>
    var duplicates: Int
    var children: [(byte: UInt8, names: Range<Int>, words: Range<Int>)]
  }

  func node(_ prefix: ArraySlice<UInt8>) throws(StoreError) -> Node? {
    guard let raw = try db.fetch([UInt8(ascii: "t")] + prefix) else { return nil }
    do throws(MalformedValue) {
      var r = try Envelope.open(.trieNode, raw)
      let names = try range(&r)
      let words = try range(&r)
      let dup = try r.count()
      let n = try r.count(limit: 256)
      var children: [(byte: UInt8, names: Range<Int>, words: Range<Int>)] = []
      children.reserveCapacity(n)
      for _ in 0..<n { children.append((try r.u8(), try range(&r), try range(&r))) }
      return Node(names: names, words: words, duplicates: dup, children: children)
    } catch {
      throw .damaged(path: db.path, detail: "search index node is unreadable")
    }
  }

  private func range(_ r: inout ByteReader) throws(MalformedValue) -> Range<Int> {
    let lo = try r.count()
    let hi = try r.count()
    guard lo <= hi else { throw MalformedValue() }
    return lo..<hi
  }

  /// The entries `range` of array `tag` (`n` or `w`).
  package func entries(_ tag: Character, _ range: Range<Int>) throws(StoreError) -> [CityIndex.Entry] {
    var out: [CityIndex.Entry] = []
    guard !range.isEmpty else { return out }
    out.reserveCapacity(range.count)
    let bs = CityIndex.blockSize
    for b in (range.lowerBound / bs)...((range.upperBound - 1) / bs) {
      let block = try self.block(tag, b)
      for (k, e) in block.enumerated() where range.contains(b * bs + k) { out.append(e) }
    }
    return out
  }

  func block(_ tag: Character, _ b: Int) throws(StoreError) -> [CityIndex.Entry] {
    guard let raw = try db.fetch(CatalogueKey.block(tag, b)) else {
      throw .damaged(path: db.path, detail: "search index block \(tag)\(b) is missing")
    }
    do throws(MalformedValue) {
      var r = try Envelope.open(.entryBlock, raw)
      let n = try r.count(limit: CityIndex.blockSize)
      var out: [CityIndex.Entry] = []
      out.reserveCapacity(n)
      for _ in 0..<n {
        let key = Array(try r.bytes())
        out.append(CityIndex.Entry(key: key, shadow: try r.count(), ref: try r.count()))
      }
      return out
    } catch {
      throw .damaged(path: db.path, detail: "search index block \(tag)\(b) is unreadable")
    }
  }

  /// Ranges matching the folded prefix `q` (non-empty).
  package func match(_ q: [UInt8]) throws(StoreError) -> CityIndex.Match {
    if let node = try node(q[...]) {
      return CityIndex.Match(names: node.names, words: node.words, duplicates: node.duplicates)
    }
    // Walk down from the root to the deepest stored ancestor; the child towards `q` is small.
    // A child has a node of its own exactly when it holds more than `burstThreshold` entries,
    // so this costs one fetch per stored level: bounded by the trie's depth, not by the length
    // of `q` (walking up from `q` cost one fetch per byte, quadratic over `resolve`'s retries).
    guard var ancestor = try node(q[..<0]) else {
      throw .damaged(path: db.path, detail: "search index root is missing")
    }
    var depth = 0
    while true {
      guard let child = ancestor.children.first(where: { $0.byte == q[depth] }) else { return .none }
      guard depth + 1 < q.count, child.names.count + child.words.count > CityIndex.burstThreshold,
        let next = try node(q[...depth])
      else { return try narrow(q, names: child.names, words: child.words) }
      ancestor = next
      depth += 1
    }
  }

  /// Filters small ranges down to the entries that start with `q`.
  private func narrow(_ q: [UInt8], names: Range<Int>, words: Range<Int>) throws(StoreError) -> CityIndex.Match {
    func sub(_ tag: Character, _ range: Range<Int>) throws(StoreError) -> (Range<Int>, Int) {
      let list = try entries(tag, range)
      var lo = -1
      var hi = -1
      var dup = 0
      for (k, e) in list.enumerated() where e.key.count >= q.count && e.key[..<q.count].elementsEqual(q) {
        if lo < 0 { lo = range.lowerBound + k }
        hi = range.lowerBound + k + 1
        if tag == "w" && e.shadow >= q.count { dup += 1 }
      }
      return lo < 0 ? (range.lowerBound..<range.lowerBound, 0) : (lo..<hi, dup)
    }
    let (n, _) = try sub("n", names)
    let (w, dup) = try sub("w", words)
    return CityIndex.Match(names: n, words: w, duplicates: dup)
  }

  /// City positions for results `offset ..< offset+limit` of `match` for a query of `queryLength` bytes.
  package func page(_ match: CityIndex.Match, queryLength: Int, offset: Int, limit: Int) throws(StoreError) -> [Int] {
    var refs: [Int] = []
    guard limit > 0 else { return refs }
    let nStart = match.names.lowerBound + offset
    if nStart < match.names.upperBound {
      let end = min(match.names.upperBound, nStart + limit)
      refs += try entries("n", nStart..<end).map(\.ref)
    }
    var remaining = limit - refs.count
    guard remaining > 0 else { return refs }
    var skip = max(0, offset - match.names.count)
    if match.duplicates == 0 {
      let start = match.words.lowerBound + skip
      if start < match.words.upperBound {
        refs += try entries("w", start..<min(match.words.upperBound, start + remaining)).map(\.ref)
      }
      return refs
    }
    // Duplicates present: walk the word range block by block, skipping them.
    let bs = CityIndex.blockSize
    var k = match.words.lowerBound
    while k < match.words.upperBound && remaining > 0 {
      let b = k / bs
      let block = try self.block("w", b)
      while k < match.words.upperBound && k / bs == b && remaining > 0 {
        let e = block[k - b * bs]
        if e.shadow < queryLength {
          if skip > 0 { skip -= 1 } else { refs.append(e.ref); remaining -= 1 }
        }
        k += 1
      }
    }
    return refs
  }
}
