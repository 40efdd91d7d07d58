import WXCore

/// The user's data completion offers, read offline; any failure offers nothing (completion
/// must never print an error into the middle of a command line). The matching is the
/// resolver's (``Resolver/completions(_:after:whole:limit:)``), as for every city argument.
enum CompletionData {
  /// How many names a city completion offers at most.
  static let limit = 200

  /// A context whose console keeps what it would print (an atlas warning): nothing is ever
  /// written into the middle of a command line.
  static func context() -> Context? { try? Context.make(Console(capturing: Terminal(color: false, unicode: true, width: nil))) }

  /// Catalogue cities and atlas places completing `current` after the words `before` it.
  static func cities(_ current: String, after before: [String], whole: Bool) -> [String] {
    guard let ctx = context(), let (catalogue, _, _) = try? ctx.home.openCatalogue() else { return [] }
    defer { catalogue.close() }
    guard let finder = try? ctx.finder(catalogue) else { return [] }
    defer { finder.atlas?.close() }
    return (try? finder.names.completions(current, after: before, whole: whole, limit: limit)) ?? []
  }

  /// Favourites completing `current`, in the order they were added; "Name, Country" for a
  /// name two favourites share. Favourites the words before already name are not offered
  /// again.
  static func favourites(_ current: String, after before: [String], whole: Bool) -> [String] {
    guard let all = try? Context.home().favourites.list() else { return [] }
    return offers(Resolver(PlaceList(favourites: all)), current, after: before, whole: whole)
  }

  /// Cities with air-quality readings completing `current`.
  static func airQualityCities(_ current: String, after before: [String], whole: Bool) -> [String] {
    guard let all = try? Context.home().aqi.histories() else { return [] }
    return offers(Resolver(PlaceList(airQuality: all)), current, after: before, whole: whole)
  }

  /// Completions from a list, without the places the words before already name.
  static func offers(_ resolver: Resolver<PlaceList>, _ current: String, after before: [String], whole: Bool) -> [String] {
    var named = Set<String>()
    if !whole, !before.isEmpty, let names = try? resolver.split(before) {
      for name in names {
        guard case .one(let i)? = try? resolver.resolve(name) else { continue }
        let item = resolver.source.items[i]
        named.insert(item.name)
        named.insert(item.country.isEmpty ? item.name : "\(item.name), \(item.country)")
      }
    }
    return (try? resolver.completions(current, after: before, whole: whole, limit: Int.max, excluding: named)) ?? []
  }
}

/// City names for ArgumentParser's own completion protocol (`---completion`), which
/// `--generate-completion-script` scripts use; wx's scripts call `wx __complete` instead.
@Sendable func cityCompletions(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
  CompletionData.cities(prefix, after: [], whole: false)
}
