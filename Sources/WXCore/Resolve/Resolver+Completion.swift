extension Resolver {
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
        // A region's name from its first letter (`Springfield, M` offers Massachusetts,
        // Michigan, Missouri…), though a lookup reads two letters as a code, never as its start.
        let regionBegun = q.region.map { fold($0).starts(with: rest) } ?? false
        guard regionBegun || fit(rest, q, lines: lines) != .none else { continue }
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
      var whole = Set<CityIdentity>()
      for p in try source.places(named: key) { whole.insert(try source.identity(of: p)) }
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
    // How many places have each name, and each name in each country: counted once, so
    // offering 100k favourites is linear (comparing every pair was quadratic). Those the
    // name is another name of count too: "Newcastle, United Kingdom" alone would be
    // Newcastle upon Tyne (``Resolver/spelled``), not Northern Ireland's Newcastle offered.
    var inCountry: [String: [String: Int]] = [:]
    for a in all { inCountry[a.name, default: [:]][a.q.country, default: 0] += 1 }
    for name in Set(all.map(\.name)) {
      var others: [String: Int] = [:]
      for p in try source.places(named: fold(name)) where try fold(source.identity(of: p).name) != fold(name) {
        others[try source.qualifiers(of: p).country, default: 0] += 1
      }
      for (country, n) in others { inCountry[name, default: [:]][country, default: 0] += n }
    }
    var out: [String] = []
    for a in all {
      let countries = inCountry[a.name, default: [:]]
      let sharesName = countries.values.reduce(0, +) > 1
      let sharesCountry = countries[a.q.country, default: 0] > 1
      if !sharesName && !always {
        out.append(a.name)
      } else if sharesCountry, let region = a.q.region {
        out.append("\(a.name), \(region)")
      } else if sharesName && !always && sharesCountry && countries.count == 1 {
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
        guard let rest = Self.rest(of: name, after: run) ?? Self.rest(ofQualifier: name, after: run), !rest.isEmpty
        else { continue }
        if seen.insert(rest).inserted { out.append(rest) }
      }
    }
    return out
  }

  /// The rest of `name`'s qualifier after the words `run` typed past their comma, when the
  /// name before it is another form of the one typed: `newcastle, eng` offers England of
  /// "Newcastle upon Tyne, England" (Newcastle is its name before its joiner), which reads
  /// back as that place; nil without a comma among the words.
  static func rest(ofQualifier name: String, after run: [String]) -> String? {
    guard let c = run.lastIndex(where: { $0.hasSuffix(",") }), let comma = name.lastIndex(of: ",") else { return nil }
    return rest(of: String(name[name.index(after: comma)...]).trimmingSpaces, after: Array(run[(c + 1)...]))
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
}
