import WXCore

/// The user's data completion offers, read offline; any failure offers nothing (completion
/// must never print an error into the middle of a command line).
enum CompletionData {
  /// How many names a city completion offers at most.
  static let limit = 200

  /// Catalogue names starting with `prefix` (folded, like `wx search`), from the trie.
  static func cities(_ prefix: String) -> [String] {
    guard let ctx = try? Context.make(), let (catalogue, _) = try? ctx.home.openCatalogue() else { return [] }
    defer { catalogue.close() }
    let names = (try? catalogue.completions(prefix, limit: limit)) ?? []
    // Then the atlas's places (largest first) that the catalogue does not already offer.
    guard let atlas = try? ctx.atlas() else { return names }
    defer { atlas.close() }
    let offered = Set(names.map { Fold.key($0) })
    let places = ((try? atlas.completions(prefix, limit: limit)) ?? []).filter { !offered.contains(Fold.key($0)) }
    return names + places.prefix(max(0, limit - names.count))
  }

  /// Favourites whose name starts with `prefix` (folded), in the order they were added;
  /// "Name, Country" for a name two favourites share.
  static func favourites(_ prefix: String) -> [String] {
    guard let ctx = try? Context.make(), let all = try? ctx.home.favourites.list() else { return [] }
    let key = Fold.key(prefix)
    let hits = all.filter { Fold.key($0.name).starts(with: key) }
    return hits.map { f in
      hits.filter { $0.name == f.name }.count > 1 ? "\(f.name), \(f.country)" : f.name
    }
  }

  /// Cities with air-quality readings whose name starts with `prefix` (folded).
  static func airQualityCities(_ prefix: String) -> [String] {
    guard let ctx = try? Context.make(), let all = try? ctx.home.aqi.histories() else { return [] }
    let key = Fold.key(prefix)
    return all.map(\.city).filter { Fold.key($0).starts(with: key) }
  }
}

/// City names for ArgumentParser's own completion protocol (`---completion`), which
/// `--generate-completion-script` scripts use; wx's scripts call `wx __complete` instead.
@Sendable func cityCompletions(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
  CompletionData.cities(prefix)
}
