/// A list of places held in memory as a ``NameSource``: the favourites, the cities with
/// air-quality readings. A place is a position in the list.
///
/// Each name is folded once, when the list is made; a lookup is a binary search over the
/// sorted keys and a prefix search one pass over the list, so everything the resolver asks
/// costs O(n) at most (completing 100k favourites once was quadratic).
package struct PlaceList: NameSource {
  package struct Item: Sendable {
    package var name: String
    package var country: String
    package var id: Int?
    /// The first-level region, where known (a favourite added from the world atlas).
    package var region: String?

    package init(name: String, country: String, id: Int? = nil, region: String? = nil) {
      self.name = name
      self.country = country
      self.id = id
      self.region = region
    }
  }

  package let items: [Item]
  /// Folded names, by position.
  private let keys: [[UInt8]]
  /// Offsets of the later words of each name (``Fold/wordStarts(_:)``).
  private let starts: [[Int]]
  /// Positions in order of folded name.
  private let sorted: [Int]
  /// Positions by id, for ids that more than one item has (those pick nothing alone).
  private let repeatedIDs: Set<Int>
  /// Steps taken by the last lookups (tests count work, not time).
  package let meter = Meter()

  package final class Meter: @unchecked Sendable {
    package var steps = 0
  }

  package var foldVersion: Int { Fold.version }

  package init(_ items: [Item]) {
    self.items = items
    var keys: [[UInt8]] = []
    var starts: [[Int]] = []
    keys.reserveCapacity(items.count)
    for item in items {
      let (key, s) = Fold.keyAndWordStarts(item.name)
      keys.append(key)
      starts.append(s)
    }
    self.keys = keys
    self.starts = starts
    sorted = items.indices.sorted { keys[$0].lexicographicallyPrecedes(keys[$1]) }
    var seen = Set<Int>()
    var repeated = Set<Int>()
    for id in items.compactMap(\.id) where !seen.insert(id).inserted { repeated.insert(id) }
    repeatedIDs = repeated
  }

  /// The first position in `sorted` whose key is not below `key`.
  private func lowerBound(_ key: [UInt8]) -> Int {
    var lo = 0
    var hi = sorted.count
    while lo < hi {
      meter.steps += 1
      let mid = (lo + hi) / 2
      if keys[sorted[mid]].lexicographicallyPrecedes(key) { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  package func places(named key: [UInt8]) -> [Int] {
    var out: [Int] = []
    var k = lowerBound(key)
    while k < sorted.count && keys[sorted[k]] == key {
      out.append(sorted[k])
      k += 1
    }
    return out.sorted()
  }

  package func hasName(startingWith key: [UInt8]) -> Bool {
    let k = lowerBound(key)
    return k < sorted.count && keys[sorted[k]].starts(with: key)
  }

  /// Name starts first, then later-word starts, each in list order.
  package func places(startingWith key: [UInt8], limit: Int) -> (total: Int, places: [Int]) {
    var names: [Int] = []
    var words: [Int] = []
    for (i, name) in keys.enumerated() {
      meter.steps += 1
      if name.starts(with: key) {
        names.append(i)
      } else if starts[i].contains(where: { name.count - $0 >= key.count && name[$0..<($0 + key.count)].elementsEqual(key) }) {
        words.append(i)
      }
    }
    return (names.count + words.count, Array((names + words).prefix(limit)))
  }

  package func places(withID id: Int) -> [Int] {
    items.indices.filter { items[$0].id == id }
  }

  /// The first ``Resolver/typoScan`` names of the list, whatever their first letter.
  package func typoNames(for key: [UInt8], _ body: ([UInt8]) -> Void) {
    for name in keys.prefix(Resolver<Self>.typoScan) { body(name) }
  }

  package func qualifiers(of i: Int) -> Qualifiers { Qualifiers(country: items[i].country, region: items[i].region) }

  package func identity(of i: Int) -> CityIdentity { CityIdentity(name: items[i].name, country: items[i].country) }

  package func candidate(_ i: Int) -> Candidate {
    let item = items[i]
    return Candidate(
      name: item.name, country: item.country, id: item.id.flatMap { repeatedIDs.contains($0) ? nil : $0 }, region: item.region)
  }
}

extension PlaceList {
  /// The favourites, in the order they were added.
  package init(favourites: [Favourite]) {
    self.init(favourites.map { Item(name: $0.name, country: $0.country, id: $0.id, region: $0.region) })
  }

  /// Cities with air-quality readings, by their recorded names: "Name, Country" as
  /// Open-Meteo records them, or the feed's bare name (its country unknown).
  package init(airQuality histories: [AQIHistory]) {
    self.init(
      histories.map { h in
        // "Name", "Name, Country", "Name, Region, Country" (two places of one name in one
        // country: ``OpenMeteoAirQuality/names(_:regions:)``), or "Name, Country, id N" (no
        // region tells them apart: the catalogue id does).
        if let labelled = OpenMeteoAirQuality.withID(h.city) {
          let parts = labelled.head.split(separator: ",", maxSplits: 1).map { String($0).trimmingSpaces }
          if parts.count == 2 { return Item(name: parts[0], country: parts[1], id: labelled.id) }
        }
        let parts = h.city.split(separator: ",", maxSplits: 2).map { String($0).trimmingSpaces }
        switch parts.count {
        case 2: return Item(name: parts[0], country: parts[1])
        case 3: return Item(name: parts[0], country: parts[2], region: parts[1])
        default: return Item(name: h.city, country: "")
        }
      })
  }

  /// The positions, in list order, whose folded name or a later word of it starts with
  /// `query` as search matches (``Resolver/keys(_:insertions:)``): the browse favourites
  /// filter.
  package func matching(_ query: String) -> [Int] {
    let q = Fold.key(query)
    guard !q.isEmpty else { return [] }
    for key in Resolver<PlaceList>.keys(q) {
      let hits = places(startingWith: key, limit: .max)
      if hits.total > 0 { return hits.places.sorted() }
    }
    return []
  }
}

extension FavouritesStore {
  /// The favourites unquoted `words` name for removal, each once: runs of words split over
  /// the favourites' names and the catalogue's (``Resolver/split(_:or:)``), each name
  /// resolved among the favourites (a favourite the catalogue no longer holds stays
  /// removable), else through `catalogue`. A place that is no favourite is returned all the
  /// same: removing it says so. Throws ``LookupError`` for a name that fits several
  /// favourites or no place.
  package static func favourites(
    named words: [String], among favourites: [Favourite], catalogue: Catalogue?
  ) throws -> [Favourite] {
    try Self.favourites(named: words, among: favourites, places: catalogue.map { PlaceFinder(catalogue: $0, atlas: nil) })
  }

  /// ``favourites(named:among:catalogue:)`` where a name that is no favourite's is looked up
  /// in the catalogue and the atlas (`wx fav rm tokyo` removes the sample's 東京), and is
  /// the favourite that is that place (``PlaceFinder/favourite(of:among:)``: `fav rm
  /// "Springfield, MO"` is not Illinois'; `fav rm mumbai` is a catalogue's Bombay).
  package static func favourites(
    named words: [String], among favourites: [Favourite], places finder: PlaceFinder?
  ) throws -> [Favourite] {
    let resolver = Resolver(PlaceList(favourites: favourites))
    // The place a name is in the world's reading, as `fav add` reads it; nil where it names
    // no one place (a store that cannot be read still says so).
    func world(_ name: String) throws -> Found? {
      guard let finder else { return nil }
      do { return try finder.lookup(name).found } catch is LookupError { return nil }
    }
    var out: [Favourite] = []
    for name in try resolver.split(words, or: finder?.names) {
      let named: Favourite
      switch try resolver.resolve(name) {
      case .one(let i):
        named = favourites[i]
        // Unless the name is another favourite in the world's reading, as `fav add` read it:
        // `Sankt Gallen` is the Swiss town, a favourite as the catalogue's St. Gallen, and
        // removed the Austrian village, a favourite by that spelling. Both are offered.
        // (A favourite stays removable by its name whatever the stores say.)
        if let finder, let found = (try? world(name)) ?? nil, let other = try finder.favourite(of: found, among: favourites),
          other != named, let k = favourites.firstIndex(of: other)
        {
          throw LookupError.ambiguous(query: name, candidates: [i, k].map(resolver.source.candidate))
        }
      case .several(let hits):
        throw LookupError.ambiguous(query: name, candidates: hits.map(resolver.source.candidate))
      case .none:
        guard let finder, let found = try world(name), let kept = try finder.favourite(of: found, among: favourites) else {
          throw FavouritesError.notAFavourite([name])
        }
        named = kept
      }
      if !out.contains(named) { out.append(named) }
    }
    return out
  }
}
