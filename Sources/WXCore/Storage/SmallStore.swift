/// A small GDBM store (preferences, favourites, air-quality history) that is read whole and
/// replaced whole.
///
/// Each change is one read-modify-write under the ``WriterLock``: read the live file, change
/// the map, write a new file and `rename` it over the old one. Concurrent writers queue on the
/// lock (retrying with backoff until the deadline, then failing with `busy`), readers never
/// wait, and a crash at any moment leaves the previous complete file.
package struct SmallStore: Sendable {
  package let path: String
  package let kind: Envelope.Kind
  /// What the store derives from its records to read a part of them alone, if anything.
  package let index: Index?

  /// Records derived from a store's records, written with them in every publish (a repair's
  /// included) so a reader can take a part without reading the whole: the favourites' order
  /// (a page of 10,000 is a few fetches). Their keys begin with a NUL byte, as the
  /// manifest's, and their values are sealed as ``Envelope/Kind/storeIndex``, so a salvage
  /// scan never takes one for a record. ``SmallStore/read()`` checks them against their
  /// records; a file without them (written before they existed) reads as before.
  package struct Index: Sendable {
    package var derive: @Sendable ([[UInt8]: [UInt8]]) -> [[UInt8]: [UInt8]]
    /// How many records an index record says the store holds, when it is one that says so
    /// (the favourites' order head): a repair counts those its scan cannot find as lost.
    package var listed: @Sendable ([UInt8]) -> Int?

    package init(
      derive: @escaping @Sendable ([[UInt8]: [UInt8]]) -> [[UInt8]: [UInt8]],
      listed: @escaping @Sendable ([UInt8]) -> Int? = { _ in nil }
    ) {
      self.derive = derive
      self.listed = listed
    }
  }

  package init(path: String, kind: Envelope.Kind, index: Index? = nil) {
    self.path = path
    self.kind = kind
    self.index = index
  }

  /// Where the manifest is filed: a NUL byte first, which no record's key has (names are
  /// cleaned of control characters; settings are words).
  static let manifestKey: [UInt8] = [0] + Array("manifest".utf8)

  /// Every key with its payload. A missing file is an empty store; a damaged one is an error.
  ///
  /// Envelopes check values, not the set of keys: a flipped bit in GDBM's copy of a key or in
  /// its tables can hide a record while the rest reads. So every key listed must fetch, and
  /// the keys must be exactly those of the manifest (written with every version of the file
  /// since this check exists; a file without one, written by an older wx, is read as before).
  package func read() throws(StoreError) -> [[UInt8]: [UInt8]] {
    try reading([:]) { (db) throws(StoreError) in
      var out: [[UInt8]: [UInt8]] = [:]
      var derived: [[UInt8]: [UInt8]] = [:]
      var manifest: Manifest?
      for key in try db.keys() {
        guard let raw = try db.fetch(key) else {
          throw .damaged(path: path, detail: "a record it lists cannot be read")
        }
        if key == Self.manifestKey {
          manifest = try self.manifest(raw)
        } else if key.first == 0 {
          guard let r = try? Envelope.open(.storeIndex, raw) else {
            throw .damaged(path: path, detail: "its index failed its checksum")
          }
          derived[key] = Array(r.buffer[r.offset...])
        } else {
          out[key] = try payload(raw)
        }
      }
      // The index must say what the records say (an index from older records would show a
      // page of favourites that are gone); none at all is a file written before it existed.
      if !derived.isEmpty, derived != index?.derive(out) {
        throw .damaged(path: path, detail: "its index does not match its records")
      }
      if let manifest {
        let held = out.count + derived.count
        let found = manifest.keys.filter { out[$0] != nil || derived[$0] != nil }.count
        guard manifest.keys.count == held, found == held else {
          let missing = manifest.keys.count - found
          throw .damaged(
            path: path,
            detail: missing > 0
              ? "\(missing) of its \(manifest.keys.count) records cannot be found"
              : "it holds records its list of keys does not name")
        }
      }
      return out
    }
  }

  /// The payloads under `keys` (nil where absent), reading only those values and the
  /// manifest: the cheap path for read commands that need one or two settings. A key the
  /// manifest names that does not fetch is damage; without a manifest the whole file is read
  /// and checked (``read()``: an older file, or one whose manifest was hit).
  package func values(_ keys: [[UInt8]]) throws(StoreError) -> [[UInt8]?] {
    // Arrays, not a Dictionary or a Set: instantiating `[[UInt8]: [UInt8]]` or `Set<[UInt8]>`
    // checks their Hashable requirement at run time, a scan of every conformance in the
    // binary (0.45 M instructions, a quarter of a `wx search`). The manifest's keys are few.
    let fetched: [[UInt8]?]? = try reading(nil) { (db) throws(StoreError) in
      guard let raw = try db.fetch(Self.manifestKey) else { return nil }
      let listed = try manifest(raw).keys
      var out: [[UInt8]?] = []
      out.reserveCapacity(keys.count)
      for key in keys {
        if let raw = try db.fetch(key) {
          out.append(try payload(raw))
        } else if listed.contains(key) {
          throw .damaged(path: path, detail: "a record it lists cannot be read")
        } else {
          out.append(nil)
        }
      }
      return out
    }
    if let fetched { return fetched }
    let found = try read()
    return keys.map { found[$0] }
  }

  /// Reads parts of the store without the whole, in one opening of the file (nil when
  /// there is no file): ``Part``.
  package func part<T>(_ body: (Part) throws(StoreError) -> T?) throws(StoreError) -> T? {
    try reading(nil) { (db) throws(StoreError) in try body(Part(db: db, kind: kind)) }
  }

  /// Records and index records read alone, each nil when it is absent or fails its
  /// checksum: a reader then reads the whole store (``read()``), which says what is wrong.
  package struct Part {
    fileprivate let db: GDBMDatabase
    fileprivate let kind: Envelope.Kind

    package func index(_ key: [UInt8]) throws(StoreError) -> [UInt8]? { try opened(.storeIndex, key) }
    package func record(_ key: [UInt8]) throws(StoreError) -> [UInt8]? { try opened(kind, key) }

    private func opened(_ kind: Envelope.Kind, _ key: [UInt8]) throws(StoreError) -> [UInt8]? {
      guard let raw = try db.fetch(key), let r = try? Envelope.open(kind, raw) else { return nil }
      return Array(r.buffer[r.offset...])
    }
  }

  /// A small store's list of its keys, stored beside them (``Envelope/Kind/manifest``): the
  /// kind of store it belongs to, then the keys, sorted.
  struct Manifest {
    var kind: Envelope.Kind
    var keys: [[UInt8]]

    func encoded() -> [UInt8] {
      var w = ByteWriter()
      w.u8(kind.rawValue)
      w.varint(UInt64(keys.count))
      for key in keys { w.bytes(key) }
      return w.bytes
    }

    init(kind: Envelope.Kind, keys: [[UInt8]]) {
      self.kind = kind
      self.keys = keys.sorted { $0.lexicographicallyPrecedes($1) }
    }

    init(decoding payload: [UInt8]) throws(MalformedValue) {
      var r = ByteReader(payload)
      guard let kind = Envelope.Kind(rawValue: try r.u8()) else { throw MalformedValue() }
      self.kind = kind
      let n = try r.count()
      keys = []
      for _ in 0..<n { keys.append(Array(try r.bytes())) }
      guard r.isAtEnd else { throw MalformedValue() }
    }
  }

  private func manifest(_ raw: [UInt8]) throws(StoreError) -> Manifest {
    let decoded: Manifest? = {
      guard let r = try? Envelope.open(.manifest, raw) else { return nil }
      return try? Manifest(decoding: Array(r.buffer[r.offset...]))
    }()
    guard let m = decoded else { throw .damaged(path: path, detail: "its list of keys failed its checksum") }
    if m.kind != kind { throw .wrongKind(path: path, holds: m.kind, expected: kind) }
    return m
  }

  /// Runs `body` on the file opened for reading, or returns `empty` if there is no file.
  private func reading<T>(_ empty: T, _ body: (GDBMDatabase) throws(StoreError) -> T) throws(StoreError) -> T {
    let db: GDBMDatabase
    do throws(StoreError) {
      db = try GDBMDatabase(path: path, mode: .reader)
    } catch {
      if case .missing = error { return empty }
      throw error
    }
    defer { try? db.close() }
    return try body(db)
  }

  /// A stored value's payload, once its envelope checks out. An intact value of another
  /// store's kind means the file is that other store.
  private func payload(_ raw: [UInt8]) throws(StoreError) -> [UInt8] {
    do throws(MalformedValue) {
      let r = try Envelope.open(kind, raw)
      return Array(r.buffer[r.offset...])
    } catch {
      if let other = Envelope.kind(of: raw), other != kind { throw .wrongKind(path: path, holds: other, expected: kind) }
      throw .damaged(path: path, detail: "a value failed its checksum")
    }
  }

  /// Applies `change` to the current contents under the lock and publishes the result
  /// if anything changed. Returns what `change` returns.
  package func update<R>(
    under writers: WriterLock.Policy, _ change: (inout [[UInt8]: [UInt8]]) throws -> R
  ) throws -> R {
    let lock = try writers.acquire()
    defer { lock.release() }
    let before = try read()
    var after = before
    let result = try change(&after)
    if after != before || !FileSystem.exists(path) {
      try write(after, holding: lock)
    }
    return result
  }

  /// Replaces the file with exactly `contents`, under `lock`.
  package func write(_ contents: [[UInt8]: [UInt8]], holding lock: WriterLock) throws(StoreError) {
    try build(contents, holding: lock).publish()
  }

  /// A new file holding exactly `contents`, written beside the live one and not yet published.
  package func build(_ contents: [[UInt8]: [UInt8]], holding lock: WriterLock) throws(StoreError) -> StoreBuilder {
    let builder = try StoreBuilder(finalPath: path)
    for (key, payload) in contents {
      try builder.database.store(key, Envelope.seal(kind, payload))
    }
    let derived = index?.derive(contents) ?? [:]
    for (key, payload) in derived {
      try builder.database.store(key, Envelope.seal(.storeIndex, payload))
    }
    try builder.database.store(
      Self.manifestKey,
      Envelope.seal(.manifest, Manifest(kind: kind, keys: Array(contents.keys) + Array(derived.keys)).encoded()))
    return builder
  }
}
