extension PlaceFinder {
  // MARK: Search

  /// Catalogue cities and atlas places whose name (or a later word of it) starts with
  /// `query`, or of which `query` is an alternate name: name starts first, then later words,
  /// each largest first (a catalogue city that is no atlas place after the places, in the
  /// catalogue's order); a catalogue city that is an atlas place is listed once, with both.
  /// "Name, Qualifier" searched as `wx show` reads it: the places whose name (or a later word)
  /// starts with Name and whose country (a name or a code), region or region code the
  /// qualifier names whole (``Qualifiers/fit(_:lines:version:)``: `Springfield, IL`, `Bangor,
  /// Wales`, `Paris, FR`), and "Name, Region, Country" with both parts fitting. The first
  /// 2,000 matches of Name are read.
  package func search(_ name: String, qualifier: String, offset: Int, limit: Int) throws(StoreError) -> (
    total: Int, items: [Found]
  ) {
    // The qualifier whole (a country may have a comma: `Bonaire, Saint Eustatius and Saba`),
    // else "Region, Country" (`Springfield, Missouri, United States`), each part fitting whole.
    let whole = Fold.key(qualifier.trimmingSpaces)
    let parts = qualifier.split(separator: ",").map { Fold.key(String($0).trimmingSpaces) }
    let typed = [whole] + (parts.count == 2 && !parts.contains([]) ? parts : [])
    let lines = typed.map { Countries.lines(naming: $0, version: Fold.version) }  // once, not per place
    guard !whole.isEmpty else { return (0, []) }
    let matches = try search(name, offset: 0, limit: 2_000, otherNames: false).items
    let fits = matches.map { found in
      let q = Qualifiers(of: found)
      return zip(typed, lines).map { q.fit($0, lines: $1, version: Fold.version) }
    }
    var all = zip(matches, fits).filter { $1[0] == .exact || $1.count == 3 && $1[1] == .exact && $1[2] == .exact }.map(\.0)
    // None fits whole: those of a territory of the state it names (`Nuuk, Denmark`), else
    // those whose country or region the qualifier begins, as `wx show` reads it (`Berlin,
    // Germ`, `Sarajevo, Bosnia`).
    for weaker in [Countries.Fit.sovereign, .prefix, .sovereignPrefix] where all.isEmpty {
      all = zip(matches, fits).filter { $1[0] == weaker }.map(\.0)
    }
    return (all.count, try withOtherNamedCities(Array(all.dropFirst(offset).prefix(limit))))
  }

  /// `otherNames`: a place of the page listed without a catalogue city is given the one it is
  /// under another name, as `wx show` finds it (``withOtherNamedCities(_:)``); the resolver,
  /// which finds it itself for the place it picks, and completion, which offers the place's
  /// own name, ask without.
  package func search(_ query: String, offset: Int, limit: Int, variants: Bool = true, otherNames: Bool = true)
    throws(StoreError) -> (total: Int, items: [Found])
  {
    // `St Paul` is Saint Paul too, `St Gallen` Sankt Gallen and `Mt Vernon` Mount Vernon, as
    // `wx show` reads them (``WorldNames/otherSpellings(_:)``): every spelling is listed,
    // merged by rank (`St Paul`: Saint Paul, Minnesota, Saint-Paul, Réunion, then St. Paul,
    // Alberta, as `wx show` lists them). Each spelling's first `offset + limit` hold the
    // merged page's, so every page agrees. Not the word still being typed (`st` is every name
    // starting so).
    let others = variants ? Self.otherSpellings(catalogue.fold(query)) : []
    guard !others.isEmpty else {
      let r = try searchSpelled(query, offset: offset, limit: limit, variants: variants)
      return (r.total, otherNames ? try withOtherNamedCities(r.items) : r.items)
    }
    // At least the first `spellingWindow` of each, whatever the page: the places two list,
    // taken off the total, are counted there, so every page and page size gives one total.
    let window = max(offset + limit, Self.spellingWindow)
    var runs = [try searchSpelled(query, offset: 0, limit: window, variants: variants)]
    for other in others {
      runs.append(try searchSpelled(String(decoding: other, as: UTF8.self), offset: 0, limit: window, variants: variants))
    }
    var merged: [(rank: (Int, Int, Int, Int), item: Found)] = []
    for (n, run) in runs.enumerated() {
      for (k, item) in run.items.enumerated() { merged.append(((run.ranks[k].0, run.ranks[k].1, n, k), item)) }
    }
    merged.sort { $0.rank < $1.rank }
    // A place two spellings name (an alternate name of it is the other) once, at its best
    // rank; so is one GeoNames lists under each spelling at one spot (Vancouver's Mount
    // Pleasant and Mt Pleasant, 33,000 and 32,955 people), as the atlas keeps one of two
    // places of one name at one spot (``AtlasWriter/SameSpot``).
    var kept: [(place: Place, spelling: Int)] = []
    var repeats = 0
    merged.removeAll { e in
      guard let p = e.item.place else { return false }
      let twin = kept.contains { k in
        // Across the spellings only: one spelling's list keeps a place's catalogue twins
        // (`Ljubljana, SI` and `Ljubljana, Slovenia`), as a search without St/Mt/Ft does.
        k.spelling != e.rank.2 && (k.place.position == p.position || Self.spellingTwins(k.place, p))
      }
      if twin {
        repeats += 1
        return true
      }
      kept.append((p, e.rank.2))
      return false
    }
    // At least the rows listed so far, when this page has any: past the end, the estimate
    // itself (it said "there are 999 pages" of page 1000).
    let shown = min(limit, max(0, merged.count - offset))
    let total = max(runs.reduce(0) { $0 + $1.total } - repeats, shown > 0 ? offset + shown : 0)
    let page = Array(merged.dropFirst(offset).prefix(limit).map(\.item))
    return (total, otherNames ? try withOtherNamedCities(page) : page)
  }

  /// Rows each spelling's list is read to, at least (``search(_:offset:limit:variants:)``).
  static let spellingWindow = 100

  /// Whether `a` and `b` are one town GeoNames lists under each spelling of St/Mt/Ft at one
  /// spot (Vancouver's Mount Pleasant and Mt Pleasant; St Johnsbury and Saint Johnsbury,
  /// Vermont, 0.7 km apart): the same country and region, the name but for the spelling
  /// (``sameSpelledName(_:_:)``), within ``AtlasWriter/SameSpot/within``, as the atlas keeps
  /// one of two places of one name at one spot. Search lists them once, resolution counts
  /// them once (``WorldNames/places(named:)``), and so does a note's count of namesakes.
  static func spellingTwins(_ a: Place, _ b: Place) -> Bool {
    a.countryCode == b.countryCode && a.region == b.region && sameSpelledName(a.name, b.name)
      && Place.distance(a.latitude, a.longitude, b.latitude, b.longitude) <= AtlasWriter.SameSpot.within
  }

  /// Whether two names are one but for St/Saint/Sankt, Mt/Mount, Ft/Fort (Mt Pleasant and
  /// Mount Pleasant; not St Kilda East and Saint Kilda, 2 km apart).
  static func sameSpelledName(_ a: String, _ b: String) -> Bool {
    let (x, y) = (Fold.key(a), Fold.key(b))
    return x == y || WorldNames.otherSpellings(x).contains(y)
  }

  /// `key` with its abbreviated words spelled each other way but the last (still being
  /// typed): empty when it has none.
  static func otherSpellings(_ key: [UInt8]) -> [[UInt8]] {
    guard let space = key.lastIndex(of: 0x20) else { return [] }
    return WorldNames.otherSpellings(Array(key[..<space])).map { $0 + key[space...] }
  }

  /// ``search(_:offset:limit:variants:)`` of the words as typed.
  /// `ranks`: each item's (class, place position) as the list is ordered, to merge two
  /// spellings' lists.
  func searchSpelled(_ query: String, offset: Int, limit: Int, variants: Bool) throws(StoreError) -> (
    total: Int, items: [Found], ranks: [(Int, Int)]
  ) {
    guard let atlas else {
      let cat = try catalogue.search(query, offset: offset, limit: limit, variants: variants)
      return (cat.total, cat.cities.map { Found(city: $0, place: nil) }, Array(repeating: (1, Int.max), count: cat.cities.count))
    }
    // The catalogue's matches whole when they are few; else the first `offset + limit` (name
    // order: those named exactly the query first), and the places listed find their own
    // catalogue city below. Reading 200 scattered cities and linking each was most of `wx
    // search par` at a million cities (10.6 M of 16 M instructions), and still missed Paris's
    // weather, which was not among the first 200 names beginning "par".
    let window = try catalogue.searchWindow(query, variants: variants)
    let whole = window.total <= Self.catalogueMatches
    let places = try atlas.search(query, offset: 0, limit: offset + limit, variants: variants)
    let q = places.key.isEmpty ? catalogue.fold(query) : places.key
    let alternates = try atlas.alternates(q).map(\.position)
    // Every place named exactly so, though the window of ranks below would not reach it.
    // What is asked of the ranked places is read once, by index: a place is a dozen strings,
    // and each pass of `map` over them copied each (0.65 M instructions of `search par` at a
    // million cities).
    var ranked = places.places
    var rankedPositions: [Int] = []
    var folds: [[UInt8]] = []
    var exactPeople = 0
    var largest = 0
    var ranks = 0  // name-start matches
    for i in ranked.indices {
      rankedPositions.append(ranked[i].place.position)
      folds.append(catalogue.fold(ranked[i].place.name))
      largest = max(largest, ranked[i].place.population)
      if folds[i] == q { exactPeople = max(exactPeople, ranked[i].place.population) }
      if ranked[i].nameMatch { ranks += 1 }
    }
    // And every place the query is another name of (`saint paul`: Saint-Paul-en-Chablais,
    // also called Saint-Paul): listed once the window reached it, it came before smaller
    // towns of the name itself, so pages of 3 skipped it.
    for p in try atlas.namedPlaces(q) where !rankedPositions.contains(p.position) {
      let own = catalogue.fold(p.name) == q
      guard own || alternates.contains(p.position) else { continue }
      ranked.append((p, true))
      rankedPositions.append(p.position)
      folds.append(own ? q : catalogue.fold(p.name))
      if own { exactPeople = max(exactPeople, p.population) }
      ranks += 1
    }
    // Past 200 catalogue matches, when the atlas has more places whose name starts so than the
    // window reads, a catalogue city not named exactly the query is listed only as the place
    // it is (below, its own city): one that is no place comes after every place read, past
    // this page, and so does one whose place is. So only those named exactly so are read.
    // Reading the first 20 names and looking up each one's place was a sixth of `wx search
    // par` at a million cities (39 of its 108 store reads).
    let more1 = places.nameMatches > ranks, more2 = places.total > ranked.count
    // At least the first `sample`, whatever the page: pages of one row read one twin of a place
    // named exactly so (`Paris, FR` and `Paris, France`) or both, and listed another row twice.
    let reach = max(offset + limit, Self.sample)
    let cities =
      whole || !more1
      ? try catalogue.cities(in: window, offset: 0, limit: reach, wholeUpTo: Self.catalogueMatches)
      : try catalogue.exactCities(in: window, limit: reach)
    // (class, rank, catalogue order): 0 named exactly the query, 1 name start, 2 later word;
    // rank a place's position (largest first). Exactly named first: a town before the
    // districts within it (`paris`: the Parises, then Paris 15 Vaugirard…).
    var keyed: [(key: (Int, Int, Int), item: Found)] = []
    // Place positions and their indices in keyed, the last for a position counting: arrays, as
    // a Dictionary's Hashable check at run time cost 0.24 M instructions, more than these lookups.
    var twinPositions: [Int] = []
    var twinIndices: [Int] = []
    // The catalogue cities listed, by record: asking `keyed` copied each of its entries for
    // each place (2,000 copies, 0.8 M instructions of `search par` at a million cities).
    var listedCities: [City.RecordKey] = []
    var overlap = 0
    for (k, city) in cities.enumerated() {
      let cityKey = catalogue.fold(city.name)
      let nameMatch = cityKey.starts(with: q)
      let place = try self.place(of: city)
      if let place {
        // A place two catalogue twins are (`Ljubljana, SI` and `Ljubljana, Slovenia`) is
        // counted once among the atlas's matches: once off the total (it said "1 place" under
        // two rows).
        let first = !twinPositions.contains(place.position)
        twinPositions.append(place.position)
        twinIndices.append(keyed.count)
        let (key, starts) = Fold.keyAndWordStarts(place.name)
        if first
          && (key.starts(with: q) || starts.contains(where: { key[$0...].starts(with: q) })
            || alternates.contains(place.position))
        {
          overlap += 1
        }
      }
      let exact = nameMatch && (cityKey == q || place.map { alternates.contains($0.position) } == true)
      keyed.append(((exact ? 0 : nameMatch ? 1 : 2, place?.position ?? Int.max, k), Found(city: city, place: place)))
      listedCities.append(city.recordKey)
    }
    var listed = twinPositions
    // Unless only small places have the name and a place the word begins dwarfs them (`pa`:
    // Paris before Pa, Burkina Faso), as ``Resolver/dwarfed(_:_:)`` rules for `wx show`. Only
    // places of the name itself count: with another name's town counted (`rio`'s Rio de
    // Janeiro), `lag` listed La Gi and the village of Łąg before Lagos, and the order moved
    // with the page size (the largest place the window reached decided).
    let dwarfed = Resolver<WorldNames>.dwarfs(exactPeople, by: largest)
    if dwarfed { for k in keyed.indices where keyed[k].key.0 == 0 { keyed[k].key.0 = 1 } }
    for ((place, nameMatch), folded) in zip(ranked, folds) {
      let exact = !dwarfed && nameMatch && (folded == q || alternates.contains(place.position))
      if let t = twinPositions.lastIndex(of: place.position) {
        let k = twinIndices[t]
        if nameMatch { keyed[k].key.0 = min(keyed[k].key.0, exact ? 0 : 1) }
        continue
      }
      if listed.contains(place.position) { continue }
      listed.append(place.position)
      // A place matched by an alternate name (`wien`: Vienna) is no catalogue match of the
      // query: the catalogue city it is, if any, is the one of its own name.
      // Nor is one named so exactly that no catalogue city of its name twins: the catalogue
      // city it is, if any, is named in another script (`tokyo`: 東京) or without "City", and
      // not one listed already.
      // One the query begins may be a catalogue city of another spelling (`sankt gall`: the
      // catalogue's St. Gallen), which the query does not begin.
      let byAlternate = alternates.contains(place.position) && folded != q
      var city =
        byAlternate
        ? try self.city(of: place) : folded == q ? try otherNamedCity(place) : try otherSpelledCity(place, key: folded)
      if let c = city {
        if listedCities.contains(c.recordKey) { city = nil } else { listedCities.append(c.recordKey) }
      }
      keyed.append(((exact ? 0 : nameMatch ? 1 : 2, place.position, 0), Found(city: city, place: place)))
    }
    // The entries listed, by index into `keyed`: an entry is a city and a place, and moving
    // them about to filter and sort was a tenth of `wx search par` at a million cities.
    var listing = Array(keyed.indices)
    if !whole {
      // A catalogue city that is no place comes after every place of its class; when the
      // atlas has places of that class (or a lower one) past the ones read, it comes after
      // them too, past this page: listed here, it moved from page to page as the window grew
      // (`Paris 01 Louvre Springs` on pages 2 and 3 at a million cities).
      listing.removeAll { k in
        keyed[k].item.place == nil && (keyed[k].key.0 == 1 && more1 || keyed[k].key.0 == 2 && (more1 || more2))
      }
      // So does a city that is a place the atlas's ranking passed over (the second name of a
      // place listed at the same spot: Paris 13e Arrondissement beside Paris 13 Gobelins),
      // which was listed only once the window reached its name.
      let last = rankedPositions.max() ?? -1
      listing.removeAll { k in
        keyed[k].item.city != nil
          && keyed[k].item.place.map { p in p.position < last && !rankedPositions.contains(p.position) } == true
      }
    }
    // By key, then as listed (what a stable sort of the entries gave).
    listing.sort { a, b in keyed[a].key != keyed[b].key ? keyed[a].key < keyed[b].key : a < b }
    // One row a place, past 200 catalogue matches, but for cities named exactly the query: a
    // second catalogue city of a place listed already (`Paris, FR` beside `Paris, France` for
    // `par`) is left out, as the windows that read only the page's own cities leave it out.
    // Listed once the window reached every name match, it moved each later row by one: the
    // last row of a page came again at the top of the next.
    var twinned: [Int] = []
    if !whole {
      var places: [Int] = []
      listing.removeAll { k in
        guard let p = keyed[k].item.place?.position, let city = keyed[k].item.city else { return false }
        guard places.contains(p) else {
          places.append(p)
          return false
        }
        if catalogue.fold(city.name) == q { return false }
        twinned.append(p)
        return true
      }
    }
    let shown = listing.dropFirst(offset).prefix(limit)
    var page = shown.map { keyed[$0].item }
    let order = shown.map { (keyed[$0].key.0, keyed[$0].key.1) }
    if !whole {
      // The cities still listed, and those given to the page's places below.
      listedCities = listing.compactMap { keyed[$0].item.city?.recordKey }
      // Of a place's cities, the one that stays is its own (the nearest of its name), as below.
      for k in page.indices {
        guard let place = page[k].place, twinned.contains(place.position), let city = page[k].city,
          catalogue.fold(city.name) != q, let own = try ownNamedCity(place), !listedCities.contains(own.recordKey)
        else { continue }
        page[k].city = own
        listedCities.append(own.recordKey)
      }
      // A place listed without the catalogue city it is, which was past the matches read.
      for k in page.indices where page[k].city == nil {
        guard let place = page[k].place, let city = try ownNamedCity(place), !listedCities.contains(city.recordKey)
        else { continue }
        page[k].city = city
        listedCities.append(city.recordKey)
      }
      // Every match read, the atlas's and the catalogue's: the rows are the total. The
      // estimate counts a city that is a place of another spelling (`Pardanjān`) as no place,
      // and said "page 90 of 95" over empty pages past the last row.
      if !more1 && !more2 && window.total <= reach { return (listing.count, page, order) }
      // Past 200 catalogue matches the total is estimated, the same for every page and page
      // size: the share of the catalogue's first `sample` names that are the names of atlas
      // places, over all its matches, is what the two lists share. From the two indexes alone:
      // reading those cities and looking up each one's place was a sixth of `wx search par`
      // at a million cities, and `wx show Paris`, whose resolver asks for 3, paid for it too.
      let names = try catalogue.firstNames(in: window, limit: Self.sample)
      let sampled = try atlas.countPlaceNames(names, under: window.key)
      let estimate = (sampled * window.total + names.count / 2) / max(1, names.count)
      return (
        max(
          window.total + places.total - min(estimate, window.total, places.total), page.isEmpty ? 0 : offset + page.count),
        page, order
      )
    }
    return (window.total + places.total - overlap, page, order)
  }
}
