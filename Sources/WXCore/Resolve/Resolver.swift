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
    var begun = 0
    return try resolve(text, sharing: &sharing, begun: &begun)
  }

  /// ``resolve(_:sharing:)``, and how many places the text begins when it was taken as the
  /// beginning of the name of the one found (the only one, or the largest by ``dominance``).
  package func resolve(_ text: String, sharing: inout Int, begun started: inout Int) throws(StoreError) -> Outcome {
    (sharing, started) = (0, 0)
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
    if !exact.isEmpty, !query.contains(","), let listed = try dwarfed(query, exact) {
      // Unless the largest place the word begins dwarfs every other too (`tok` is Tokyo).
      guard try leads(listed.places) else { return .several(listed.places) }
      started = listed.begun
      return .one(listed.places[0])
    }
    if exact.count == 1 { return .one(exact[0]) }
    if exact.count > 1 {
      // The largest first, when it dwarfs the others (`moskva` is Moscow, not the village of
      // Moskva, as `wx search moskva` ranks them; `cologne` is Köln).
      if let p = try largest(exact) {
        sharing = exact.count - 1
        return .one(p)
      }
      // Said to share the name (`weil` is Weil, Bavaria, beside Weil am Rhein).
      guard let p = try spelled(query, exact) else { return .several(exact) }
      sharing = exact.count - 1
      return .one(p)
    }
    if let comma = query.lastIndex(of: ",") {
      let qualifier = String(query[query.index(after: comma)...])
      // `Paris,` with nothing after the comma is `Paris`.
      if !Fold.hasKey(qualifier) && Fold.hasKey(String(query[..<comma])) {
        return try resolve(String(query[..<comma]), sharing: &sharing, begun: &started)
      }
      // "Name, Region, Country", as wx writes a place (`Halle (Saale), Saxony-Anhalt, Germany`).
      let head = String(query[..<comma])
      // Or a country whose name holds a comma ("Seoul, Korea, Republic of").
      var inCountry = try regionAndCountry(head, qualifier, least: .exact) ?? []
      if inCountry.isEmpty { inCountry = try countryWithComma(query, least: .exact) ?? [] }
      if inCountry.count == 1 { return .one(inCountry[0]) }
      if inCountry.count > 1 { return try largest(inCountry).map { .one($0) } ?? .several(inCountry) }
      let (fitting, named) = try qualified(head, qualifier)
      // The rule of ``dwarfed(_:_:)`` within the qualifier: `Newcastle, UK` is no answer by
      // Northern Ireland's Newcastle, 7,444 people, while Newcastle upon Tyne begins so.
      if !fitting.isEmpty, let listed = try dwarfed(head, qualifier, fitting) { return .several(listed) }
      if fitting.count == 1 { return .one(fitting[0]) }
      if let p = try largest(fitting) {
        sharing = fitting.count - 1
        return .one(p)
      }
      if fitting.count > 1 {
        // Spelled so, as bare: `Stratford, England` is Stratford, not Stratford-upon-Avon,
        // also named Stratford (the name before its joiner), which has fewer people.
        // Or the one whose country is written as typed: twins a catalogue lists under two
        // spellings of one country (`Ljubljana, SI` and `Ljubljana, Slovenia`) are each named
        // by their own (the list's hint, "Name, Country", had named both).
        var picked = try spelled(head.trimmingSpaces, fitting)
        if picked == nil { picked = try countrySpelled(qualifier, fitting) }
        guard let p = picked else { return .several(fitting) }
        sharing = fitting.count - 1
        return .one(p)
      }
      // No place of the name is there: the places there whose name begins so ("Newcastle,
      // England" is Newcastle upon Tyne or Newcastle-under-Lyme, not Northern Ireland's).
      // Then those there with the name as later whole words ("Hull, UK" is Kingston upon
      // Hull: GeoNames's "Hull" for it is dropped, Hull, Quebec having a fifth of its people).
      for later in [false, true] {
        let begun = try begun(head, qualifier, laterWords: later)
        if begun.count == 1 { return .one(begun[0]) }
        if let p = try largest(begun) { return .one(p) }
        if begun.count > 1 { return .several(begun) }
      }
      if !named.isEmpty { return .none(closest: named) }
    }
    for key in Self.keys(fold(query)) {
      let prefixed = try source.places(startingWith: key, limit: 6)
      if let typos = try dwarfing(query, prefixed.places) { return .none(closest: typos) }
      // The one place the text begins, or the first (the largest) when it dwarfs the others.
      let leading = prefixed.total > 1 ? try leads(prefixed.places) : false
      if prefixed.total == 1 || leading {
        started = prefixed.total
        return .one(prefixed.places[0])
      }
      if prefixed.total > 1 { return .several(prefixed.places) }
    }
    guard suggests else { return .none(closest: []) }
    if let there = try closestThere(query) { return .none(closest: there) }
    let typos = try closest(query)
    if typos.sameLetters.count == 1 { return .one(typos.sameLetters[0]) }
    return .none(closest: typos.places)
  }

  /// "Name, Region, Country": the places of Name whose qualifiers fit Region (`head` is "Name,
  /// Region") and whose country fits `qualifier` at least as `least` says (`.prefix` while a
  /// run of typed words grows: `Springfield, Illinois, United`); nil when `head` has no comma.
  func regionAndCountry(_ head: String, _ qualifier: String, least: Countries.Fit) throws(StoreError) -> [Source.Place]? {
    guard let inner = head.lastIndex(of: ",") else { return nil }
    let (inRegion, _) = try qualified(String(head[..<inner]), String(head[head.index(after: inner)...]))
    return try qualifiedBy(inRegion, qualifier, least: least)
  }

  /// "Name, Country" where the country's name holds a comma, as ISO writes some ("Seoul, Korea,
  /// Republic of"): the places of the name before the first comma whose country the rest
  /// names, at least as `least` says; nil when the text has fewer than two commas.
  func countryWithComma(_ text: String, least: Countries.Fit) throws(StoreError) -> [Source.Place]? {
    guard let first = text.firstIndex(of: ","), text[text.index(after: first)...].contains(",") else { return nil }
    return try qualifiedBy(named(String(text[..<first])), String(text[text.index(after: first)...]), least: least)
  }

  /// Those of `places` whose qualifiers `qualifier` fits at least as `least` says.
  func qualifiedBy(_ places: [Source.Place], _ qualifier: String, least: Countries.Fit) throws(StoreError) -> [Source.Place] {
    let typed = fold(qualifier.trimmingSpaces)
    let lines = Countries.lines(naming: typed, version: source.foldVersion)  // once, not per place
    var out: [Source.Place] = []
    for p in places where fit(typed, try source.qualifiers(of: p), lines: lines) >= least { out.append(p) }
    return out
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
  /// prefixes, a prefix of the country over one of the state a territory belongs to), and
  /// all the places named `name`.
  func qualified(_ name: String, _ qualifier: String) throws(StoreError) -> (fitting: [Source.Place], named: [Source.Place]) {
    let named = try named(name)
    let typed = fold(qualifier.trimmingSpaces)
    let lines = Countries.lines(naming: typed, version: source.foldVersion)  // once, not per place
    var fitting: [Source.Place] = []
    var best = (fit: Countries.Fit.sovereignPrefix, region: false)
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

  /// "Name, Qualifier" where no place of the name fits: the places whose own name begins with
  /// `name` as whole words (`Newcastle` begins Newcastle upon Tyne, `lond` no name; a later
  /// word does not count) and whose qualifiers the qualifier names exactly, in the source's
  /// order (largest first where it knows sizes).
  /// With `laterWords`, those whose name holds `name` as whole words after its first word
  /// (`Hull` in Kingston upon Hull), never at its start.
  func begun(_ name: String, _ qualifier: String, laterWords: Bool = false) throws(StoreError) -> [Source.Place] {
    let key = fold(name)
    guard !key.isEmpty else { return [] }
    let typed = fold(qualifier.trimmingSpaces)
    let lines = Countries.lines(naming: typed, version: source.foldVersion)
    var out: [Source.Place] = []
    // Whether `key` stands as whole words at `k` of `own`.
    func whole(_ own: [UInt8], at k: Int) -> Bool {
      own.count >= k + key.count && own[k..<(k + key.count)].elementsEqual(key)
        && (own.count == k + key.count || own[k + key.count] == 0x20)
    }
    for p in try source.places(startingWith: key, limit: 200).places {
      let own = fold(try source.identity(of: p).name)
      if laterWords {
        guard !own.starts(with: key), Fold.wordStarts(own).contains(where: { whole(own, at: $0) }) else { continue }
      } else {
        guard whole(own, at: 0) else { continue }
      }
      if fit(typed, try source.qualifiers(of: p), lines: lines) == .exact { out.append(p) }
    }
    return out
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
}
