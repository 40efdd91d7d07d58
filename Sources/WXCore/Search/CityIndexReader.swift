import Glibc

/// Reads the index of an open catalogue file.
package struct CityIndexReader {
  let db: GDBMDatabase
  /// What earlier readers of the same read-only handle decoded (nil for a handle that writes).
  private let cache: CityIndexCache?

  package init(database: GDBMDatabase) {
    db = database
    cache = database.indexCache
  }

  struct Node {
    var names: Range<Int>
    var words: Range<Int>
    var duplicates: Int
    var children: [Child]
  }

  /// A struct, not a tuple: an array of tuples has its type built from its mangled name at
  /// run time, which for `Range<Int>` means a search of every conformance in the binary
  /// (about 100k instructions, once a process).
  struct Child {
    var byte: UInt8
    var names: Range<Int>
    var words: Range<Int>
  }

  func node(_ prefix: ArraySlice<UInt8>) throws(StoreError) -> Node? {
    guard let cache else { return try readNode(prefix) }
    let hash = CityIndexCache.hash(prefix)
    if let kept = cache.node(prefix, hash: hash) { return kept.node }
    let node = try readNode(prefix)
    cache.add(CityIndexCache.Node(prefix: Array(prefix), node: node), hash: hash)
    return node
  }

  private func readNode(_ prefix: ArraySlice<UInt8>) throws(StoreError) -> Node? {
    guard let raw = try db.fetch([UInt8(ascii: "t")] + prefix) else { return nil }
    do throws(MalformedValue) {
      var r = try Envelope.open(.trieNode, raw)
      let names = try range(&r)
      let words = try range(&r)
      let dup = try r.count()
      let n = try r.count(limit: 256)
      var children: [Child] = []
      children.reserveCapacity(n)
      for _ in 0..<n { children.append(Child(byte: try r.u8(), names: try range(&r), words: try range(&r))) }
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
  /// With `countries`, name entries bring their city's country, from the country block beside
  /// their block when the catalogue has one.
  package func entries(_ tag: Character, _ range: Range<Int>, countries: Bool = false) throws(StoreError) -> [CityIndex.Entry] {
    var out: [CityIndex.Entry] = []
    guard !range.isEmpty else { return out }
    out.reserveCapacity(range.count)
    let bs = CityIndex.blockSize
    for b in (range.lowerBound / bs)...((range.upperBound - 1) / bs) {
      var block = try self.block(tag, b)
      if countries && tag == "n", let names = try self.countries(b, count: block.count) {
        for k in block.indices { block[k].country = names[k] }
      }
      for (k, e) in block.enumerated() where range.contains(b * bs + k) { out.append(e) }
    }
    return out
  }

  /// The countries of name block `b`'s `count` entries, or nil in a catalogue written
  /// without country blocks.
  func countries(_ b: Int, count: Int) throws(StoreError) -> [[UInt8]]? {
    guard let cache else { return try readCountries(b, count: count) }
    let key = CityIndexCache.key("k", b)
    if let kept = cache.block(key) { return kept.countries }
    let names = try readCountries(b, count: count)
    cache.add(CityIndexCache.Block(entries: [], countries: names), key)
    return names
  }

  private func readCountries(_ b: Int, count: Int) throws(StoreError) -> [[UInt8]]? {
    guard let raw = try db.fetch(CatalogueKey.block("k", b)) else { return nil }
    do throws(MalformedValue) {
      var r = try Envelope.open(.countryBlock, raw)
      guard try r.count(limit: CityIndex.blockSize) == count else { throw MalformedValue() }
      var out: [[UInt8]] = []
      out.reserveCapacity(count)
      for _ in 0..<count { out.append(Array(try r.bytes())) }
      guard r.isAtEnd else { throw MalformedValue() }
      return out
    } catch {
      throw .damaged(path: db.path, detail: "search index country block k\(b) is unreadable")
    }
  }

  func block(_ tag: Character, _ b: Int) throws(StoreError) -> [CityIndex.Entry] {
    guard let cache else { return try readBlock(tag, b) }
    let key = CityIndexCache.key(tag, b)
    if let kept = cache.block(key) { return kept.entries }
    let block = try readBlock(tag, b)
    cache.add(CityIndexCache.Block(entries: block, countries: nil), key)
    return block
  }

  private func readBlock(_ tag: Character, _ b: Int) throws(StoreError) -> [CityIndex.Entry] {
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
    if let cache, let known = try cachedMatch(q, cache) { return known }
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

  /// ``match(_:)`` decided by the walk from the root through nodes already in the cache,
  /// without a fetch: a key that leaves the trie near its root (`s pringfield`: resolving a
  /// name tries dozens of spellings), or runs into a small range, answers without asking
  /// GDBM for a node of its own that does not exist (a bucket read each). Nil when the walk
  /// reaches a node not yet read.
  private func cachedMatch(_ q: [UInt8], _ cache: CityIndexCache) throws(StoreError) -> CityIndex.Match? {
    guard !q.isEmpty, let root = cache.node(q[..<0], hash: CityIndexCache.hash(q[..<0])), var ancestor = root.node else {
      return nil
    }
    var depth = 0
    while true {
      guard let child = ancestor.children.first(where: { $0.byte == q[depth] }) else { return CityIndex.Match.none }
      guard child.names.count + child.words.count > CityIndex.burstThreshold else {
        return try narrow(q, names: child.names, words: child.words)
      }
      let prefix = q[...depth]
      guard let kept = cache.node(prefix, hash: CityIndexCache.hash(prefix)) else { return nil }
      guard let next = kept.node else { return try narrow(q, names: child.names, words: child.words) }
      if depth + 1 == q.count { return CityIndex.Match(names: next.names, words: next.words, duplicates: next.duplicates) }
      ancestor = next
      depth += 1
    }
  }

  /// Filters small ranges down to the entries that start with `q`.
  private func narrow(_ q: [UInt8], names: Range<Int>, words: Range<Int>) throws(StoreError) -> CityIndex.Match {
    // The range's entries are compared where their blocks hold them, not copied out first
    // (resolving a name narrows the same small ranges many times).
    func sub(_ tag: Character, _ range: Range<Int>) throws(StoreError) -> (Range<Int>, Int) {
      var lo = -1
      var hi = -1
      var dup = 0
      let bs = CityIndex.blockSize
      var b = range.lowerBound / bs
      while b * bs < range.upperBound {
        let block = try self.block(tag, b)
        var k = max(range.lowerBound, b * bs)
        let end = min(range.upperBound, b * bs + block.count)
        while k < end {
          let i = k - b * bs
          if block[i].key.count >= q.count && block[i].key[..<q.count].elementsEqual(q) {
            if lo < 0 { lo = k }
            hi = k + 1
            if tag == "w" && block[i].shadow >= q.count { dup += 1 }
          }
          k += 1
        }
        b += 1
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
    // Past every match (any offset, however large: nothing below can overflow) is nothing.
    guard limit > 0, offset >= 0, offset < match.names.count + match.words.count else { return refs }
    let limit = min(limit, match.names.count + match.words.count)
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

/// The index blocks and nodes a read-only handle's readers decoded, kept while it is open
/// (``GDBMDatabase/indexCache``). A reader's file never changes under it (stores are replaced
/// by rename, and no writer opens a file a reader holds), so a value fetched, checked against
/// its CRC-32 and decoded once is the same the next time. Resolving a name asks the same few
/// blocks again and again: `wx show "Springfield, Illinois"` fetched 452 values, each with a
/// CRC-32 over it and an allocation per entry. Arrays searched in order, not Dictionaries
/// (their Hashable check at run time costs more than these lookups); at most ``capacity``
/// of each, the oldest dropped first.
package final class CityIndexCache {
  static let capacity = 128
  /// Entry blocks (`n`, `w`) and country blocks (`k`), by ``key(_:_:)``.
  fileprivate var blockKeys: [Int] = []
  fileprivate var blocks: [Block] = []
  /// Trie nodes by the ``hash(_:)`` of their prefix, absent ones too.
  fileprivate var nodeHashes: [Int] = []
  fileprivate var nodes: [Node] = []

  // What is kept sits in final classes, so that dropping the cache destroys it with code
  // compiled for its types: arrays of arrays, or of structs holding ranges, are destroyed
  // through type metadata built at run time (0.14 M instructions when a command closed its
  // stores).
  fileprivate final class Block {
    let entries: [CityIndex.Entry]
    /// A country block's countries; nil when the catalogue has none (an older one).
    let countries: [[UInt8]]?

    init(entries: [CityIndex.Entry], countries: [[UInt8]]?) {
      self.entries = entries
      self.countries = countries
    }
  }

  fileprivate final class Node {
    let prefix: [UInt8]
    let node: CityIndexReader.Node?

    init(prefix: [UInt8], node: CityIndexReader.Node?) {
      self.prefix = prefix
      self.node = node
    }
  }

  package init() {}

  fileprivate static func key(_ tag: Character, _ b: Int) -> Int { Int(tag.asciiValue ?? 0) << 48 | b }

  fileprivate static func hash(_ bytes: ArraySlice<UInt8>) -> Int { Int(bitPattern: UInt(CityIndex.fnv1a(bytes))) }

  fileprivate func block(_ key: Int) -> Block? {
    var i = 0
    while i < blockKeys.count {
      if blockKeys[i] == key { return blocks[i] }
      i += 1
    }
    return nil
  }

  fileprivate func add(_ block: Block, _ key: Int) {
    if blockKeys.count >= Self.capacity {
      blockKeys.removeFirst()
      blocks.removeFirst()
    }
    blockKeys.append(key)
    blocks.append(block)
  }

  fileprivate func node(_ prefix: ArraySlice<UInt8>, hash: Int) -> Node? {
    var i = 0
    while i < nodeHashes.count {
      if nodeHashes[i] == hash && nodes[i].prefix.elementsEqual(prefix) { return nodes[i] }
      i += 1
    }
    return nil
  }

  fileprivate func add(_ node: Node, hash: Int) {
    if nodeHashes.count >= Self.capacity {
      nodeHashes.removeFirst()
      nodes.removeFirst()
    }
    nodeHashes.append(hash)
    nodes.append(node)
  }
}
