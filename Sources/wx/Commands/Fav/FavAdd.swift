import ArgumentParser
import WXCore

extension WX.Fav {
  struct Add: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add cities to your favourites.",
      discussion: """
        CITY resolves like `wx show`. An ambiguous name adds nothing and lists the candidates. \
        Unquoted words that together name a city are that one city (the longest name first: \
        `wx fav add Tokyo New York` is two cities), a word ending in a comma goes with the next \
        (`wx fav add Paris, FR London, GB`), and a city named twice is added once.
        """)

    @Argument(help: "Cities to add.", completion: .custom(cityCompletions)) var cities: [String]

    func validate() throws {
      if cities.isEmpty { throw ValidationError("name at least one city") }
      do {
        for city in cities { try TypedName.check(city, as: "CITY") }
      } catch { throw ValidationError(error.message) }
    }

    func execute() async throws {
      let ctx = try Context.make()
      let catalogue = try ctx.catalogue()
      let found = try catalogue.lookup(words: cities)
      catalogue.close()
      try ctx.home.prepare()
      let added = try ctx.home.favourites.add(found, now: ctx.now)
      var out = ""
      for (city, new) in zip(found, added) {
        let name = "\(city.name.visible), \(city.country.visible)"
        out += new ? "added \(name)\n" : "\(name) is already a favourite\n"
      }
      Terminal.out(out)
    }
  }
}
