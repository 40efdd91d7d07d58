import ArgumentParser
import WXCore

extension WX.Fav {
  struct Add: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add cities to your favourites.",
      discussion: "CITY resolves like `wx show`. An ambiguous name adds nothing and lists the candidates.")

    @Argument(help: "Cities to add.", completion: .custom(cityCompletions)) var cities: [String]

    func validate() throws {
      if cities.isEmpty { throw ValidationError("name at least one city") }
    }

    func execute() async throws {
      let ctx = try Context.make()
      let catalogue = try ctx.catalogue()
      let found: [City]
      if cities.count > 1, case .found(_, let city) = try catalogue.resolve(cities.joined(separator: " ")) {
        // `wx fav add New York`: the words name one city, not one city each.
        Terminal.err("wx: read \(cities.joined(separator: " ").quoted()) as one city name (quote names to add several)")
        found = [city]
      } else {
        found = try cities.map { try catalogue.lookup($0).city }
      }
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
