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
      let places = try resolve(ctx)
      try ctx.home.prepare()
      var added = try ctx.home.favourites.add(places.filter { $0.kept == nil }.map(\.found), now: ctx.now)
        .makeIterator()
      console.out(Self.text(places.map { ($0.found, $0.kept == nil ? added.next() ?? false : false, $0.kept) }))
    }

    /// The words as catalogue cities and atlas places alike: the one resolver's runs of words
    /// (PlaceFinder); a name other places share is noted on the console. `kept`: the
    /// favourite of another name that is the place already (``PlaceFinder/favourite(of:among:)``:
    /// a catalogue's Bombay, for Mumbai), also one named before it in the same command.
    func resolve(_ ctx: Context) throws -> [(found: Found, kept: Favourite?)] {
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      let finder = try ctx.finder(catalogue)
      defer { finder.atlas?.close() }
      let named = try finder.lookup(words: cities)
      for n in named {
        if n.sharing > 0 { ctx.noteShared(n.name, n.found, n.sharing, in: finder, command: "wx fav add") }
        if n.begun > 0 { ctx.noteBegun(n.name, n.found, n.begun) }
      }
      var known = try ctx.home.favourites.list()
      var out: [(found: Found, kept: Favourite?)] = []
      for n in named {
        let adding = Favourite(n.found, added: 0, sequence: 0)
        // One of its own name and country the store finds itself (and says so).
        let kept = adding.best(among: known) == nil ? try finder.favourite(ofOtherName: n.found, among: known) : nil
        if kept == nil { known.append(adding) }
        out.append((n.found, kept))
      }
      return out
    }

    /// A line for each place: added, or already a favourite (the same place: two places of
    /// one name and country are two favourites), by another name when it is (`as Bombay`).
    static func text(_ places: [(found: Found, added: Bool, kept: Favourite?)]) -> String {
      var out = ""
      for (city, new, kept) in places {
        let name = PlaceText.full(city).visible
        let other = kept.map { " (as \($0.name.visible))" } ?? ""
        out += new ? "added \(name)\n" : "\(name) is already a favourite\(other)\n"
      }
      return out
    }
  }
}
