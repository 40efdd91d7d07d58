internal import CGDBM

import Glibc

/// Writes a complete catalogue (records, orders and search index) into a new store file,
/// record by record: ``add(_:)`` stores each full block of 16 records as it fills, and hands
/// each city's folded name to the search index builder (``CityIndexBuilder``, whose memory
/// does not grow with the catalogue) and its id, temperature and rain flag to the orders
/// (17 bytes a city, plus 4 for each order while it is sorted). ``finish(meta:)`` then sorts
/// and writes the orders and the index.
package final class CatalogueWriter {
  private let db: GDBMDatabase
  /// The encoded cities of the block being filled (at most 16).
  private var block: [[UInt8]] = []
  private var blockNumber = 0
  package private(set) var count = 0
  private let orders: OrderFields
  private let index: CityIndexBuilder
  /// Links the atlas's places to the cities they are (``AtlasLinks``), when given the atlas
  /// data (`atlas.bin`) to link them with.
  private let linker: AtlasLinker?
  private var linked = false
  private var links: (links: [(position: Int, city: Int)], dataChecksum: UInt32, places: Int)?
  /// Few distinct descriptions: each is classified once.
  private var rainy: [String: Bool] = [:]
  /// Cities by the source of their weather, and the span of their observation times (the header's).
  private var bySource = [Int](repeating: 0, count: WeatherSource.allCases.count)
  private var observed: ClosedRange<Int64>?

  /// Writes into `db`, a fresh file the caller publishes. The search index keeps its sorting
  /// material in memory up to `spillAbove` bytes, then in a temporary file beside `db`, and
  /// sorts `indexBatchEntries` entries at a time (``CityIndexBuilder``);
  /// `namesCarryCountries` false writes the name blocks of earlier releases (for tests).
  package init(
    into db: GDBMDatabase, spillAbove: Int = 1 << 20, indexBatchEntries: Int = 1 << 16, namesCarryCountries: Bool = true,
    atlasData: String? = nil
  ) {
    self.db = db
    linker = atlasData.map { AtlasLinker(dataPath: $0, directory: FileSystem.directoryName(db.path)) }
    index = CityIndexBuilder(
      directory: FileSystem.directoryName(db.path), spillAbove: spillAbove, batchEntries: indexBatchEntries)
    index.namesCarryCountries = namesCarryCountries
    orders = OrderFields(directory: FileSystem.directoryName(db.path))
  }

  /// Writes `cities` in catalogue order into `db`. The meta record goes last: a file
  /// without it is incomplete.
  @discardableResult
  package static func write(_ cities: [City], meta: CatalogueMeta, into db: GDBMDatabase) throws(StoreError) -> CatalogueMeta {
    let writer = CatalogueWriter(into: db)
    for city in cities { try writer.add(city) }
    return try writer.finish(meta: meta)
  }

  /// Appends one city (catalogue order is the order of the calls).
  package func add(_ city: City) throws(StoreError) {
    block.append(city.encoded())
    count += 1
    if let p = city.provenance {
      bySource[Int(p.source.byte) - 1] += 1
      if let at = p.observedAt { observed = observed.map { min($0.lowerBound, at)...max($0.upperBound, at) } ?? at...at }
    }
    let wet: Bool
    if let chance = city.observedHour?.precipitationProbability {
      wet = !Condition.isRainFree(chance: chance, description: city.description)
    } else {
      wet = rainy[city.description] ?? !Condition.isRainFree(chance: nil, description: city.description)
      if rainy.count < 4096 { rainy[city.description] = wet }
    }
    // Unknown temperatures sort last.
    try orders.append(id: city.id, temperature: city.temperatureC ?? -.infinity, rainFree: !wet)
    let (key, starts) = Fold.keyAndWordStarts(city.name)
    let country = try index.add(key, wordStarts: starts, country: city.country)
    try linker?.add(key: key, country: country, latitude: city.latitude, longitude: city.longitude)
    if block.count == CatalogueKey.citiesPerBlock { try flushBlock() }
  }

  private func flushBlock() throws(StoreError) {
    guard !block.isEmpty else { return }
    // Each record length-prefixed, so a reader decodes only the one it wants.
    var w = ByteWriter(capacity: block.count * 160)
    w.varint(UInt64(block.count))
    for encoded in block { w.bytes(encoded) }
    try db.store(CatalogueKey.block("c", blockNumber), Envelope.seal(.city, w.bytes, version: CityRecord.version))
    block.removeAll(keepingCapacity: true)
    blockNumber += 1
  }

  /// Works out the atlas links (``AtlasLinks``) once every city is added. A sync calls it
  /// before it takes the writer lock (half a second at a million cities that other writers
  /// need not wait for); ``finish(meta:)`` calls it otherwise.
  package func link() throws(StoreError) {
    guard !linked else { return }
    linked = true
    // What the download freed is handed back before the atlas's tables are made.
    malloc_trim(0)
    links = try linker?.finish(countryKeys: index.countryKeys)
  }

  /// Writes the last record block, the orders, the index and then `meta` (with its counts).
  @discardableResult
  package func finish(meta: CatalogueMeta) throws(StoreError) -> CatalogueMeta {
    try flushBlock()
    var meta = meta
    meta.count = count
    // The links first: their working tables (about 9 MB at 170,000 places) are freed before
    // the orders and the index take their own.
    try link()
    // Each step allocates tens of megabytes at a million cities; what the download and the
    // step before freed is handed back to the system first, so they do not stack up in the
    // process's resident memory.
    malloc_trim(0)
    // The orders and the index are sorted and encoded here while a second thread stores what
    // is ready (at most four batches of 1 MiB wait).
    let db = self.db
    let stores = Handoff<([UInt8], [UInt8])>(batchSize: 4096, batchWeight: 1 << 20, weight: { $0.0.count + $0.1.count }) {
      batch in
      for (key, value) in batch { try db.store(key, value) }
    }
    let store = { (key: [UInt8], value: [UInt8]) throws(StoreError) in
      do { try stores.send((key, value)) } catch { throw Self.storeError(error, db.path) }
    }
    let dryCount: Int
    let wordEntries: Int
    do throws(StoreError) {
      var input = try orders.read()
      dryCount = try writeOrders(&input, store)
      malloc_trim(0)
      wordEntries = try index.build(store: store)
      do { try stores.finish() } catch { throw Self.storeError(error, db.path) }
    } catch {
      throw stores.drain().map { Self.storeError($0, db.path) } ?? error
    }
    if let links {
      let (head, blocks) = AtlasLinks.encode(
        links.links, dataChecksum: links.dataChecksum, places: links.places, foldVersion: Fold.version)
      for (b, block) in blocks.enumerated() { try db.store(CatalogueKey.block("L", b), block) }
      try db.store(AtlasLinks.head, head)
    }
    meta.foldVersion = Fold.version
    meta.nameEntries = count
    meta.wordEntries = wordEntries
    meta.dryCount = dryCount
    meta.bySource = bySource
    (meta.oldestObservation, meta.newestObservation) = (observed?.lowerBound, observed?.upperBound)
    try db.store(CatalogueKey.meta, Envelope.seal(.meta, meta.encoded()))
    return meta
  }

  /// What the orders need of every city.
  private struct OrderInput {
    var ids: [Int] = []
    var temperatures: [Double] = []
    var rainFree: [Bool] = []
  }

  /// The orders' fields of every city (id, temperature, rain-free: 17 bytes), set aside as
  /// they arrive: in memory up to 256 KiB, then in a temporary file beside the catalogue, so
  /// a download holds none of them while its de-duplication set grows; ``read()`` brings
  /// them back for sorting once the download is over.
  private final class OrderFields {
    private static let size = 17
    /// The fields not yet handed to `spill`, which takes them 4,096 records (68 KiB) at a time.
    private var pending: [UInt8] = []
    private var spill: SpillBuffer
    private(set) var count = 0

    init(directory: String) { spill = SpillBuffer(directory: directory, spillAbove: 1 << 18) }

    func append(id: Int, temperature: Double, rainFree: Bool) throws(StoreError) {
      withUnsafeBytes(of: Int64(id).littleEndian) { pending.append(contentsOf: $0) }
      withUnsafeBytes(of: temperature.bitPattern.littleEndian) { pending.append(contentsOf: $0) }
      pending.append(rainFree ? 1 : 0)
      count += 1
      if pending.count >= Self.size << 12 {
        try spill.append(pending)
        pending.removeAll(keepingCapacity: true)
      }
    }

    /// Every city's fields in catalogue order; lets go of what was set aside.
    func read() throws(StoreError) -> OrderInput {
      var out = OrderInput()
      out.ids.reserveCapacity(count)
      out.temperatures.reserveCapacity(count)
      out.rainFree.reserveCapacity(count)
      func decode(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
          var k = 0
          while k + Self.size <= raw.count {
            out.ids.append(Int(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: k, as: Int64.self))))
            out.temperatures.append(
              Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k + 8, as: UInt64.self))))
            out.rainFree.append(raw[k + 16] != 0)
            k += Self.size
          }
        }
      }
      // Whole records a piece, so none is split between two reads.
      try spill.forEachPiece(Self.size << 14, decode)
      decode(pending)
      guard out.ids.count == count else {
        throw .io(path: spill.directory, operation: "reading a temporary file in", errno: EIO)
      }
      (spill, pending) = (SpillBuffer(directory: spill.directory, spillAbove: spill.spillAbove), [])
      return out
    }
  }

  /// The id buckets and the warmest and rain-free orders; returns how many cities are dry.
  /// Lets go of `input` as it goes.
  /// What the storing thread threw, as the store error it is.
  private static func storeError(_ error: any Error, _ path: String) -> StoreError {
    error as? StoreError ?? .io(path: path, operation: "writing", errno: EIO)
  }

  private func writeOrders(
    _ input: inout OrderInput, _ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) -> Int {
    var ids = input.ids
    var temperatures = input.temperatures
    let rainFree = input.rainFree
    input = OrderInput()

    // Ids, bucketed by id >> 8, each bucket in catalogue order: the same id may appear twice
    // (freetestapi's Canberra and Wellington).
    var byBucket = Array(0..<Int32(count))
    byBucket.sort { a, b in
      let (x, y) = (ids[Int(a)] >> 8, ids[Int(b)] >> 8)
      return x != y ? x < y : a < b
    }
    var k = 0
    while k < byBucket.count {
      let bucket = ids[Int(byBucket[k])] >> 8
      var end = k
      while end < byBucket.count && ids[Int(byBucket[end])] >> 8 == bucket { end += 1 }
      var w = ByteWriter()
      w.varint(UInt64(end - k))
      for i in byBucket[k..<end] {
        w.int(ids[Int(i)])
        w.varint(UInt64(i))
      }
      try store(CatalogueKey.block("i", bucket), Envelope.seal(.idList, w.bytes))
      k = end
    }
    ids = []
    byBucket = []

    // Warmest first, unknown temperatures last; ties in catalogue order. The rain-free list
    // keeps the same order.
    var warmest = Array(0..<Int32(count))
    warmest.sort { a, b in
      let (x, y) = (temperatures[Int(a)], temperatures[Int(b)])
      return x != y ? x > y : a < b
    }
    temperatures = []
    try storeIndexes("o", warmest, store)
    return try storeIndexes("h", warmest.filter { rainFree[Int($0)] }, store)
  }

  @discardableResult
  private func storeIndexes(
    _ tag: Character, _ list: [Int32], _ store: (_ key: [UInt8], _ value: [UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) -> Int {
    let per = CatalogueKey.indexesPerBlock
    var b = 0
    while b * per < list.count {
      var w = ByteWriter(capacity: per * 3)
      let slice = list[(b * per)..<min(list.count, (b + 1) * per)]
      w.varint(UInt64(slice.count))
      for i in slice { w.varint(UInt64(i)) }
      try store(CatalogueKey.block(tag, b), Envelope.seal(.order, w.bytes))
      b += 1
    }
    return list.count
  }
}
