extension CityIndexReader {
  /// The name entries of `names` (a match's range of the name array) whose key is exactly
  /// `key`: they sort first, so the scan stops at the first other key. At most `limit`;
  /// `countries`: with their countries (``entries(_:_:countries:)``). The catalogue's exact
  /// names, the atlas's places of a name and a search's exactly named cities all read them
  /// here.
  package func exactEntries(_ key: [UInt8], in names: Range<Int>, limit: Int = .max, countries: Bool = false)
    throws(StoreError) -> [CityIndex.Entry]
  {
    var out: [CityIndex.Entry] = []
    var k = names.lowerBound
    scan: while k < names.upperBound && out.count < limit {
      let chunk = try entries("n", k..<min(names.upperBound, k + CityIndex.blockSize), countries: countries)
      for e in chunk {
        guard e.key == key, out.count < limit else { break scan }
        out.append(e)
      }
      k += max(1, chunk.count)  // a damaged block of fewer entries than its range cannot stall it
    }
    return out
  }
}
