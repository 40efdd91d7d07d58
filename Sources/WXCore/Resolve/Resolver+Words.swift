extension Resolver {
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
          // After the comma, the qualifier grows only while it fits; but a country whose name
          // holds a comma fits only once whole ("Seoul, Korea, Republic of"): the longest run
          // on that names one.
          if text.filter({ $0 == "," }).count >= 2 {
            var longer = text
            for k in j..<words.count {
              longer += " " + words[k]
              if let there = try countryWithComma(longer, least: .exact), !there.isEmpty { end = k + 1 }
            }
          }
          break
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
      // A comma left out: the next word names exactly the region or country of a place
      // the run names, and begins no longer name (`london ontario` is not London, England
      // and Ontario, California, but a name that fits nothing: its closest places say
      // which, London, Ontario first; `paris new york` stays Paris and New York).
      let run = words[i..<end].joined(separator: " ")
      // (A name typed twice, `oslo oslo`, is the place twice, though Oslo is in Oslo.)
      if end < words.count, !run.contains(","), !words[end].hasSuffix(","), fold(words[end]) != fold(run) {
        var parted = try missingComma(run, words[end])
        if !parted, let other { parted = try other.missingComma(run, words[end]) }
        var longer = false  // the next word begins a longer name (`new york`)
        if parted && end + 1 < words.count {
          let next = words[end...(end + 1)].joined(separator: " ")
          longer = try growth(next).grows
          if !longer, let other { longer = try other.growth(next).grows }
        }
        if parted && !longer { end += 1 }
      }
      out.append(words[i..<end].joined(separator: " "))
      i = end
    }
    return out
  }

  /// Whether `next` names exactly the region, region code or country of a place `name`
  /// names: the word after a name that a comma should have parted from it.
  func missingComma(_ name: String, _ next: String) throws(StoreError) -> Bool {
    let typed = fold(next)
    guard !typed.isEmpty else { return false }
    let lines = Countries.lines(naming: typed, version: source.foldVersion)
    for p in try named(name) where fit(typed, try source.qualifiers(of: p), lines: lines) == .exact { return true }
    return false
  }

  /// Whether `text` names a place exactly: its name, or "Name, Qualifier" that fits.
  func namesSomething(_ text: String) throws(StoreError) -> Bool {
    if let comma = text.lastIndex(of: ",") {
      let (head, qualifier) = (String(text[..<comma]), String(text[text.index(after: comma)...]))
      // "Name, Region, Country" whole (`wx fav add Springfield, Illinois, US`).
      if let inCountry = try regionAndCountry(head, qualifier, least: .prefix), !inCountry.isEmpty { return true }
      // A country whose name holds a comma ("Seoul, Korea, Republic of").
      if let inCountry = try countryWithComma(text, least: .prefix), !inCountry.isEmpty { return true }
      return try !qualified(head, qualifier).fitting.isEmpty
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
    // Or spelled otherwise, as the run would be named (`ft lauderdale`: no name starts with
    // `ft`, and `wx fav add ft lauderdale` looked up `ft` alone).
    for k in WorldNames.otherSpellings(folded) where try source.hasName(startingWith: k) { return (true, true) }
    for k in Self.keys(folded, insertions: false).dropFirst() where try source.hasName(startingWith: k) {
      return (true, false)
    }
    return (false, false)
  }
}
