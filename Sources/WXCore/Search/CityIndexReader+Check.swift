extension CityIndexReader {
  /// For `wx doctor`: every entry of the index's two arrays (`names` and `words` long), read
  /// 65,536 at a time, is there and points below `count` (the catalogue's cities, the
  /// atlas's places); else the index of the store at `path` is damage.
  func checkEntries(names: Int, words: Int, below count: Int, path: String) throws(StoreError) {
    for (tag, total) in [("n" as Character, names), ("w", words)] {
      var k = 0
      while k < total {
        let end = min(total, k + (1 << 16))
        let entries = try entries(tag, k..<end)
        guard entries.count == end - k, entries.allSatisfy({ $0.ref < count }) else {
          throw .damaged(path: path, detail: "the search index is incomplete")
        }
        k = end
      }
    }
  }
}
