import ArgumentParser
import WXCore

extension WX.Fav {
  struct Remove: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Remove cities from your favourites.",
      aliases: ["rm"])

    @Argument(help: "Favourites to remove (name, \"Name, Country\" or id).") var cities: [String]

    func validate() throws {
      if cities.isEmpty { throw ValidationError("name at least one city") }
      do {
        for city in cities { try TypedName.check(city, as: "CITY") }
      } catch { throw ValidationError(error.message) }
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
      var hits = favourites.filter { f in
        Fold.key(f.name) == q || Fold.key("\(f.name), \(f.country)") == q
          || f.region.map { Fold.key("\(f.name), \($0)") == q } == true  // an atlas place: "Springfield, Illinois"
      }
      if hits.isEmpty, let id = Int(query) { hits = favourites.filter { $0.id == id } }
      if hits.count == 1 { return hits[0].identity }
      if hits.count > 1 {
        throw LookupError.ambiguous(
          query: query,
          candidates: hits.map {
            City(id: $0.id, name: $0.name, country: $0.country, latitude: 0, longitude: 0, temperatureC: nil,
                 description: "", humidity: nil, windKmh: nil, forecast: [])
          })
      }
      let catalogue = try ctx.catalogue()
      defer { catalogue.close() }
      if let city = try? catalogue.lookup(query).city { return city.identity }
      throw FavouritesError.notAFavourite([query])
    }
  }
}
