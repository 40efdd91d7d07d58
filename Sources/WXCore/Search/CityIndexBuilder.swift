import Glibc

/// Builds a catalogue's search index (``CityIndex``) from its cities, one city at a time, in
/// memory that does not grow with the catalogue.
///
/// An entry's place in either sorted array depends only on the entries that share its first
/// byte, plus how many entries start with a smaller byte. So ``add(_:wordStarts:country:)``
/// files each name, and each later word, under the first byte of its key, in chunks of 16 KiB;
/// once the chunks pass ``spillAbove`` bytes they are moved to a temporary file without a name,
/// in the catalogue's folder (it vanishes when it is closed, even by a crash).
/// ``build(store:)`` then reads the chunks back a batch of first bytes at a time
/// (consecutive bytes up to ``batchEntries`` entries; one byte's entries are never split),
/// sorts the batch and streams its entry blocks and trie nodes out; the root node goes last.
///
/// Memory: a 16 KiB chunk for each first byte in use, and the batch being sorted, about 40
/// bytes an entry (its key, its fields and its place in the order). At a million cities the
/// largest batch is one letter's share (`s`: about a tenth of the entries).
package final class CityIndexBuilder {
  /// Chunks are kept in memory up to this many bytes, then spilled to the file.
  package let spillAbove: Int
  /// A batch gathers first bytes until it holds this many entries (names and words).
  package let batchEntries: Int
  /// Whether name entries carry their city's country (``CityIndex/Entry/country``);
  /// false writes the blocks of earlier releases, for tests of reading them.
  package var namesCarryCountries = true
  private let directory: String
  private static let chunkSize = 16 << 10

  private struct Chunk {
    var byte: UInt8
    var offset: Int
    var length: Int
  }

  /// The chunk being filled for each first byte.
  private var filling = [ByteWriter](repeating: ByteWriter(capacity: 0), count: 256)
  private var chunks: [Chunk] = []
  /// The chunks, end to end (offsets in `chunks` are offsets in it).
  private var spill: SpillBuffer
  private var names = [Int](repeating: 0, count: 256)
  private var words = [Int](repeating: 0, count: 256)
  package private(set) var count = 0
  package private(set) var wordCount = 0

  /// A builder whose spill file, if it needs one, goes in `directory`.
  package init(directory: String, spillAbove: Int = 1 << 20, batchEntries: Int = 1 << 16) {
    self.directory = directory
    self.spillAbove = spillAbove
    self.batchEntries = max(1, batchEntries)
    spill = SpillBuffer(directory: directory, spillAbove: spillAbove)
  }

  /// Whether the chunks went to a file (for tests).
  package var spilled: Bool { spill.spilled }

  // MARK: Adding

  /// The catalogue's countries by a number each (in the spilled records), with their folded
  /// names, which ``build(store:)`` turns into each country's place in byte order.
  private var countryNumbers: [String: UInt32] = [:]
  /// Each country number's folded name (``add(_:wordStarts:country:)``), until the build.
  private(set) var countryKeys: [[UInt8]] = []

  /// Passes over the next position: a place that is in no name's entries (an atlas place
  /// listed twice at one spot, ``AtlasWriter/SameSpot``).
  package func skip() { count += 1 }

  /// Appends the next city (catalogue order is the order of the calls): its folded name
  /// `key`, the offsets in it where its later words start (``Fold/keyAndWordStarts(_:)``) and
  /// its country as stored (equal names sort by the folded country). Returns the country's
  /// number: spellings numbered as first met (``countryKeys``).
  @discardableResult
  package func add(_ key: [UInt8], wordStarts: [Int], country name: String) throws(StoreError) -> UInt32 {
    let position = UInt64(count)
    count += 1
    let country: UInt32
    if let n = countryNumbers[name] {
      country = n
    } else {
      country = UInt32(countryKeys.count)
      countryNumbers[name] = country
      countryKeys.append(Fold.key(name))
    }
    // An empty key goes with byte 0's keys: it sorts before all of them.
    let first = Int(key.first ?? 0)
    names[first] += 1
    append(to: first) { out in
      out.u8(0)
      out.varint(position)
      out.varint(UInt64(country))
      out.bytes(key)
      out.string(name)
    }
    for (k, start) in wordStarts.enumerated() where start > 0 && start < key.count {
      // A word's shadow: the longest prefix it shares with the name or an earlier word.
      var shadow = Self.commonPrefix(key, 0, start)
      for earlier in wordStarts[..<k] { shadow = max(shadow, Self.commonPrefix(key, earlier, start)) }
      let byte = Int(key[start])
      words[byte] += 1
      wordCount += 1
      append(to: byte) { out in
        out.u8(1)
        out.varint(position)
        out.varint(UInt64(country))
        out.varint(UInt64(start))
        out.varint(UInt64(shadow))
        out.bytes(key)
      }
    }
    try flushFull()
    return country
  }

  private var full: [Int] = []

  private func append(to byte: Int, _ write: (inout ByteWriter) -> Void) {
    write(&filling[byte])
    if filling[byte].bytes.count >= Self.chunkSize { full.append(byte) }
  }

  private func flushFull() throws(StoreError) {
    for byte in full { try flush(byte) }
    full.removeAll(keepingCapacity: true)
  }

  private func flush(_ byte: Int) throws(StoreError) {
    let chunk = filling[byte].bytes
    guard !chunk.isEmpty else { return }
    chunks.append(Chunk(byte: UInt8(byte), offset: try spill.append(chunk), length: chunk.count))
    filling[byte].removeAll()
  }

  private func read(_ chunk: Chunk, into out: inout [UInt8]) throws(StoreError) {
    try spill.read(at: chunk.offset, length: chunk.length, into: &out)
  }

  // MARK: Building

  /// Writes both sorted arrays' blocks and the trie nodes through `store`; returns the
  /// number of word entries.
  package func build(store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void) throws(StoreError) -> Int {
    for byte in 0..<256 { try flush(byte) }
    filling = []
    let countryRanks = CityIndex.countryRanks(countryKeys)
    countryNumbers = [:]
    countryKeys = []
    var nameBlocks = CityIndex.BlockWriter(tag: "n", countries: namesCarryCountries)
    var wordBlocks = CityIndex.BlockWriter(tag: "w")
    var rootChildren: [CityIndex.Child] = []
    var nBase = 0
    var wBase = 0
    var byte = 0
    while byte < 256 {
      // Consecutive first bytes, up to `batchEntries` entries (at least one byte).
      var last = byte
      var size = names[byte] + words[byte]
      while last + 1 < 256 && size + names[last + 1] + words[last + 1] <= batchEntries {
        last += 1
        size += names[last] + words[last]
      }
      if size > 0 {
        let batch = try load(bytes: UInt8(byte)...UInt8(last), countryRanks: countryRanks)
        let (n, w) = try CityIndex.storeBatch(
          batch, nBase: nBase, wBase: wBase, nameBlocks: &nameBlocks, wordBlocks: &wordBlocks,
          rootChildren: &rootChildren, store)
        nBase += n
        wBase += w
      }
      byte = last + 1
    }
    try nameBlocks.finish(store)
    try wordBlocks.finish(store)
    try CityIndex.storeNode(
      prefix: [], n: 0..<nBase, w: 0..<wBase, duplicates: 0, children: rootChildren, store)
    // What was set aside is let go of (the file closes, and vanishes with it).
    spill = SpillBuffer(directory: directory, spillAbove: spillAbove)
    chunks = []
    return wBase
  }

  private func load(bytes: ClosedRange<UInt8>, countryRanks: [UInt32]) throws(StoreError) -> CityIndex.Batch {
    var batch = CityIndex.Batch(
      names: bytes.reduce(0) { $0 + names[Int($1)] }, words: bytes.reduce(0) { $0 + words[Int($1)] })
    var raw: [UInt8] = []
    for chunk in chunks where bytes.contains(chunk.byte) {
      raw.removeAll(keepingCapacity: true)
      try read(chunk, into: &raw)
      var r = ByteReader(raw)
      do throws(MalformedValue) {
        while !r.isAtEnd {
          let isWord = try r.u8() == 1
          let position = Int32(clamping: try r.varint())
          let country = Int(try r.varint())
          guard country < countryRanks.count else { throw MalformedValue() }
          if isWord {
            batch.wordStart.append(UInt16(clamping: try r.varint()))
            batch.wordShadow.append(UInt16(clamping: try r.varint()))
            batch.wholeNames.append(try r.bytes())
            batch.wordPosition.append(position)
            batch.wordRank.append(countryRanks[country])
          } else {
            batch.names.append(try r.bytes())
            batch.countries.append(try r.bytes())
            batch.namePosition.append(position)
            batch.nameRank.append(countryRanks[country])
          }
        }
      } catch {
        // Only a changed temporary file (or a bad disk) reads back differently.
        throw .io(path: directory, operation: "reading a temporary file in", errno: EIO)
      }
    }
    return batch
  }

  private static func commonPrefix(_ key: [UInt8], _ a: Int, _ b: Int) -> Int {
    var k = 0
    while a + k < key.count && b + k < key.count && key[a + k] == key[b + k] { k += 1 }
    return k
  }
}
