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
        a word ending in a comma goes with the next (`wx fav add Paris, FR London, GB`), a word \
        naming the region of the name before it is a comma left out (`london ontario` adds \
        nothing and lists London, Ontario first), and a city named twice is added once.
        """)

    @Argument(help: "Cities to add.", completion: .custom(cityCompletions)) var cities: [String]

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
      console.out(Self.text(found, added: added))
    }

    /// The words as catalogue cities and atlas places alike: the one resolver's runs of words
    /// (PlaceFinder); a name other places share is noted on the console.
    func resolve(_ ctx: Context) throws -> [Found] {
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      let finder = try ctx.finder(catalogue)
      defer { finder.atlas?.close() }
      let named = try finder.lookup(words: cities)
      for n in named {
        if n.sharing > 0 { ctx.noteShared(n.name, n.found, n.sharing, in: finder) }
        if n.begun > 0 { ctx.noteBegun(n.name, n.found, n.begun) }
      }
      return named.map(\.found)
    }

    /// A line for each place: added, or already a favourite (the same place: two places of
    /// one name and country are two favourites).
    static func text(_ found: [Found], added: [Bool]) -> String {
      var out = ""
      for (city, new) in zip(found, added) {
        let name = PlaceText.full(city).visible
        out += new ? "added \(name)\n" : "\(name) is already a favourite\n"
      }
      return out
    }
  }
}
