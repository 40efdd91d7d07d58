/// Where names typed by people are looked up: the catalogue (``CatalogueNames``), the
/// favourites and the air-quality history (``PlaceList``), the catalogue and the world atlas
/// together (``WorldNames``).
///
/// A source answers on folded keys (``Fold``) and knows nothing of commas, ids typed as names,
/// runs of words, spelling tie-breaks or typos: those rules are the ``Resolver``'s, written
/// once for every source.
package protocol NameSource {
  associatedtype Place
  /// The ``Fold`` version the source's names are compared with.
  var foldVersion: Int { get }
  /// The places whose folded name is exactly `key`, in the source's order.
  func places(named key: [UInt8]) throws(StoreError) -> [Place]
  /// Whether some place's folded name starts with `key` (a run of typed words may still
  /// grow into a name).
  func hasName(startingWith key: [UInt8]) throws(StoreError) -> Bool
  /// Places whose folded name, or a later word of it, starts with `key` (all places for an
  /// empty key): how many, and the first `limit` in the source's search order.
  func places(startingWith key: [UInt8], limit: Int) throws(StoreError) -> (total: Int, places: [Place])
  /// The places with this id.
  func places(withID id: Int) throws(StoreError) -> [Place]
  /// Calls `body` with each folded name a typo of `key` may stand for: a bounded part of the
  /// source, the names starting with one of ``Resolver/typoPrefixes(_:)`` (at most
  /// ``Resolver/typoScan`` names sharing the first letter, ``Resolver/otherTypoScan`` in all
  /// for the other prefixes). A name may come more than once.
  func typoNames(for key: [UInt8], _ body: ([UInt8]) -> Void) throws(StoreError)
  /// What the words after a comma are matched against.
  func qualifiers(of place: Place) throws(StoreError) -> Qualifiers
  /// The place's name and country as stored (what completion offers, what spelling ties
  /// compare).
  func identity(of place: Place) throws(StoreError) -> CityIdentity
  /// How the place is shown to a person choosing between candidates.
  func candidate(_ place: Place) throws(StoreError) -> Candidate
  /// How many people live there, where the source knows (the atlas does): an exact name
  /// whose largest place has ``Resolver/dominance`` times the people of the next is taken
  /// for it, and suggestions rank larger places first.
  func population(of place: Place) throws(StoreError) -> Int?
  /// Calls `body` with the folded names of the largest places, largest first, while they
  /// have at least `people` (at most ``Resolver/largePlaces`` names), where the source knows
  /// sizes.
  func largeNames(atLeast people: Int, _ body: ([UInt8]) -> Void) throws(StoreError)
}

extension NameSource {
  package func population(of place: Place) throws(StoreError) -> Int? { nil }
  package func largeNames(atLeast people: Int, _ body: ([UInt8]) -> Void) throws(StoreError) {}
}

/// What the words after the comma of "Name, Qualifier" may name: the country (as a name, a
/// prefix, a code), and the first-level region where the source knows it (the atlas does),
/// by name or by code (a US state's: `Portland, OR`).
package struct Qualifiers: Sendable {
  package var country: String
  package var region: String?
  package var regionCode: String?

  package init(country: String, region: String? = nil, regionCode: String? = nil) {
    self.country = country
    self.region = region
    self.regionCode = regionCode
  }

  /// A catalogue city's or an atlas place's: its country, and an atlas place's region and its code.
  package init(of f: Found) {
    self.init(country: f.country, region: f.place?.region, regionCode: f.place.flatMap(RegionCodes.code(of:)))
  }

  /// How well a typed qualifier (folded with ``Fold`` `version`) fits: the country, or the
  /// region (name or code) where known; `lines` are the country table's lines naming it
  /// (``Countries/lines(naming:version:)``, found once for many places). The one rule of
  /// `wx show "Name, Qualifier"` and `wx search`. (A new kind of qualifier is one more line here.)
  package func fit(_ typed: [UInt8], lines: [Int], version: Int) -> Countries.Fit {
    let fold = { (s: String) in Fold.key(s, version: version) }
    // England, Scotland, Wales and Northern Ireland name regions of the United Kingdom (its
    // places' regions in GeoNames) though the country table reads them as the kingdom:
    // "Newcastle, England" is no place of Northern Ireland.
    var fit =
      RegionsNotCountries.folded.contains(typed) ? .none : Countries.fit(typed, fold(country), lines: lines, version: version)
    if let region = region.map(fold), fit != .exact, !typed.isEmpty {
      // Not two letters as a region's first (`SA` is a code: Saudi Arabia or South Australia,
      // never Saint Mark Parish).
      if region == typed { fit = .exact } else if typed.count > 2 && region.starts(with: typed) { fit = max(fit, .prefix) }
    }
    if fit != .exact, let code = regionCode, !typed.isEmpty, fold(code) == typed { fit = .exact }
    return fit
  }

  /// Whether a typed qualifier is the region, by name or code.
  package func namesRegion(_ typed: [UInt8], version: Int) -> Bool {
    let fold = { (s: String) in Fold.key(s, version: version) }
    return !typed.isEmpty && (region.map { fold($0) == typed } == true || regionCode.map { fold($0) == typed } == true)
  }
}

/// A name that does not name exactly one place. The executable words it (the query cut and
/// escaped, the candidates listed with what tells them apart).
package enum LookupError: Error, Equatable, Sendable {
  case ambiguous(query: String, candidates: [Candidate])
  case notFound(query: String, suggestions: [Candidate])
  /// No CITY given and no city shown before.
  case noLastCity
}

/// A place as offered to a person: enough to tell it from the others and to type it back.
package struct Candidate: Equatable, Sendable {
  package var name: String
  package var country: String
  /// The id, only where it picks this place alone (nil where ids repeat, so none is offered).
  package var id: Int?
  package var latitude: Double?
  package var longitude: Double?
  package var region: String?
  package var population: Int?

  package init(
    name: String, country: String, id: Int? = nil, latitude: Double? = nil, longitude: Double? = nil,
    region: String? = nil, population: Int? = nil
  ) {
    self.name = name
    self.country = country
    self.id = id
    self.latitude = latitude
    self.longitude = longitude
    self.region = region
    self.population = population
  }
}

/// What a name resolves to (``Resolver/resolve(_:)``). Generic over the place alone, not
/// nested in ``Resolver``: a type nested there carries the requirement `Source: NameSource`,
/// and when its metadata is built at run time (an outlined destroy of the enum asks for it)
/// the runtime checks the requirement by scanning every protocol conformance in the binary
/// (0.6 M instructions, a sixth of `wx show "Springfield, Illinois"`).
package enum NameOutcome<Place> {
  case one(Place)
  /// Several places fit; the caller lists them.
  case several([Place])
  /// Nothing fits; the closest names, best first.
  case none(closest: [Place])
}

/// The one set of rules for names typed by people, over any ``NameSource``:
///
/// - **Ids.** Digits alone are an id first (several places may share one).
/// - **Names.** Folded (case, accents, apostrophes, periods and hyphens do not matter); an
///   apostrophe or hyphen typed as a space or as nothing also matches
///   (``keys(_:insertions:)``). Of places that share the folded name, the largest is taken
///   when it dwarfs the others (below); else the one spelled exactly as typed, case aside.
/// - **"Name, Qualifier".** The qualifier fits the country (name, prefix, ISO code, short
///   name) or the region (name, prefix, code); exact fits win over prefixes (`Sydney, AU` is
///   not Austria).
/// - **The largest.** Of several places an exact name (or "Name, Qualifier") fits, the
///   largest is taken when it has ``dominance`` times the people of the next (`Paris`);
///   ``resolve(_:sharing:)`` says how many others share the name.
/// - **Prefixes.** A prefix (of the name or of a later word) that fits one place names it.
/// - **Typos.** Nothing fits: the closest names by edit distance (a first letter wrong,
///   missing or extra too: ``typoPrefixes(_:)``), larger places first at one distance; then
///   by longest prefix.
/// - **Runs of words** (``split(_:)``): unquoted words that together name a place are that
///   one place, the longest name first; a word ending in a comma goes with the next one.
package struct Resolver<Source: NameSource> {
  package let source: Source
  /// Whether a name that fits nothing looks for the closest names (a first pass over one
  /// source before another needs none).
  package var suggests = true

  package init(_ source: Source) { self.source = source }

  package typealias Outcome = NameOutcome<Source.Place>

  /// How many names sharing the typed first letter a typo search compares at most, per
  /// source (bounded work at any catalogue size).
  package static var typoScan: Int { 40_000 }
  /// How many names starting with the other ``typoPrefixes(_:)`` a typo search compares at
  /// most, per source, all of them together.
  package static var otherTypoScan: Int { 16_000 }
  /// How many of the largest places a prefix's places are compared with at most, for a typo
  /// that dwarfs them (``dwarfing(_:_:)``).
  package static var largePlaces: Int { 2_048 }
  /// How many near names a typo search looks up places for at most (the nearest first).
  package static var typoLookups: Int { 32 }
  /// How many times the next place's people the largest place of an exact name must have to
  /// be taken for the name.
  package static var dominance: Int { 10 }
  /// How many closest names a failed lookup offers.
  package static var suggestionCount: Int { 5 }

  func fold(_ s: String) -> [UInt8] { Fold.key(s, version: source.foldVersion) }

  // MARK: One name

  package func resolve(_ text: String) throws(StoreError) -> Outcome {
    var sharing = 0
    return try resolve(text, sharing: &sharing)
  }

  /// ``resolve(_:)``, and how many other places share the name of the one found (when it
  /// was taken as the largest of them).
  package func resolve(_ text: String, sharing: inout Int) throws(StoreError) -> Outcome {
    sharing = 0
    let query = text.trimmingSpaces
    guard !query.isEmpty else { return .none(closest: []) }
    if query.allSatisfy(\.isASCIIDigit), let id = Int(query) {
      let hits = try source.places(withID: id)
      if hits.count == 1 { return .one(hits[0]) }
      if hits.count > 1 { return .several(hits) }
    }
    // A name with a comma in it, as typed (the qualifier's rule below tries the name's
    // spellings).
    let exact = try named(query, insertions: !query.contains(","))
    if !exact.isEmpty, !query.contains(","), let listed = try dwarfed(query, exact) { return .several(listed) }
    if exact.count == 1 { return .one(exact[0]) }
    if exact.count > 1 {
      // The largest first, when it dwarfs the others (`moskva` is Moscow, not the village of
      // Moskva, as `wx search moskva` ranks them; `cologne` is Köln).
      if let p = try largest(exact) {
        sharing = exact.count - 1
        return .one(p)
      }
      // Spelled as exactly one of them, but for case, it is that one: "Zürich" is not "Zurich";
      // unless another has ten times its people (`St. Paul` is not St. Paul, Alberta alone,
      // beside Saint Paul, Minnesota).
      let typed = query.lowercased()
      var literal: [Source.Place] = []
      for p in exact where try source.identity(of: p).name.lowercased() == typed { literal.append(p) }
      if literal.count == 1 {
        guard let own = try source.population(of: literal[0]) else { return .one(literal[0]) }
        for p in exact where try (source.population(of: p) ?? 0) >= Self.dominance * max(own, 1) { return .several(exact) }
        return .one(literal[0])
      }
      if let p = try largest(literal) {
        sharing = exact.count - 1
        return .one(p)
      }
      return .several(exact)
    }
    if let comma = query.lastIndex(of: ",") {
      let qualifier = String(query[query.index(after: comma)...])
      // `Paris,` with nothing after the comma is `Paris`.
      if !Fold.hasKey(qualifier) && Fold.hasKey(String(query[..<comma])) {
        return try resolve(String(query[..<comma]), sharing: &sharing)
      }
      // "Name, Region, Country", as wx writes a place (`Halle (Saale), Saxony-Anhalt, Germany`).
      let head = String(query[..<comma])
      if let inner = head.lastIndex(of: ",") {
        let (inRegion, _) = try qualified(String(head[..<inner]), String(head[head.index(after: inner)...]))
        let typed = fold(qualifier.trimmingSpaces)
        let lines = Countries.lines(naming: typed, version: source.foldVersion)
        var inCountry: [Source.Place] = []
        for p in inRegion where fit(typed, try source.qualifiers(of: p), lines: lines) == .exact { inCountry.append(p) }
        if inCountry.count == 1 { return .one(inCountry[0]) }
        if inCountry.count > 1 { return try largest(inCountry).map { .one($0) } ?? .several(inCountry) }
      }
      let (fitting, named) = try qualified(head, qualifier)
      if fitting.count == 1 { return .one(fitting[0]) }
      if let p = try largest(fitting) {
        sharing = fitting.count - 1
        return .one(p)
      }
      if fitting.count > 1 { return .several(fitting) }
      if !named.isEmpty { return .none(closest: named) }
    }
    for key in Self.keys(fold(query)) {
      let prefixed = try source.places(startingWith: key, limit: 6)
      if let typos = try dwarfing(query, prefixed.places) { return .none(closest: typos) }
      if prefixed.total == 1 { return .one(prefixed.places[0]) }
      if prefixed.total > 1 { return .several(prefixed.places) }
    }
    guard suggests else { return .none(closest: []) }
    let typos = try closest(query)
    if typos.sameLetters.count == 1 { return .one(typos.sameLetters[0]) }
    return .none(closest: typos.places)
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
  func dwarfed(_ query: String, _ exact: [Source.Place]) throws(StoreError) -> [Source.Place]? {
    var exactLargest = 0
    for p in exact {
      guard let people = try source.population(of: p), people < Self.smallPlace else { return nil }
      exactLargest = max(exactLargest, people)
    }
    let prefixed = try source.places(startingWith: fold(query), limit: 6).places
    var largest = 0
    for p in prefixed { largest = max(largest, try source.population(of: p) ?? 0) }
    guard largest >= Self.dominance * max(exactLargest, 1) else { return nil }
    return prefixed + exact
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

  /// The places whose folded name is `text`'s (or, failing that, one of its
  /// ``keys(_:insertions:)``).
  package func named(_ text: String, insertions: Bool = true) throws(StoreError) -> [Source.Place] {
    for key in Self.keys(fold(text), insertions: insertions) {
      let hits = try source.places(named: key)
      if !hits.isEmpty { return hits }
    }
    return []
  }

  /// "Name, Qualifier": the places named `name` whose qualifiers fit best (exact fits over
  /// prefixes), and all the places named `name`.
  func qualified(_ name: String, _ qualifier: String) throws(StoreError) -> (fitting: [Source.Place], named: [Source.Place]) {
    let named = try named(name)
    let typed = fold(qualifier.trimmingSpaces)
    let lines = Countries.lines(naming: typed, version: source.foldVersion)  // once, not per place
    var fitting: [Source.Place] = []
    var best = (fit: Countries.Fit.prefix, region: false)
    for p in named {
      let q = try source.qualifiers(of: p)
      // A region named whole wins over a country it also names: "Bangor, Wales" is the one of
      // Wales, not Northern Ireland's, though "Wales" also reads as the United Kingdom.
      let rank = (fit: fit(typed, q, lines: lines), region: namesRegion(typed, q))
      if rank.fit > best.fit || (rank.fit == best.fit && rank.region && !best.region) { (best, fitting) = (rank, []) }
      if rank.fit == best.fit && rank.region == best.region { fitting.append(p) }
    }
    return (fitting, named)
  }

  /// Whether a typed qualifier is the place's region, by name or code.
  func namesRegion(_ typed: [UInt8], _ q: Qualifiers) -> Bool { q.namesRegion(typed, version: source.foldVersion) }

  /// How well a typed qualifier fits a place (``Qualifiers/fit(_:lines:version:)``).
  func fit(_ typed: [UInt8], _ q: Qualifiers, lines: [Int]) -> Countries.Fit {
    q.fit(typed, lines: lines, version: source.foldVersion)
  }

  /// The folded keys `folded` may stand for, in the order they are tried: itself; then with
  /// spaces left out (an apostrophe typed as a space: `o fallon` is O'Fallon, `st john s` St.
  /// John's), fewest left out first, the first four spaces varying; then with one space put
  /// in (a hyphen typed as nothing: `winstonsalem` is Winston-Salem), between two letters, for
  /// keys up to 40 bytes, also once all spaces are left out. At most 16 + 78 keys, each one
  /// lookup, and only as many as it takes to find something.
  package static func keys(_ folded: [UInt8], insertions: Bool = true) -> KeyVariants {
    KeyVariants(folded: folded, insertions: insertions)
  }

  /// ``keys(_:insertions:)`` after the first: made only when the key as typed has matched
  /// nothing.
  static func variants(_ folded: [UInt8], insertions: Bool) -> [[UInt8]] {
    let spaces = folded.indices.filter { folded[$0] == 0x20 }.prefix(4)
    var out: [[UInt8]] = []
    let masks = (1..<(1 << spaces.count)).sorted { $0.nonzeroBitCount < $1.nonzeroBitCount }
    for mask in masks {
      var key: [UInt8] = []
      key.reserveCapacity(folded.count)
      for (k, i) in spaces.enumerated() {
        key += folded[(k == 0 ? 0 : spaces[spaces.startIndex + k - 1] + 1)..<i]
        if mask & (1 << k) == 0 { key.append(0x20) }
      }
      key += folded[(spaces.last! + 1)...]
      out.append(key)
    }
    // One space put in, into the key as typed and into the key without its spaces (a hyphen
    // typed as nothing beside an apostrophe typed as a space: `vald isere`).
    for base in spaces.isEmpty ? [folded] : [folded, folded.filter { $0 != 0x20 }] where insertions && base.count <= 40 {
      for i in base.indices.dropFirst() where base[i - 1] != 0x20 && base[i] != 0x20 && base[i] & 0xC0 != 0x80 {
        let key = Array(base[..<i]) + [0x20] + base[i...]
        if key != folded && !out.contains(key) { out.append(key) }
      }
    }
    return out
  }

  // MARK: Runs of words

  /// The names in unquoted words: a word ending in a comma goes with the next one (the
  /// qualifier grows word by word while it still fits: `Paris, United States`), and words
  /// that together name a place are that one name, the longest first (`Dar es Salaam`, not
  /// `Dar es` and `Salaam`). Costs a lookup or two per word a run grows by; a run stops as
  /// soon as no name starts with it.
  package func split(_ words: [String]) throws(StoreError) -> [String] {
    try split(words, or: Optional<Self>.none)
  }

  /// ``split(_:)`` where a run of words may name a place of this source or of `other`
  /// (`wx fav rm` names favourites, and cities of the catalogue that may not be favourites).
  package func split<Other: NameSource>(_ words: [String], or other: Resolver<Other>?) throws(StoreError) -> [String] {
    var out: [String] = []
    var i = 0
    while i < words.count {
      var end = i
      var begun = i  // the end of the longest run some name starts with
      var text = ""
      var j = i
      while j < words.count {
        text += (j > i ? " " : "") + words[j]
        j += 1
        if words[j - 1].hasSuffix(","), j < words.count { continue }
        var names = try namesSomething(text)
        if !names, let other { names = try other.namesSomething(text) }
        if names {
          end = j
        } else if text.contains(",") {
          break  // after the comma, the qualifier grows only while it fits
        }
        var (grows, literally) = try growth(text)
        if !literally, let other { (grows, literally) = try other.growth(text) }
        guard grows else { break }
        if literally && !text.contains(",") { begun = j }
      }
      // No run names a place exactly: the longest run that names begin with (`New York`
      // where only New York City and New York Mills are, so that the answer is about them,
      // not about "New"), else the word (with the next after a comma).
      if end == i { end = begun > i + 1 ? begun : min(words.count, i + (words[i].hasSuffix(",") ? 2 : 1)) }
      out.append(words[i..<end].joined(separator: " "))
      i = end
    }
    return out
  }

  /// Whether `text` names a place exactly: its name, or "Name, Qualifier" that fits.
  func namesSomething(_ text: String) throws(StoreError) -> Bool {
    if let comma = text.lastIndex(of: ",") {
      return try !qualified(String(text[..<comma]), String(text[text.index(after: comma)...])).fitting.isEmpty
    }
    // Across words, only spaces left out (an apostrophe typed as a space); a space put in
    // (a hyphen typed as nothing) is for one word, and costs a lookup per letter.
    return try !named(text, insertions: !text.contains(" ")).isEmpty
  }

  /// Whether a run of words may grow into a name: some name starts with it (`literally`:
  /// as typed, not only with an apostrophe typed as a space), or, after a comma, it still
  /// names a place (`Paris, United` fits, as does `Paris, United States`).
  func growth(_ text: String) throws(StoreError) -> (grows: Bool, literally: Bool) {
    if text.contains(",") {
      let names = try namesSomething(text)
      return (names, names)
    }
    let folded = fold(text)
    if try source.hasName(startingWith: folded) { return (true, true) }
    for k in Self.keys(folded, insertions: false).dropFirst() where try source.hasName(startingWith: k) {
      return (true, false)
    }
    return (false, false)
  }

  // MARK: Completion

  /// What completes `typed`: names starting with it, or, when none does, names with a later
  /// word starting with it (`aires`: Buenos Aires), matched as search matches; a name several
  /// places share among them is offered as "Name, Qualifier" (``qualifiedNames(_:)``); after
  /// a comma, the places of that very name whose country (or region, or region code) the
  /// rest begins, qualified by what was typed.
  package func completions(_ typed: String, limit: Int) throws(StoreError) -> [String] {
    var seen = Set<String>()
    if let comma = typed.lastIndex(of: ",") {
      let name = String(typed[..<comma])
      let rest = fold(String(typed[typed.index(after: comma)...]).trimmingSpaces)
      let named = try named(name)
      if rest.isEmpty { return try qualifiedNames(named, always: true).filter { seen.insert($0).inserted } }
      let lines = Countries.lines(naming: rest, version: source.foldVersion)
      var out: [String] = []
      for p in named {
        let q = try source.qualifiers(of: p)
        guard fit(rest, q, lines: lines) != .none else { continue }
        // Qualified as typed: by the country when the rest fits it, else by the region's
        // name when the rest begins it, else by its code.
        var by = q.country
        if Countries.fit(rest, fold(q.country), lines: lines, version: source.foldVersion) == .none {
          if let region = q.region, fold(region).starts(with: rest) {
            by = region
          } else if let code = q.regionCode, fold(code) == rest {
            by = code
          }
        }
        let text = "\(try source.identity(of: p).name), \(by)"
        if seen.insert(text).inserted { out.append(text) }
      }
      return out
    }
    var found: [Source.Place] = []
    for key in Self.keys(fold(typed)) {
      let r = try source.places(startingWith: key, limit: limit)
      guard r.total > 0 else { continue }
      // Names that start with the word, when some do: a TAB then goes on to the name ("pa"
      // to "Paris, "), where São Paulo would stop it; and the places the word names whole by
      // another of their names (`kiev`: Kyiv beside Kievskiy, never Kievskiy alone).
      var whole: [CityIdentity] = []
      for p in try source.places(named: key) { whole.append(try source.identity(of: p)) }
      var starting: [Source.Place] = []
      for p in r.places {
        let identity = try source.identity(of: p)
        if fold(identity.name).starts(with: key) || whole.contains(identity) { starting.append(p) }
      }
      found = starting.isEmpty ? r.places : starting
      break
    }
    return try qualifiedNames(found, always: false).filter { seen.insert($0).inserted }
  }

  /// How `places` are offered, in order: a name only one of them has, bare; a name several
  /// share (or every name, `always`) with what tells its place apart, as every command takes
  /// it: the country when no other of that name is in it ("Paris, France"), else the region
  /// ("Springfield, Illinois"), else the country.
  func qualifiedNames(_ places: [Source.Place], always: Bool) throws(StoreError) -> [String] {
    var all: [(name: String, q: Qualifiers)] = []
    for p in places { all.append((try source.identity(of: p).name, try source.qualifiers(of: p))) }
    var out: [String] = []
    for (k, a) in all.enumerated() {
      var sharesName = false
      var sharesCountry = false
      for (j, b) in all.enumerated() where j != k && b.name == a.name {
        sharesName = true
        if b.q.country == a.q.country { sharesCountry = true }
      }
      if !sharesName && !always {
        out.append(a.name)
      } else if sharesCountry, let region = a.q.region {
        out.append("\(a.name), \(region)")
      } else if sharesName && !always && sharesCountry
        && !all.contains(where: { $0.name == a.name && $0.q.country != a.q.country })
      {
        out.append(a.name)  // several of one country the source cannot tell apart
      } else {
        out.append("\(a.name), \(a.q.country)")
      }
    }
    return out
  }

  /// What completes the word under the cursor, `current`, after the words `before` it on a
  /// command line: the rest of a name the last words begin (`new y` offers `York` of New
  /// York, `Paris, us` offers `United States`), the longest run of words first; then names
  /// `current` alone begins. When the words are all one name (`whole`: `wx show` joins
  /// them), only the run of all of them. Names in `excluding` (already on the line) are not
  /// offered.
  package func completions(
    _ current: String, after before: [String], whole: Bool, limit: Int, excluding: Set<String> = []
  ) throws(StoreError) -> [String] {
    var out: [String] = []
    var seen = Set<String>()
    // After a word ending in a comma, the next word is its qualifier: no name starts there.
    let fresh = before.last?.hasSuffix(",") == true ? 1 : 0
    let runs = whole ? [before.count] : Array((fresh...max(fresh, min(3, before.count))).reversed())
    for k in runs where k <= before.count {
      let run = Array(before.suffix(k))
      for name in try completions((run + [current]).joined(separator: " "), limit: limit) where !excluding.contains(name) {
        guard let rest = Self.rest(of: name, after: run), !rest.isEmpty else { continue }
        if seen.insert(rest).inserted { out.append(rest) }
      }
    }
    return out
  }

  /// `name` without the part the words `run` typed, when they type a start of it that ends
  /// at a word boundary (folded, spaces aside): `New York` after `new` is `York`, `O'Fallon`
  /// after `o` is `Fallon`, `Val-d'Isère` after `val d` is `Isère`; else nil.
  static func rest(of name: String, after run: [String]) -> String? {
    guard !run.isEmpty else { return name }
    let typed = Fold.key(run.joined(separator: " ")).filter { $0 != 0x20 }
    let scalars = Array(name.unicodeScalars)
    var prefix = ""
    for (k, scalar) in scalars.enumerated() {
      prefix.unicodeScalars.append(scalar)
      let folded = Fold.key(prefix).filter { $0 != 0x20 }
      guard folded.count >= typed.count else { continue }
      guard folded == typed else { return nil }
      // The rest starts after the separators that follow (space, hyphen, apostrophe…).
      let rest = scalars[(k + 1)...].drop { Fold.key(String($0)).isEmpty }
      guard rest.startIndex > k + 1 || k + 1 == scalars.count else { continue }
      var out = ""
      out.unicodeScalars.append(contentsOf: rest)
      return out
    }
    return nil
  }

  // MARK: Suggestions

  /// The prefixes whose names a typo of `key` is compared with: its first letter (the usual
  /// typo keeps it), then, for the first letter wrong, missing or typed extra, the next two
  /// letters after each letter a–z (`ondon`: `lon…`; `urich`: `zur…`), and the key without
  /// its first letter (`xlondon`: `lon…`). At most 1 + 2 × 26 + 1 prefixes.
  package static func typoPrefixes(_ key: [UInt8]) -> [[UInt8]] {
    guard let first = key.first else { return [] }
    var out: [[UInt8]] = [[first]]
    func add(_ p: [UInt8]) { if p.count > 1, !out.contains(p) { out.append(p) } }
    let wrong = Array(key.dropFirst().prefix(2))
    let missing = Array(key.prefix(2))
    for letter in UInt8(ascii: "a")...UInt8(ascii: "z") {
      if wrong.count == 2, letter != first { add([letter] + wrong) }
      if missing.count == 2 { add([letter] + missing) }
    }
    add(Array(key.dropFirst().prefix(3)))
    return out
  }

  /// The closest names to `query`: names within a small edit distance of its folded form (1
  /// up to 4 bytes, else 2; of similar length, among ``NameSource/typoNames(for:_:)``),
  /// nearest first and, at one distance, larger places first (then names more places share,
  /// then names of the typed length); then the places matching the longest prefix of `query`
  /// that matches anything. Places are looked up for the ``typoLookups`` nearest names only.
  /// `sameLetters`: the places whose name has the very letters typed, spaces aside (a hyphen
  /// typed as nothing: `winstonsalem`).
  func closest(_ query: String) throws(StoreError) -> (places: [Source.Place], sameLetters: [Source.Place]) {
    let key = fold(query)
    let squashed = key.filter { $0 != 0x20 }
    let allowed = key.count <= 4 ? 1 : 2
    var near: [(key: [UInt8], distance: Int)] = []
    var same: [[UInt8]] = []
    if !key.isEmpty {
      try source.typoNames(for: key) { name in
        if name.count > squashed.count, name.count <= squashed.count + 4, name.filter({ $0 != 0x20 }) == squashed,
          !same.contains(name)
        {
          same.append(name)
        }
        guard abs(name.count - key.count) <= allowed, let d = Self.distance(key, name, limit: allowed),
          !near.contains(where: { $0.key == name })
        else { return }
        near.append((name, d))
      }
    }
    var sameLetters: [Source.Place] = []
    for name in same { sameLetters += try source.places(named: name) }
    near.sort { a, b in a.distance != b.distance ? a.distance < b.distance : a.key.lexicographicallyPrecedes(b.key) }
    var found: [(key: [UInt8], distance: Int, people: Int, places: [Source.Place])] = []
    for n in near.prefix(Self.typoLookups) {
      let places = try source.places(named: n.key)
      guard !places.isEmpty else { continue }
      var people = -1
      for p in places { people = max(people, try source.population(of: p) ?? -1) }
      found.append((n.key, n.distance, people, places))
    }
    found.sort { a, b in
      if a.distance != b.distance { return a.distance < b.distance }
      if a.people != b.people { return a.people > b.people }
      if a.places.count != b.places.count { return a.places.count > b.places.count }
      let (da, db) = (abs(a.key.count - key.count), abs(b.key.count - key.count))
      return da != db ? da < db : a.key.lexicographicallyPrecedes(b.key)
    }
    var out = Array(found.flatMap(\.places).prefix(Self.suggestionCount))
    if out.count < Self.suggestionCount {
      for p in try prefixSuggestions(query) where out.count < Self.suggestionCount {
        let c = try source.candidate(p)
        var known = false
        for o in out where try source.candidate(o) == c { known = true }
        if !known { out.append(p) }
      }
    }
    return (out, sameLetters)
  }

  /// The places matching the longest prefix of `query` that matches anything.
  ///
  /// The proper prefixes (1 ..< n scalars) are tried by binary search, not one by one (which
  /// costs time quadratic in the query's length): folding streams, so a shorter prefix's key is
  /// a prefix of a longer one's. Keys are empty up to some length and non-empty from there on,
  /// and from there on matches only shrink as the prefix grows.
  private func prefixSuggestions(_ query: String) throws(StoreError) -> [Source.Place] {
    let scalars = Array(query.unicodeScalars)
    func prefix(_ k: Int) -> [UInt8] {
      var s = ""
      s.unicodeScalars.append(contentsOf: scalars[..<k])
      return fold(s)
    }
    // The shortest prefix with a non-empty key.
    var lo = 1
    var hi = scalars.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if prefix(mid).isEmpty { lo = mid + 1 } else { hi = mid }
    }
    // The longest one from there that still matches.
    var best: [Source.Place] = []
    hi = scalars.count - 1
    while lo <= hi {
      let mid = (lo + hi) / 2
      let page = try source.places(startingWith: prefix(mid), limit: Self.suggestionCount)
      if page.total > 0 {
        best = page.places
        lo = mid + 1
      } else {
        hi = mid - 1
      }
    }
    return best
  }

  /// The optimal-string-alignment distance between `a` and `b` (insertions, deletions,
  /// substitutions and swaps of neighbours, by byte), or nil when it exceeds `limit`.
  /// Stops a row early once every cell of it is past the limit.
  package static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int? {
    if abs(a.count - b.count) > limit { return nil }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    // First a bound that allocates nothing: each byte value one string has and the other
    // lacks costs an edit (values folded into 64 bits, which only lowers the bound).
    var (ma, mb) = (UInt64(0), UInt64(0))
    for x in a { ma |= 1 << (x & 63) }
    for x in b { mb |= 1 << (x & 63) }
    if (ma & ~mb).nonzeroBitCount > limit || (mb & ~ma).nonzeroBitCount > limit { return nil }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMin = i
      for j in 1...b.count {
        var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, before[j - 2] + 1) }
        current[j] = d
        rowMin = min(rowMin, d)
      }
      if rowMin > limit { return nil }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count] <= limit ? previous[b.count] : nil
  }
}

extension Resolver {
  /// The places `words` name, in order, each once (`wx fav rm New York New York` removes it
  /// once): the names of ``split(_:)``, each resolved. Throws ``LookupError`` for the first
  /// name that does not name exactly one place.
  package func places<ID: Hashable>(
    _ words: [String], identity: (Source.Place) throws(StoreError) -> ID
  ) throws -> [Source.Place] {
    var out: [Source.Place] = []
    var seen = Set<ID>()
    for name in try split(words) {
      let place = try one(name)
      if seen.insert(try identity(place)).inserted { out.append(place) }
    }
    return out
  }

  /// The one place `text` names, or ``LookupError``.
  package func one(_ text: String) throws -> Source.Place {
    switch try resolve(text) {
    case .one(let p): return p
    case .several(let ps):
      throw LookupError.ambiguous(query: text, candidates: try ps.map { p throws(StoreError) in try source.candidate(p) })
    case .none(let ps):
      throw LookupError.notFound(query: text, suggestions: try ps.map { p throws(StoreError) in try source.candidate(p) })
    }
  }
}

/// The keys a folded query may stand for (``Resolver/keys(_:insertions:)``): the key as typed
/// first, the variants made only if asked for, so the usual lookup (the first key matches)
/// allocates none.
package struct KeyVariants: Sequence, IteratorProtocol {
  let folded: [UInt8]
  let insertions: Bool
  private var rest: [[UInt8]]?
  private var k = 0

  init(folded: [UInt8], insertions: Bool) {
    self.folded = folded
    self.insertions = insertions
  }

  package mutating func next() -> [UInt8]? {
    defer { k += 1 }
    if k == 0 { return folded }
    if rest == nil { rest = Resolver<PlaceList>.variants(folded, insertions: insertions) }
    return k - 1 < rest!.count ? rest![k - 1] : nil
  }
}

/// Qualifiers the country table reads as a country that are, for places, their region:
/// England, Scotland, Wales and Northern Ireland (the United Kingdom's, as GeoNames names them).
enum RegionsNotCountries {
  static let folded: Set<[UInt8]> = Set(["england", "scotland", "wales", "northern ireland"].map { Array($0.utf8) })
}
