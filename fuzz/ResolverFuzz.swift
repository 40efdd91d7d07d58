// libFuzzer target: city-name resolution and search over a real catalogue file.
//
// Built by fuzz/build.sh together with all of Sources/WXCore (one module, so `package`
// declarations are visible without an import). At start-up it decodes the bundled sample
// (Data/sample-weathers.json, or $WX_FUZZ_SAMPLE), writes a GDBM catalogue with the same code
// `wx` uses (StoreBuilder + CatalogueWriter + publish) in a temporary folder, opens it and
// unlinks it (the open handle keeps it readable; nothing is left behind).
//
// Each input is a query (invalid UTF-8 is repaired, as for command-line arguments) given to
// Catalogue.resolve, Catalogue.search (whole result and one page) and Catalogue.completions.
// Besides "does not crash", it checks that:
// - search agrees with a brute-force scan of the folded names (total, order, paging);
// - a resolved city is the one stored at the index it names; ambiguity lists 2+ cities;
// - "not found" suggestions are those of the longest matching prefix (for short queries).
// A broken property is reported with `fatalError`, which libFuzzer records as a crash.

import Glibc

private struct Fixture {
  let catalogue: Catalogue
  let cities: [City]
  let folded: [[UInt8]]
  /// Catalogue positions sorted by (folded name, folded country, position): the search rank.
  let rank: [Int]
  let position: [Int]
}

nonisolated(unsafe) private var fixture: Fixture!

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  fixture = makeFixture()
  return 0
}

private func makeFixture() -> Fixture {
  let sample = getenv("WX_FUZZ_SAMPLE").map { String(cString: $0) } ?? fuzzDefaultSamplePath
  do {
    let cities = try FreeTestAPIDecoder.decode(try FileSystem.read(sample))
    let tmp = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(tmp)/wx-resolver-fuzz.XXXXXX".utf8CString)
    guard let dir = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) })
    else { fatalError("mkdtemp failed: errno \(errno)") }
    let path = dir + "/catalogue.gdbm"
    let builder = try StoreBuilder(finalPath: path)
    try CatalogueWriter.write(
      cities,
      meta: CatalogueMeta(generation: 1, source: "sample:" + sample, provider: "sample", syncedAt: 0, count: 0, isSample: true),
      into: builder.database)
    try builder.publish()
    let catalogue = try Catalogue(path: path)
    FileSystem.remove(path)
    rmdir(dir)
    guard try catalogue.all() == cities else { fatalError("the catalogue does not read back as the sample") }

    let folded = cities.map { Fold.key($0.name) }
    let countries = cities.map { Fold.key($0.country) }
    let rank = cities.indices.sorted { a, b in
      let c = CityIndex.compare(folded[a], folded[b])
      if c != 0 { return c < 0 }
      let d = CityIndex.compare(countries[a], countries[b])
      return d != 0 ? d < 0 : a < b
    }
    var position = [Int](repeating: 0, count: cities.count)
    for (r, i) in rank.enumerated() { position[i] = r }
    fputs("resolver-fuzz: catalogue of \(cities.count) cities from \(sample)\n", stderr)
    return Fixture(catalogue: catalogue, cities: cities, folded: folded, rank: rank, position: position)
  } catch {
    fatalError("resolver-fuzz set-up failed: \(error)")
  }
}

/// The documented search order, the slow way: name starts in rank order, then cities matched
/// only by a later word, by that word's folded text, then rank.
private func bruteForce(_ f: Fixture, _ q: [UInt8]) -> [Int] {
  let names = f.rank.filter { f.folded[$0].starts(with: q) }
  var words: [(key: ArraySlice<UInt8>, city: Int)] = []
  for i in f.cities.indices where !f.folded[i].starts(with: q) {
    if let start = Fold.wordStarts(of: f.cities[i].name).first(where: { f.folded[i][$0...].starts(with: q) }) {
      words.append((f.folded[i][start...], i))
    }
  }
  words.sort { a, b in
    let c = CityIndex.compare(Array(a.key), Array(b.key))
    return c != 0 ? c < 0 : f.position[a.city] < f.position[b.city]
  }
  return names + words.map(\.city)
}

/// Suggestions the slow way: each shorter prefix in turn (quadratic; short queries only).
private func linearSuggestions(_ c: Catalogue, _ query: String) throws(StoreError) -> [City] {
  var scalars = Array(query.unicodeScalars)
  while scalars.count > 1 {
    scalars.removeLast()
    var s = ""
    s.unicodeScalars.append(contentsOf: scalars)
    let page = try c.search(s, offset: 0, limit: 5)
    if page.total > 0 { return page.cities }
  }
  return []
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let query = String(decoding: bytes, as: UTF8.self)
  let f = fixture!
  let c = f.catalogue
  do {
    // Resolution.
    switch try c.resolve(query) {
    case .found(let index, let city):
      guard try c.city(index) == city else { fatalError("resolve found index \(index) but another city") }
    case .ambiguous(let list):
      guard list.count >= 2 else { fatalError("resolve reported ambiguity with \(list.count) cities") }
    case .notFound(let suggestions):
      // Without a comma, suggestions are the results for the longest proper prefix (in scalars)
      // of the trimmed query that matches anything: check against trying them one by one.
      let trimmed = query.trimmingSpaces
      if !trimmed.contains(","), trimmed.unicodeScalars.count <= 64 {
        let expected = try linearSuggestions(c, trimmed)
        guard suggestions == expected else {
          fatalError("suggestions \(suggestions.map(\.id)), expected \(expected.map(\.id))")
        }
      }
    }

    // Search: the whole result against the brute-force order, then one page of it.
    let q = Fold.key(query)
    let expected = q.isEmpty ? [] : bruteForce(f, q)
    let all = try c.search(query, offset: 0, limit: f.cities.count + 1)
    guard all.total == expected.count, all.cities == expected.map({ f.cities[$0] }) else {
      fatalError("search \(q) gave \(all.total) \(all.cities.map(\.id)), expected \(expected.map { f.cities[$0].id })")
    }
    let offset = size > 0 ? Int(bytes[0]) % 16 : 0
    let limit = size > 1 ? 1 + Int(bytes[size - 1]) % 8 : 5
    let page = try c.search(query, offset: offset, limit: limit)
    let window = Array(expected.dropFirst(offset).prefix(limit)).map { f.cities[$0] }
    guard page.total == expected.count, page.cities == window else {
      fatalError("search \(q) page \(offset)+\(limit) gave \(page.cities.map(\.id)), expected \(window.map(\.id))")
    }

    // Completions: folded-name starts only, each name once.
    let names = try c.completions(query, limit: 10)
    guard names.count <= 10, Set(names).count == names.count else { fatalError("completions \(names)") }
  } catch {
    // The catalogue is intact, so no StoreError is acceptable here.
    fatalError("unexpected error for query \(Array(query.utf8)): \(error)")
  }
  return 0
}
