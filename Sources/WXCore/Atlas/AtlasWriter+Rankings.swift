/// The `r` records of ``AtlasWriter``: each prefix's ranking.
extension AtlasWriter {
  /// Every prefix's ranking, from the name and word entries sorted by key: a walk down the
  /// sorted arrays visits each prefix matching more than 32 entries once, and ranks the places
  /// of its two ranges (a stamp per place tells one seen at this prefix already).
  struct Rankings {
    let names: CityIndex.PackedBytes
    let nameRefs: [Int32]
    /// The name entries' numbers in (key, place) order (``sorted(_:_:)``).
    let nOrder: [Int32]
    let words: CityIndex.PackedBytes
    let wordRefs: [Int32]
    let places: Int

    func store(_ store: ([UInt8], [UInt8]) throws(StoreError) -> Void) throws(StoreError) {
      let wOrder = Self.sorted(words, wordRefs)
      var stamps = [Int32](repeating: -1, count: places)
      var visit = Visit(
        names: names, nOrder: nOrder, nameRefs: nameRefs, words: words, wOrder: wOrder, wordRefs: wordRefs)
      var prefix: [UInt8] = []
      try visit.node(depth: 0, n: 0..<nOrder.count, w: 0..<wOrder.count, prefix: &prefix, stamps: &stamps, store)
    }

    /// Entry numbers in (key, place) order.
    static func sorted(_ keys: CityIndex.PackedBytes, _ refs: [Int32]) -> [Int32] {
      var order = Array(0..<Int32(keys.count))
      keys.bytes.withUnsafeBufferPointer { all in
        order.sort { a, b in
          let c = CityIndex.compare(
            UnsafeBufferPointer(rebasing: all[keys.range(Int(a))]), UnsafeBufferPointer(rebasing: all[keys.range(Int(b))]))
          return c != 0 ? c < 0 : refs[Int(a)] < refs[Int(b)]
        }
      }
      return order
    }
  }

  private struct Visit {
    let names: CityIndex.PackedBytes
    let nOrder: [Int32]
    let nameRefs: [Int32]
    let words: CityIndex.PackedBytes
    let wOrder: [Int32]
    let wordRefs: [Int32]
    var stamp: Int32 = 0

    /// The byte at `depth` of the `i`th sorted name (or word) entry, or nil past its end.
    func byte(_ keys: CityIndex.PackedBytes, _ order: [Int32], _ i: Int, _ depth: Int) -> UInt8? {
      let r = keys.range(Int(order[i]))
      return depth < r.count ? keys.bytes[r.lowerBound + depth] : nil
    }

    mutating func node(
      depth: Int, n: Range<Int>, w: Range<Int>, prefix: inout [UInt8], stamps: inout [Int32],
      _ store: ([UInt8], [UInt8]) throws(StoreError) -> Void
    ) throws(StoreError) {
      if depth > 0 {
        guard n.count + w.count > CityIndex.burstThreshold else { return }
        try rank(n: n, w: w, prefix: prefix, stamps: &stamps, store)
      }
      // The children: entries grouped by their byte at `depth` (those that end here first).
      var i = n.lowerBound
      while i < n.upperBound && byte(names, nOrder, i, depth) == nil { i += 1 }
      var j = w.lowerBound
      while j < w.upperBound && byte(words, wOrder, j, depth) == nil { j += 1 }
      while i < n.upperBound || j < w.upperBound {
        let bn = i < n.upperBound ? byte(names, nOrder, i, depth)! : 0xFF
        let bw = j < w.upperBound ? byte(words, wOrder, j, depth)! : 0xFF
        let b = min(bn, bw)
        let i0 = i
        while i < n.upperBound && byte(names, nOrder, i, depth) == b { i += 1 }
        let j0 = j
        while j < w.upperBound && byte(words, wOrder, j, depth) == b { j += 1 }
        prefix.append(b)
        try node(depth: depth + 1, n: i0..<i, w: j0..<j, prefix: &prefix, stamps: &stamps, store)
        prefix.removeLast()
      }
    }

    private mutating func rank(
      n: Range<Int>, w: Range<Int>, prefix: [UInt8], stamps: inout [Int32],
      _ store: ([UInt8], [UInt8]) throws(StoreError) -> Void
    ) throws(StoreError) {
      stamp += 1
      var named: [Int32] = []
      for i in n {
        let p = Int(nameRefs[Int(nOrder[i])])
        if stamps[p] != stamp { stamps[p] = stamp; named.append(Int32(p)) }
      }
      var worded: [Int32] = []
      for k in w {
        let p = Int(wordRefs[Int(wOrder[k])])
        if stamps[p] != stamp { stamps[p] = stamp; worded.append(Int32(p)) }
      }
      let firstNames = Self.smallest(named, AtlasWriter.rankedLength)
      let firstWords = Self.smallest(worded, AtlasWriter.rankedLength - firstNames.count)
      var out = ByteWriter(capacity: 16 + 3 * (firstNames.count + firstWords.count))
      out.varint(UInt64(named.count + worded.count))
      out.varint(UInt64(named.count))
      out.varint(UInt64(firstNames.count + firstWords.count))
      out.varint(UInt64(firstNames.count))
      for list in [firstNames, firstWords] {
        var previous: Int32 = 0
        for (k, p) in list.enumerated() {
          out.varint(UInt64(k == 0 ? p : p - previous))
          previous = p
        }
      }
      try store([UInt8(ascii: "r")] + prefix, Envelope.seal(.ranking, out.bytes))
    }

    /// The `k` smallest of `list`, ascending.
    static func smallest(_ list: [Int32], _ k: Int) -> [Int32] {
      guard k > 0 else { return [] }
      if list.count <= k { return list.sorted() }
      // One pass over a sorted buffer of k: only a place smaller than the k-th so far is
      // inserted (k is 100; sorting a whole letter's share would cost more).
      var best = Array(list[..<k]).sorted()
      for p in list[k...] where p < best[k - 1] {
        var lo = 0
        var hi = k - 1
        while lo < hi {
          let mid = (lo + hi) / 2
          if best[mid] < p { lo = mid + 1 } else { hi = mid }
        }
        best.removeLast()
        best.insert(p, at: lo)
      }
      return best
    }
  }
}
