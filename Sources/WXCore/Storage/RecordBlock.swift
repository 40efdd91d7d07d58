/// A block of up to ``CatalogueKey/citiesPerBlock`` length-prefixed records under `c` + block
/// number, as the catalogue stores its cities and the atlas its places: each record is read
/// alone, only when asked for.
enum RecordBlock {
  /// The records of block `b` and the envelope's schema; a missing or unreadable block is
  /// damage, worded with `named` ("record block 12 is missing").
  static func load(
    _ db: GDBMDatabase, _ b: Int, _ kind: Envelope.Kind, versions: ClosedRange<UInt8>, named: String
  ) throws(StoreError) -> (records: [ArraySlice<UInt8>], version: UInt8) {
    guard let raw = try db.fetch(CatalogueKey.block("c", b)) else {
      throw .damaged(path: db.path, detail: "\(named) \(b) is missing")
    }
    do throws(MalformedValue) {
      var (r, version) = try Envelope.open(kind, raw, versions: versions)
      let n = try r.count(limit: CatalogueKey.citiesPerBlock)
      var out: [ArraySlice<UInt8>] = []
      out.reserveCapacity(n)
      for _ in 0..<n { out.append(try r.bytes()) }
      return (out, version)
    } catch {
      throw .damaged(path: db.path, detail: "\(named) \(b) is unreadable")
    }
  }
}
