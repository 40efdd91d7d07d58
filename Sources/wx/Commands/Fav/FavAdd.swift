import ArgumentParser
import WXCore

extension WX.Fav {
  struct Add: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add cities to your favourites.",
      discussion: """
        CITY resolves like `wx show`: a catalogue city or any place of the world atlas (offline; \
        `wx sync --provider open-meteo --favourites` then fetches their weather). An ambiguous \
        name adds nothing and lists the candidates. Unquoted words that together name a city \
        are that one city (the longest name first: `wx fav add Tokyo New York` is two cities), \
        a word ending in a comma goes with the next (`wx fav add Paris, FR London, GB`), and a \
        city named twice is added once.
        """)

    @Argument(help: "Cities to add.", completion: .custom(cityCompletions)) var cities: [String]

    /// Runs of words to places of the catalogue and the atlas, as the resolver splits them
    /// for the catalogue: from each word, the longest run (at most 6 words) that names one
    /// place; a word ending in a comma goes with the next; a place named twice counts once; a
    /// name other places share is noted on `ctx`'s console.
    static func places(_ words: [String], _ finder: PlaceFinder, _ ctx: Context) throws -> [Found] {
      var out: [Found] = []
      var k = 0
      while k < words.count {
        var end = min(words.count, k + 6)
        var hit: (found: Found, sharing: Int, end: Int)?
        while end > k {
          if words[end - 1].hasSuffix(",") && end < words.count && end - k < 6 { end -= 1; continue }
          if case .found(let f, let sharing) = try finder.resolve(words[k..<end].joined(separator: " ")) {
            hit = (f, sharing, end)
            break
          }
          end -= 1
        }
        guard let hit else {
          // Nothing from here names one place: the error of the shortest run that can stand.
          var stop = k + 1
          while stop < words.count && words[stop - 1].hasSuffix(",") { stop += 1 }
          _ = try finder.lookup(words[k..<stop].joined(separator: " "))
          k = stop
          continue
        }
        let name = words[k..<hit.end].joined(separator: " ")
        if hit.sharing > 0 { ctx.noteShared(name, hit.found, hit.sharing) }
        if !out.contains(where: { $0.asCity.identity == hit.found.asCity.identity }) { out.append(hit.found) }
        k = hit.end
      }
      return out
    }

    func validate() throws {
      if cities.isEmpty { throw ValidationError("name at least one city") }
      do {
        for city in cities { try TypedName.check(city, as: "CITY") }
      } catch { throw ValidationError(error.message) }
    }

    func execute(_ console: Console) async throws {
      let ctx = try Context.make(console)
      let found = try resolve(ctx)
      try ctx.home.prepare()
      let added = try ctx.home.favourites.add(found, now: ctx.now)
      console.out(Self.text(found, added: added, kept: try ctx.home.favourites.list()))
    }

    /// The words as catalogue cities and atlas places alike (PlaceFinder): the catalogue's
    /// rules first (the resolver's runs of words), then the atlas's places, run by run.
    func resolve(_ ctx: Context) throws -> [Found] {
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      let finder = try ctx.finder(catalogue)
      defer { finder.atlas?.close() }
      do {
        return try catalogue.lookup(words: cities).map { c throws(StoreError) in try finder.found(c) }
      } catch let error as LookupError {
        guard finder.atlas != nil else { throw error }
        return try Self.places(cities, finder, ctx)
      }
    }

    /// A line for each place: added, already a favourite, or not added because the
    /// favourites (`kept`) hold another place of its name and country.
    static func text(_ found: [Found], added: [Bool], kept: [Favourite]) -> String {
      var out = ""
      for (city, new) in zip(found, added) {
        let name = PlaceText.full(city).visible
        // Favourites are kept by name and country: another place of both may be the one kept.
        if !new, let region = city.place?.region,
          let other = kept.first(where: { $0.identity == city.asCity.identity && $0.region != nil && $0.region != region })
        {
          out +=
            "\(name) is not added: \(city.name.visible), \(other.region!.visible), \(city.country.visible) is the favourite "
            + "of that name in \(city.country.visible) (wx keeps one)\n"
          continue
        }
        out += new ? "added \(name)\n" : "\(name) is already a favourite\n"
      }
      return out
    }
  }
}
