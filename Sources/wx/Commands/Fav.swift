import ArgumentParser
import WXCore

extension WX {
  struct Fav: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Keep favourite cities (they survive every sync).",
      subcommands: [Add.self, Remove.self, List.self],
      defaultSubcommand: List.self)
  }
}

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

  struct Remove: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Remove cities from your favourites.",
      aliases: ["rm"])

    @Argument(help: "Favourites to remove (name, \"Name, Country\" or id).") var cities: [String]

    func validate() throws {
      if cities.isEmpty { throw ValidationError("name at least one city") }
    }

    func execute() async throws {
      let ctx = try Context.make()
      let favourites = try ctx.home.favourites.list()
      var identities: [CityIdentity] = []
      let joined = cities.joined(separator: " ")
      if cities.count > 1, let one = try? Self.match(joined, favourites: favourites, ctx: ctx) {
        Terminal.err("wx: read \(joined.quoted()) as one city name (quote names to remove several)")
        identities = [one]
      } else {
        for query in cities {
          identities.append(try Self.match(query, favourites: favourites, ctx: ctx))
        }
      }
      try ctx.home.favourites.remove(identities)
      Terminal.out(identities.map { "removed \($0.name.visible), \($0.country.visible)" }.joined(separator: "\n"))
    }

    /// Matches among the favourites first (a city gone from the catalogue stays removable),
    /// then through the catalogue.
    static func match(_ query: String, favourites: [Favourite], ctx: Context) throws -> CityIdentity {
      let q = Fold.key(query)
      var hits = favourites.filter { Fold.key($0.name) == q || Fold.key("\($0.name), \($0.country)") == q }
      if hits.isEmpty, let id = Int(query) { hits = favourites.filter { $0.id == id } }
      if hits.count == 1 { return hits[0].identity }
      if hits.count > 1 {
        throw LookupError.ambiguous(
          query: query,
          candidates: hits.map {
            City(id: $0.id, name: $0.name, country: $0.country, latitude: 0, longitude: 0, temperatureC: 0,
                 description: "", humidity: 0, windKmh: 0, forecast: [])
          })
      }
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      if let city = try? catalogue.lookup(query).city { return city.identity }
      throw FavouritesError.notAFavourite([query])
    }
  }

  struct List: WXCommand {
    static let configuration = CommandConfiguration(abstract: "List favourites with their current weather.")

    @Option(help: "Order: added, name or temperature (warmest first).") var sort: FavouriteOrder = .added
    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: DisplayOptions

    func execute() async throws {
      try Self.perform(sort: sort, json: json, display: display.value)
    }

    /// The command itself, shared by the argument parser and the fast path (FastPath.swift).
    static func perform(sort: FavouriteOrder, json: Bool, display: Display) throws {
      let ctx = try Context.make(display: display)
      let favourites = try ctx.home.favourites.list()
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      var rows: [(Favourite, City?)] = []
      for f in favourites { rows.append((f, try catalogue.find(f.identity)?.city)) }
      switch sort {
      case .added: break
      case .name: rows.sort { Fold.key($0.0.name).lexicographicallyPrecedes(Fold.key($1.0.name)) }
      case .temperature:
        rows.sort { ($0.1?.temperatureC ?? -.infinity) > ($1.1?.temperatureC ?? -.infinity) }
      }
      let unit = ctx.unit(display)
      if json {
        Terminal.data(
          JSONOut.object([
            (
              "items",
              .array(
                rows.map { f, c in
                  .object([
                    ("city", .string(f.name)), ("country", .string(f.country)), ("id", .int(c?.id ?? f.id)),
                    ("added", .string(Clock.iso8601(f.added))),
                    ("temperature", c.map { .number(unit.jsonTemperature($0.temperatureC)) } ?? .null),
                    ("unit", .string(unit.rawValue)), ("description", c.map { .string($0.description) } ?? .null),
                    ("in_catalogue", .bool(c != nil)),
                  ])
                })
            )
          ]).text)
        return
      }
      guard !rows.isEmpty else {
        Terminal.out("No favourites yet. Add one with `wx fav add CITY`.")
        return
      }
      var t = Table(headers: ["City", "Country", "Temp", "Conditions", "Added"])
      t.rightAligned = [2]
      for (f, c) in rows {
        t.rows.append([
          f.name.visible, f.country.visible, c.map { ctx.terminal.temperature($0.temperatureC, unit) } ?? "–",
          c?.description.visible ?? ctx.terminal.dim("not in the current catalogue"), Clock.format(f.added, "%Y-%m-%d"),
        ])
      }
      Terminal.out(t.render(ctx.terminal) + ctx.terminal.dim("\(rows.count) favourite\(rows.count == 1 ? "" : "s") · " + ctx.freshness(catalogue.meta)))
    }
  }
}

enum FavouriteOrder: String, CaseIterable, ExpressibleByArgument {
  case added, name, temperature
}
