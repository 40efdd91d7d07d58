/// The rules of size: which of several places a name is taken for, and when a larger place
/// the typed text begins (or nearly spells) outweighs the places of the name itself.
extension Resolver {
  /// Whether the first of `places` has ``dominance`` times the people of each of the others.
  func leads(_ places: [Source.Place]) throws(StoreError) -> Bool {
    guard let first = places.first, let people = try source.population(of: first) else { return false }
    for p in places.dropFirst() where try Self.dominance * max(source.population(of: p) ?? 0, 1) > people { return false }
    return true
  }

  /// The largest of `places` when it has ``dominance`` times the people of the next (a place
  /// of unknown size counts as one person); nil when there are fewer than two, or none does.
  func largest(_ places: [Source.Place]) throws(StoreError) -> Source.Place? {
    guard places.count > 1 else { return nil }
    var sizes: [(place: Source.Place, people: Int)] = []
    for p in places { sizes.append((p, try source.population(of: p) ?? 0)) }
    sizes.sort { $0.people > $1.people }
    return sizes[0].people >= Self.dominance * max(sizes[1].people, 1) ? sizes[0].place : nil
  }

  /// When only small places (under ``smallPlace`` people) have exactly the name `query`, and
  /// a place the word begins has ``dominance`` times the people of each of them: the places
  /// the word begins, largest first, then those of the name, for the user to pick (`lo` is no
  /// answer by Lo, Belgium, 1,179 people, while London begins so). nil otherwise, or where
  /// the source knows no sizes.
  /// (With how many places the word begins, those of the name included.)
  /// A place the name is only another name of (`tor`: Sloviansk, once Tor) is dwarfed at any
  /// size: `tor` lists Toronto and Turin with it, as `wx search tor` ranks them, rather than
  /// answering with the town silently.
  func dwarfed(_ query: String, _ exact: [Source.Place]) throws(StoreError) -> (places: [Source.Place], begun: Int)? {
    var exactLargest = 0
    var otherNamesOnly = true
    let key = fold(query)
    for p in exact {
      guard let people = try source.population(of: p) else { return nil }
      exactLargest = max(exactLargest, people)
      if otherNamesOnly, fold(try source.identity(of: p).name) == key { otherNamesOnly = false }
    }
    let prefixed = try source.places(startingWith: key, limit: 6)
    var largest = 0
    for p in prefixed.places { largest = max(largest, try source.population(of: p) ?? 0) }
    return Self.dwarfs(exactLargest, by: largest, otherNamesOnly: otherNamesOnly)
      ? (prefixed.places + exact, max(prefixed.total, exact.count)) : nil
  }

  /// ``dwarfed(_:_:)`` for "Name, Qualifier": the cities there (``smallPlace`` people or
  /// more) whose name begins with the name's whole words (``begun(_:_:)``) and dwarf every
  /// place of the name there, largest first, then those of the name; nil otherwise. A city:
  /// Newcastle upon Tyne is what people call Newcastle; Springfield Gardens, a part of
  /// Queens, is not what `Springfield, NY` means.
  func dwarfed(_ name: String, _ qualifier: String, _ exact: [Source.Place]) throws(StoreError) -> [Source.Place]? {
    var exactLargest = 0
    for p in exact {
      guard let people = try source.population(of: p) else { return nil }
      exactLargest = max(exactLargest, people)
    }
    guard exactLargest < Self.smallPlace else { return nil }
    var larger: [(place: Source.Place, people: Int)] = []
    // A place of `exact` is never among them: none has ten times the largest's people.
    for p in try begun(name, qualifier) {
      let people = try source.population(of: p) ?? 0
      if people >= Self.smallPlace && Self.dwarfs(exactLargest, by: people) { larger.append((p, people)) }
    }
    guard !larger.isEmpty else { return nil }
    return larger.sorted { $0.people > $1.people }.map(\.place) + exact
  }

  /// The rule of ``dwarfed(_:_:)``, for search's ranking too: the largest place of an exact
  /// name is small (under ``smallPlace`` people), or the name is only another name of the
  /// places (`otherNamesOnly`), and the largest place the word begins has ``dominance`` times
  /// its people.
  package static func dwarfs(_ exactLargest: Int, by largest: Int, otherNamesOnly: Bool = false) -> Bool {
    (otherNamesOnly || exactLargest < smallPlace) && largest >= dominance * max(exactLargest, 1)
  }

  /// Fewer people than this, and an exact name may be dwarfed by a place the word begins.
  package static var smallPlace: Int { 100_000 }

  /// The places of a name one edit from `query` (as ``closest(_:)`` measures) that have
  /// ``dominance`` times the people of every place `query` is a prefix of, nearest then
  /// largest first, then `prefixed`: a typo of a city beats a prefix of villages (`ondon` is
  /// London mistyped, not Ondong Siau). Only the names of the ``largePlaces`` largest
  /// places are compared (``NameSource/largeNames(atLeast:_:)``), so it costs little; nil
  /// where the source knows no sizes, or no such place is near.
  func dwarfing(_ query: String, _ prefixed: [Source.Place]) throws(StoreError) -> [Source.Place]? {
    guard suggests, !prefixed.isEmpty else { return nil }
    var largest = 0
    for p in prefixed {
      guard let people = try source.population(of: p) else { return nil }
      largest = max(largest, people)
    }
    // One slip only: more, and the prefix is likelier what was meant (`ondong`).
    let key = fold(query)
    let allowed = 1
    let floor = Self.dominance * max(largest, 1)
    var near: [(key: [UInt8], distance: Int)] = []
    try source.largeNames(atLeast: floor) { name in
      guard abs(name.count - key.count) <= allowed, !near.contains(where: { $0.key == name }),
        let d = Self.distance(key, name, limit: allowed)
      else { return }
      near.append((name, d))
    }
    near.sort { $0.distance < $1.distance }
    var out: [Source.Place] = []
    for n in near.prefix(Self.typoLookups) {
      for p in try source.places(named: n.key) where try source.population(of: p) ?? 0 >= floor { out.append(p) }
    }
    return out.isEmpty ? nil : out + prefixed
  }
}

extension Resolver {
  /// Spelled as exactly one of `places`, but for case, it is that one: "Zürich" is not
  /// "Zurich"; unless another has ten times its people (`St. Paul` is not St. Paul, Alberta
  /// alone, beside Saint Paul, Minnesota). Else the largest of those spelled so, when it
  /// dwarfs them; else nil.
  func spelled(_ text: String, _ places: [Source.Place]) throws(StoreError) -> Source.Place? {
    let typed = text.lowercased()
    var literal: [Source.Place] = []
    for p in places where try source.spellings(of: p).contains(where: { $0.lowercased() == typed }) { literal.append(p) }
    if literal.count == 1 {
      guard let own = try source.population(of: literal[0]) else { return literal[0] }
      for p in places where try (source.population(of: p) ?? 0) >= Self.dominance * max(own, 1) { return nil }
      return literal[0]
    }
    return try largest(literal)
  }

  /// The one of `places` whose country, as its source writes it, is `qualifier` (folded), if
  /// exactly one is.
  func countrySpelled(_ qualifier: String, _ places: [Source.Place]) throws(StoreError) -> Source.Place? {
    let typed = fold(qualifier.trimmingSpaces)
    var literal: [Source.Place] = []
    for p in places where fold(try source.identity(of: p).country) == typed { literal.append(p) }
    return literal.count == 1 ? literal[0] : nil
  }
}
