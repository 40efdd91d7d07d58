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

  package init(path: String, kind: Envelope.Kind) {
    self.path = path
    self.kind = kind
  }

  /// Every key with its payload. A missing file is an empty store; a damaged one is an error.
  package func read() throws(StoreError) -> [[UInt8]: [UInt8]] {
    try reading([:]) { (db) throws(StoreError) in
      var out: [[UInt8]: [UInt8]] = [:]
      for key in try db.keys() {
        guard let raw = try db.fetch(key) else { continue }
        out[key] = try payload(raw)
      }
      return out
    }
  }

  /// The payloads under `keys` (nil where absent), reading only those values: the cheap
  /// path for read commands that need one or two settings.
  package func values(_ keys: [[UInt8]]) throws(StoreError) -> [[UInt8]?] {
    try reading(keys.map { _ in nil }) { (db) throws(StoreError) in
      var out: [[UInt8]?] = []
      for key in keys {
        out.append(try db.fetch(key).map { (raw) throws(StoreError) in try payload(raw) })
      }
      return out
    }
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

  /// A stored value's payload, once its envelope checks out.
  private func payload(_ raw: [UInt8]) throws(StoreError) -> [UInt8] {
    do throws(MalformedValue) {
      let r = try Envelope.open(kind, raw)
      return Array(r.buffer[r.offset...])
    } catch {
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
    let builder = try StoreBuilder(finalPath: path)
    for (key, payload) in contents {
      try builder.database.store(key, Envelope.seal(kind, payload))
    }
    try builder.publish()
  }
}
