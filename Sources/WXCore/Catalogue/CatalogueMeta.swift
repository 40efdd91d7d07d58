import WXFeed

/// What the catalogue file says about itself. Stored last under key `m`, so a file without
/// a readable meta record is incomplete by definition.
package struct CatalogueMeta: Equatable, Sendable {
  /// Random per build; readers can check that every value belongs to one version.
  package var generation: UInt64
  /// Where the records came from: a URL, or `sample:<path>` for the bundled sample. Always
  /// as ``Redact/url(_:)`` leaves it: no userinfo, key or token, no control character.
  /// (Redacted when asked for, not when read: every read command reads the header, few show
  /// its source, and redacting cost 74 k instructions, 7 % of `wx top`.)
  package var source: String {
    get { Redact.url(storedSource) }
    set { storedSource = newValue }
  }
  /// The source as stored: a catalogue written before wx redacted its source may still hold a
  /// password or key.
  private var storedSource: String
  /// The provider that produced it (`freetestapi`, `accuweather`, `sample`).
  package var provider: String
  /// Seconds since the epoch.
  package var syncedAt: Int64
  /// Number of cities.
  package var count: Int
  /// True when seeded from the bundled sample rather than downloaded.
  package var isSample: Bool
  /// Entries in the name-start and later-word search arrays, and cities in the rain-free list.
  package var nameEntries: Int
  package var wordEntries: Int
  package var dryCount: Int
  /// The ``Fold`` rules the search index was built with: queries are folded the same way.
  /// Headers written before the field existed read as version 1.
  package var foldVersion: Int = Fold.version
  /// Where the list of cities came from and when (`freetestapi`, `sample`…): the provider
  /// itself, unless weather was refreshed for an existing list (`open-meteo`). Headers
  /// written before the fields existed read as ``provider`` and ``syncedAt``.
  package var listProvider: String
  package var listSyncedAt: Int64
  /// Cities whose weather came from ``provider`` at ``syncedAt`` (a favourites refresh
  /// refreshes a few); headers written before the field existed read as ``count``.
  package var refreshed: Int
  /// Cities by the source of their weather (``WeatherSource/allCases`` order), and the oldest
  /// and newest observation among them; nil in headers written before the fields existed.
  package var bySource: [Int]? = nil
  package var oldestObservation: Int64? = nil
  package var newestObservation: Int64? = nil

  /// When the catalogue was synced; nil for the bundled sample, which never was (the time it
  /// was copied into the state folder is no age of its invented rows).
  package var synced: Int64? { isSample ? nil : syncedAt }
  /// Whether the list of cities is the bundled sample's (the sample itself, or the sample
  /// with the weather of some cities refreshed).
  package var listIsSample: Bool { isSample || listProvider == "sample" }
  /// When its list of cities was synced; nil while the list is the bundled sample's.
  package var listSynced: Int64? { listIsSample ? nil : listSyncedAt }

  package init(
    generation: UInt64, source: String, provider: String, syncedAt: Int64, count: Int, isSample: Bool,
    nameEntries: Int = 0, wordEntries: Int = 0, dryCount: Int = 0,
    listProvider: String? = nil, listSyncedAt: Int64? = nil, refreshed: Int? = nil
  ) {
    self.generation = generation
    self.storedSource = source
    self.provider = provider
    self.syncedAt = syncedAt
    self.count = count
    self.isSample = isSample
    self.nameEntries = nameEntries
    self.wordEntries = wordEntries
    self.dryCount = dryCount
    self.listProvider = listProvider ?? provider
    self.listSyncedAt = listSyncedAt ?? syncedAt
    self.refreshed = refreshed ?? count
  }

  func encoded() -> [UInt8] {
    var w = ByteWriter()
    w.varint(generation)
    w.string(source)
    w.string(provider)
    w.int(Int(syncedAt))
    w.int(count)
    w.bool(isSample)
    w.int(nameEntries)
    w.int(wordEntries)
    w.int(dryCount)
    w.int(foldVersion)
    w.string(listProvider)
    w.int(Int(listSyncedAt))
    w.int(refreshed)
    if let bySource {
      w.varint(UInt64(bySource.count))
      for n in bySource { w.int(n) }
      w.varint(oldestObservation.map { UInt64(bitPattern: $0) &+ 1 } ?? 0)
      w.varint(newestObservation.map { UInt64(bitPattern: $0) &+ 1 } ?? 0)
    }
    return w.bytes
  }

  init(decoding r: inout ByteReader) throws(MalformedValue) {
    generation = try r.varint()
    storedSource = try r.string()
    provider = try r.string()
    syncedAt = Int64(try r.int())
    count = try r.int()
    isSample = try r.bool()
    nameEntries = try r.int()
    wordEntries = try r.int()
    dryCount = try r.int()
    foldVersion = r.isAtEnd ? 1 : try r.int()
    let old = r.isAtEnd
    listProvider = old ? provider : try r.string()
    listSyncedAt = old ? syncedAt : Int64(try r.int())
    refreshed = old ? count : try r.int()
    if !r.isAtEnd {
      let n = try r.count(limit: 64)
      var counts: [Int] = []
      for _ in 0..<n { counts.append(try r.int()) }
      bySource = counts
      let (a, b) = (try r.varint(), try r.varint())
      oldestObservation = a == 0 ? nil : Int64(bitPattern: a &- 1)
      newestObservation = b == 0 ? nil : Int64(bitPattern: b &- 1)
    }
    guard foldVersion >= 1, foldVersion <= Fold.version,
      count >= 0, nameEntries == count, wordEntries >= 0, dryCount >= 0, dryCount <= count
    else {
      throw MalformedValue()
    }
  }
}

/// Keys of the catalogue file. One file holds records and index, so one rename publishes both.
///
/// | key | value |
/// |---|---|
/// | `m` | ``CatalogueMeta`` |
/// | `c` + block (u32 BE) | up to 16 cities, in catalogue order |
/// | `i` + bucket (u32 BE) | (id, index) pairs for ids in `bucket*256 ..< (bucket+1)*256` |
/// | `o` + block | city indexes, warmest first (256 per block) |
/// | `h` + block | rain-free city indexes, warmest first |
/// | `n` + block / `w` + block | search entries: name starts / later-word starts (64 per block) |
/// | `t` + folded prefix | a trie node (see ``CityIndex``) |
package enum CatalogueKey {
  package static let meta: [UInt8] = [UInt8(ascii: "m")]
  package static let citiesPerBlock = 16
  package static let indexesPerBlock = 256
  package static let idsPerBucket = 256

  package static func block(_ tag: Character, _ n: Int) -> [UInt8] {
    let v = UInt32(truncatingIfNeeded: n)
    return [
      tag.asciiValue!, UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16),
      UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v),
    ]
  }
}
