import ArgumentParser
import WXCore

extension WX.Fav {
  struct Remove: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Remove cities from your favourites.",
      discussion: """
        CITY resolves like `wx fav add`, among your favourites first: unquoted words that \
        together name a city are that one city, a word ending in a comma goes with the next \
        (`wx fav rm Paris, FR London, GB`), and a city named twice is removed once.
        """,
      aliases: ["rm"])

    @Argument(help: "Favourites to remove (name, \"Name, Country\" or id).") var cities: [String]

    func validate() throws {
      if cities.isEmpty { throw ValidationError("name at least one city") }
      do {
        for city in cities { try TypedName.check(city, as: "CITY") }
      } catch { throw ValidationError(error.message) }
    }

    func execute(_ console: Console) async throws {
      let ctx = try Context.make(console)
      let favourites = try ctx.home.favourites.list()
      let catalogue = try? ctx.home.openCatalogue(seed: false).catalogue
      defer { catalogue?.close() }
      // A name that is no favourite's: a catalogue city or an atlas place (the one resolver).
      let finder = try catalogue.map { try ctx.finder($0) }
      defer { finder?.atlas?.close() }
      let named = try FavouritesStore.favourites(named: cities, among: favourites, places: finder)
      try ctx.home.favourites.remove(named)
      // Named as `fav add` named it: with its region when it has one.
      console.out(
        named.map { f in "removed \(f.name.visible)\(f.region.map { ", \($0.visible)" } ?? ""), \(f.country.visible)" }
          .joined(separator: "\n"))
    }
  }
}
