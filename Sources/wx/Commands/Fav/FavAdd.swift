import ArgumentParser
import WXCore

extension WX.Fav {
  struct Add: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add cities to your favourites.",
      discussion: """
        CITY resolves like `wx show`: a catalogue city or any place of the world atlas (offline; \
        `wx sync --provider open-meteo --favourites` then fetches their weather). An ambiguous \
        name adds nothing and lists the candidates. \
        Unquoted words that together name a city are read as that city, and a word ending in a \
        comma goes with the next (`wx fav add Paris, FR London, GB`).
        """)

    @Argument(help: "Cities to add.", completion: .custom(cityCompletions)) var cities: [String]

    /// The city names in the arguments: a word ending in a comma goes with the next word, so
    /// `wx fav add Paris, FR London, UK` names "Paris, FR" and "London, UK".
    static func names(_ words: [String]) -> [String] {
      var out: [String] = []
      var k = 0
      while k < words.count {
        if words[k].hasSuffix(","), k + 1 < words.count {
          out.append(words[k] + " " + words[k + 1])
          k += 2
        } else {
          out.append(words[k])
          k += 1
        }
      }
      return out
    }

    func validate() throws {
      if cities.isEmpty { throw ValidationError("name at least one city") }
      do {
        for city in cities { try TypedName.check(city, as: "CITY") }
      } catch { throw ValidationError(error.message) }
    }

    func execute() async throws {
      let ctx = try Context.make()
      let catalogue = try ctx.catalogue()
      // Catalogue cities and atlas places alike (PlaceFinder).
      let finder = try ctx.finder(catalogue)
      var found: [Found] = []
      let joined = cities.joined(with: " ")
      let whole = cities.count > 1 ? try finder.resolve(joined) : nil
      if case .found(let place, let sharing)? = whole {
        // `wx fav add New York`: the words name one city, not one city each.
        Terminal.err("wx: read \(joined.quoted()) as one city name (quote names to add several)")
        if sharing > 0 { Context.noteShared(joined, place, sharing) }
        found = [place]
      } else {
        do {
          for name in Self.names(cities) {
            let (place, sharing) = try finder.lookup(name)
            if sharing > 0 { Context.noteShared(name, place, sharing) }
            found.append(place)
          }
        } catch let error as PlaceLookupError {
          // `wx fav add Los Angeles`: the words name several cities together; that is the
          // answer to give, not that "Los" is ambiguous.
          if case .ambiguous(let candidates)? = whole {
            throw PlaceLookupError.ambiguous(query: joined, candidates: candidates)
          }
          throw error
        }
      }
      finder.atlas?.close()
      catalogue.close()
      try ctx.home.prepare()
      let added = try ctx.home.favourites.add(found, now: ctx.now)
      var out = ""
      let kept = try ctx.home.favourites.list()
      for (city, new) in zip(found, added) {
        let name = PlaceText.full(city).visible
        // Favourites are kept by name and country: another place of both may be the one kept.
        if !new, let region = city.place?.region,
          let other = kept.first(where: { $0.identity == city.asCity.identity && $0.region != nil && $0.region != region })
        {
          out += "\(name) is not added: \(city.name.visible), \(other.region!.visible), \(city.country.visible) is the favourite "
            + "of that name in \(city.country.visible) (wx keeps one)\n"
          continue
        }
        out += new ? "added \(name)\n" : "\(name) is already a favourite\n"
      }
      Terminal.out(out)
    }
  }
}
