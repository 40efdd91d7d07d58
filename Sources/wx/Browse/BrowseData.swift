import Glibc
import WXCore

/// One row of a browse list: a city of the catalogue, or a favourite the current catalogue
/// no longer holds (`city == nil`).
struct BrowseRow: Equatable {
  var identity: CityIdentity
  var city: City?
  /// An atlas place without weather (a search result): its GeoNames id, which is no id of
  /// the catalogue's.
  var geonameID: Int? = nil
  /// The favourite a row of the favourites list shows (which of two of one name it is).
  var favourite: Favourite? = nil
  /// A search row's city and atlas place (its region tells two of one name apart).
  var found: Found? = nil

  /// The place a star on this row adds or removes (``Favourite/samePlace(as:)``).
  var place: Favourite {
    if let favourite { return favourite }
    if let found = found ?? city.map({ Found(city: $0, place: nil) }) { return Favourite(found, added: 0, sequence: 0) }
    return Favourite(name: identity.name, country: identity.country, id: 0, added: 0, sequence: 0)
  }
}

/// What `wx browse` reads, with a small cache: pages of the catalogue, search results,
/// rain-free cities and favourites, one screenful per fetch.
///
/// The catalogue is reopened when a `wx sync` renamed a new one into place (its inode
/// changed) and the favourites reread when another wx replaced them, checked by
/// ``refresh()`` on every key and every second.
final class BrowseData {
  struct Page: Equatable {
    var total: Int
    var rows: [BrowseRow]
  }

  let home: Home
  private(set) var catalogue: Catalogue
  private var catalogueInode: (dev: UInt64, ino: UInt64)?
  private var favouritesStamp: [Int64]?
  private(set) var favourites: [Favourite] = []
  /// The favourites by name and country (``CityIdentity/key``): a row's star is looked up
  /// among those of its name only.
  private var favouritesByKey: [[UInt8]: [Favourite]] = [:]
  /// ``favourite(of:)`` of rows that needed the atlas, by row (nil inside: none).
  private var otherNamed: [String: Favourite?] = [:]
  /// Recently shown pages, newest last: (list, query, offset, limit) → page.
  private var cache: [(key: String, page: Page)] = []
  private static let cachedPages = 8

  /// The world atlas, searched with the catalogue as `wx search` does (nil: the catalogue alone).
  private let atlas: Atlas?

  init(home: Home, console: Console) throws {
    self.home = home
    catalogue = try home.openCatalogue().catalogue
    catalogueInode = Self.inode(home.cataloguePath)
    atlas = try Context.atlas(for: home, console)
    try loadFavourites()
  }

  deinit {
    catalogue.close()
    atlas?.close()
  }

  /// Reopens the catalogue after a rename and rereads changed favourites. True when either
  /// changed (the cached pages are then dropped).
  @discardableResult
  func refresh() throws -> Bool {
    var changed = false
    let now = Self.inode(home.cataloguePath)
    if let now, now.dev != catalogueInode?.dev || now.ino != catalogueInode?.ino {
      let fresh = try Catalogue(path: home.cataloguePath)
      catalogue.close()
      catalogue = fresh
      catalogueInode = now
      changed = true
    }
    if Self.stamp(home.favouritesPath) != favouritesStamp {
      try loadFavourites()
      changed = true
    }
    if changed {
      cache.removeAll()
      otherNamed = [:]
    }
    return changed
  }

  /// Whether the row's place is a favourite (``favourite(of:)``: of two Springfields, only
  /// the one kept is starred; Mumbai's row when the catalogue's Bombay is one).
  func isFavourite(_ row: BrowseRow) -> Bool { favourite(of: row) != nil }

  /// The favourite the row's place is: of its name and country (``Favourite/best(among:)``),
  /// else, with the atlas, one of another name that is the same place, by the rule `wx fav`
  /// follows (``PlaceFinder/favourite(of:among:)``), worked out once a row while the
  /// favourites and the catalogue stay.
  func favourite(of row: BrowseRow) -> Favourite? {
    if let f = row.favourite { return f }
    if let named = favouritesByKey[row.identity.key], let f = row.place.best(among: named) { return f }
    guard let atlas, !favourites.isEmpty, row.found?.place != nil || row.city != nil else { return nil }
    let key = "\(row.identity.name)\u{0}\(row.identity.country)\u{0}\(row.city?.id ?? -1)\u{0}\(row.geonameID ?? -1)"
    if let known = otherNamed[key] { return known }
    let finder = PlaceFinder(catalogue: catalogue, atlas: atlas)
    var kept: Favourite? = nil
    if let found = row.found ?? row.city.flatMap({ try? finder.found($0) }) {
      kept = (try? finder.favourite(ofOtherName: found, among: favourites)) ?? nil
    }
    otherNamed[key] = .some(kept)
    return kept
  }

  /// Shows `row` as (not) a favourite at once, before ``saveFavourite(_:adding:removing:now:)``
  /// writes it: a key is drawn first, the locked write (with its fsync) follows. Returns the
  /// favourite taken off, for the write to remove.
  @discardableResult
  func previewFavourite(_ row: BrowseRow, adding: Bool, now: Int64) -> Favourite? {
    var gone: Favourite? = nil
    if adding {
      var f = row.place
      (f.added, f.sequence) = (now, (favourites.map(\.sequence).max() ?? 0) + 1)
      favourites.append(f)
    } else if let f = favourite(of: row) {
      gone = f
      favourites.removeAll { $0 == f }
    }
    index()
    cache.removeAll()
    return gone
  }

  /// Adds or removes a favourite through the locked store `wx fav` uses (a concurrent
  /// `wx fav add` is kept), then rereads the favourites, also when it fails. `removing`:
  /// the favourite the preview took off (which may be of another name than the row's).
  func saveFavourite(_ row: BrowseRow, adding: Bool, removing: Favourite? = nil, now: Int64) throws {
    defer {
      try? loadFavourites()
      cache.removeAll()
    }
    try home.prepare()
    if adding, let found = row.found ?? row.city.map({ Found(city: $0, place: nil) }) {
      _ = try home.favourites.add([found], now: now)
    } else if !adding {
      try home.favourites.remove([removing ?? row.place])
    }
  }

  /// Rows `offset ..< offset+limit` of a list, and how many it has in all.
  func page(_ list: BrowseList, query: String, offset: Int, limit: Int) throws -> Page {
    let key = "\(list.rawValue)\u{0}\(query)\u{0}\(offset)\u{0}\(limit)"
    if let hit = cache.firstIndex(where: { $0.key == key }) {
      let entry = cache.remove(at: hit)
      cache.append(entry)
      return entry.page
    }
    catalogue.forgetBlocks()
    let page = try fetch(list, query: query, offset: offset, limit: limit)
    cache.append((key, page))
    if cache.count > Self.cachedPages { cache.removeFirst() }
    return page
  }

  private func fetch(_ list: BrowseList, query: String, offset: Int, limit: Int) throws -> Page {
    func rows(_ cities: [City]) -> [BrowseRow] { cities.map { BrowseRow(identity: $0.identity, city: $0) } }
    if list == .favourites {
      let matching = query.isEmpty ? favourites : PlaceList(favourites: favourites).matching(query).map { favourites[$0] }
      var out: [BrowseRow] = []
      for f in matching.dropFirst(offset).prefix(limit) {
        out.append(BrowseRow(identity: f.identity, city: try catalogue.find(f.identity)?.city, favourite: f))
      }
      return Page(total: matching.count, rows: out)
    }
    if !query.isEmpty {
      // Catalogue cities and atlas places (a place without weather is a city without it).
      let result = try PlaceFinder(catalogue: catalogue, atlas: atlas).search(query, offset: offset, limit: limit)
      let found = result.items.map { f in
        BrowseRow(identity: f.asCity.identity, city: f.asCity, geonameID: f.hasWeather ? nil : f.place?.geonameID, found: f)
      }
      return Page(total: result.total, rows: found)
    }
    if list == .hottest {
      return Page(total: catalogue.meta.dryCount, rows: rows(try catalogue.dry(offset: offset, limit: limit)))
    }
    return Page(total: catalogue.meta.count, rows: rows(try catalogue.page(order: .catalogue, offset: offset, limit: limit)))
  }

  private func loadFavourites() throws {
    favouritesStamp = Self.stamp(home.favouritesPath)
    favourites = try home.favourites.list()
    index()
  }

  private func index() {
    otherNamed = [:]
    favouritesByKey = [:]
    for f in favourites { favouritesByKey[f.identity.key, default: []].append(f) }
  }

  private static func inode(_ path: String) -> (dev: UInt64, ino: UInt64)? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return (UInt64(st.st_dev), UInt64(st.st_ino))
  }

  /// Device, inode, size and modification time: a file replaced or rewritten looks different.
  private static func stamp(_ path: String) -> [Int64]? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return [Int64(st.st_dev), Int64(st.st_ino), Int64(st.st_size), Int64(st.st_mtim.tv_sec), Int64(st.st_mtim.tv_nsec)]
  }
}
