import WXCore
import WXFeed

/// The atlas as read commands use it: opened (and built on first use) beside the catalogue,
/// never a reason for a catalogue command to fail.
extension Context {
  /// `WX_ATLAS=off` searches and resolves in the catalogue alone; `own` uses the state
  /// folder's own atlas, never the shared one.
  static func atlasEnabled() throws -> Bool {
    switch Environment.get("WX_ATLAS") {
    case nil, "on", "own": return true
    case "off": return false
    case let other?: throw ConfigError("WX_ATLAS=\(Redact.text(other, limit: 20)) is not on, own or off")
    }
  }

  /// The atlas, built from the shipped data on first use; nil when it is off, not installed
  /// (`WX_DATA_DIR` names a folder without `atlas.bin`, or none is found), or cannot be read
  /// or built (a warning, once: the catalogue alone answers). A bad `WX_ATLAS` is an error.
  func atlas() throws -> Atlas? {
    let atlas = try Self.atlas(for: home, console)
    if let atlas { ProcessLifetime.keep(atlas) }
    return atlas
  }

  /// Whether commands read an atlas at all: not when it is off, nor when `WX_DATA_DIR` names
  /// a folder without `atlas.bin` and the state folder has none. A bad `WX_ATLAS` is an error.
  static func readsAtlas(_ home: Home) throws -> Bool {
    guard try Self.atlasEnabled() else { return false }
    if let data = Environment.get("WX_DATA_DIR"), !FileSystem.exists(data + "/" + AtlasData.fileName),
      !FileSystem.exists(home.atlasPath)
    {
      return false
    }
    return true
  }

  /// Whether the shared atlas may be read (not under `WX_ATLAS=own`).
  static var sharesAtlas: Bool { Environment.get("WX_ATLAS") != "own" }

  /// ``atlas()`` for a state folder (`wx browse` keeps one open).
  static func atlas(for home: Home, _ console: Console) throws -> Atlas? {
    guard try Self.readsAtlas(home) else { return nil }
    // Building it takes about a second: a terminal is told, then the line is cleared.
    var told = false
    defer { if told { console.control("\r\u{1B}[K", toStderr: true) } }
    let building = {
      guard console.terminal.stderrIsTTY, !console.notesMuted else { return }
      console.control("wx: building the world atlas for this state folder (once)…", toStderr: true)
      told = true
    }
    do {
      return try home.openAtlas(shared: sharesAtlas, building: building) { damage in
        console.warn(damage, "using the shared atlas")
      }
    } catch {
      console.warn(error, "using the catalogue without the atlas")
      return nil
    }
  }

  /// Search and resolution over the catalogue and the atlas.
  func finder(_ catalogue: Catalogue) throws -> PlaceFinder { PlaceFinder(catalogue: catalogue, atlas: try atlas()) }

  /// CITY (or the last city shown) as a catalogue city or an atlas place; remembers it as the
  /// last city (unless `remembering` is false: `--format`), and says which place an exact name shared by others was taken for.
  /// `command`: what a note offers to run on another place of the name (`wx forecast`).
  func resolvePlace(_ argument: String?, in finder: PlaceFinder, remembering: Bool = true, command: String = "wx show")
    throws -> Found
  {
    let found: Found
    if let argument {
      let lookedUp: (found: Found, sharing: Int, begun: Int)
      do {
        lookedUp = try finder.lookup(argument)
      } catch {
        // `wx show paris london`: no place has that name, but the words name two places (as
        // `--format` reads them): say so, not "no place named" with the closest names.
        guard let several = try? finder.severalPlaces(argument) else { throw error }
        let names = several.map { PlaceText.full($0).visible }.joined(separator: "; ")
        throw UsageError("\(argument.quoted()) names \(several.count) places (\(names)): name one at a time")
      }
      let (f, sharing, begun) = lookedUp
      if sharing > 0 { noteShared(argument, f, sharing, in: finder, command: command) }
      if begun > 0 { noteBegun(argument, f, begun) }
      found = f
    } else {
      let saved = savedPreferences()
      guard let last = saved.lastCity else { throw LookupError.noLastCity }
      if let id = saved.lastPlace, let place = try finder.atlas?.place(geonameID: id),
        Fold.key(place.name) == Fold.key(last.name)
      {
        // The very place last shown (not the other Halle of Flanders).
        found = try finder.found(place)
      } else if let city = try finder.catalogue.find(last)?.city {
        found = try finder.found(city)
      } else if let place = try finder.atlas?.named(last.name).first(where: { finder.sameCountry($0, last.country) }) {
        found = Found(city: nil, place: place)
      } else {
        throw LookupError.notFound(query: "\(last.name), \(last.country)", suggestions: [])
      }
    }
    if remembering { remember(found.asCity, place: found.place?.geonameID) }
    return found
  }

  /// `wx: "Paris" is Paris, Île-de-France, France (2,138,551 people); 9 other places share
  /// the name: `wx search paris` lists them`; a few others each by the command that shows it
  /// (`rio`: `wx show 'Río, Greece'` and `wx show 'Rio, Wisconsin'`, which search lists on
  /// its tenth page).
  /// The others are offered to `command`, the one that was run (`wx fav add 'Río, Greece'`).
  func noteShared(_ argument: String, _ f: Found, _ sharing: Int, in finder: PlaceFinder, command: String = "wx show") {
    let others = sharing == 1 ? "1 other place shares" : "\(sharing) other places share"
    // The name the others share is the one typed: `tokyo` is the sample's 東京, and Cologne is
    // Köln, but `wx search 東京` or `wx search Köln` would not list the other Tokyos or Colognes.
    let typed = PlaceText.searchWords(argument)
    let said = "wx: \(argument.quoted()) is \(PlaceText.full(f).visible)\(PlaceText.peopleAside(f)); \(others) the name: "
    // Each by an argument the command resolves to it alone, silently (tried): two catalogue
    // records of one town (`Oslo, Norway` twice) leave it to search.
    if let namesakes = try? finder.namesakes(of: argument, besides: f, count: sharing),
      let arguments = finder.arguments(naming: namesakes, candidates: { PlaceText.arguments($0, finder) })
    {
      let commands = arguments.map { "`\(command) \(PlaceText.shellWord($0).visible)`" }
      console.note(said + (commands.count > 1 ? commands.dropLast().joined(separator: ", ") + " and " : "") + commands.last!)
      return
    }
    var words = Fold.key(typed) == Fold.key(f.name) ? f.name : typed
    // With its qualifier, which search reads as `wx show` does: `San Jose, CR` shares its
    // name with 2 places of Costa Rica, not with the 266 that `wx search 'San José'` lists.
    if let comma = argument.firstIndex(of: ","),
      case let qualifier = String(argument[argument.index(after: comma)...]).trimmingSpaces,
      !qualifier.isEmpty
    {
      words += ", " + qualifier
    }
    console.note(said + "`wx search \(PlaceText.shellWord(words).visible)` lists them")
  }

  /// `wx: "lond" is London, England, United Kingdom (8,961,989 people), the largest by far
  /// of 38 places whose names start so: `wx search lond` lists them` (a prefix picks a place
  /// only when it is the only one or dwarfs the others, and always says so).
  func noteBegun(_ argument: String, _ f: Found, _ begun: Int) {
    let which =
      begun == 1
      ? "the only place whose name starts so"
      : "the largest by far of \(begun) places whose names start so: "
        + "`wx search \(PlaceText.shellWord(PlaceText.searchWords(argument)).visible)` lists them"
    console.note("wx: \(argument.quoted()) is \(PlaceText.full(f).visible)\(PlaceText.peopleAside(f)), \(which)")
  }
}

/// How a place reads: its full name, its people, the argument that names it.
enum PlaceText {
  /// `Springfield, Illinois, United States`; a catalogue city that is no atlas place:
  /// `Name, Country`.
  static func full(_ f: Found) -> String { full(name: f.name, region: f.place?.region, country: f.country) }

  /// A candidate of a name that named several places, or none, as ``full(_:)``.
  static func full(_ c: Candidate) -> String { full(name: c.name, region: c.region, country: c.country) }

  private static func full(name: String, region: String?, country: String) -> String {
    if let region, region != name { return "\(name), \(region), \(country)" }
    return "\(name), \(country)"
  }

  /// The name part of an argument, without the qualifier after a comma (the name the others
  /// share; the note that says so puts the qualifier back for search).
  static func searchWords(_ argument: String) -> String {
    let name = argument.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? argument
    return name.trimmingSpaces.isEmpty ? argument.trimmingSpaces : name.trimmingSpaces
  }

  /// `n` with a comma every three digits (`3,644,826`), built on its ASCII bytes (as an
  /// array of Characters it cost 19 k instructions, a tenth of what the atlas adds to `show`).
  static func people(_ n: Int) -> String {
    let digits = Array(String(n).utf8)
    var out: [UInt8] = []
    out.reserveCapacity(digits.count + digits.count / 3)
    for (k, d) in digits.enumerated() {
      if k > 0 && digits[k - 1] != UInt8(ascii: "-") && (digits.count - k) % 3 == 0 {
        out.append(UInt8(ascii: ","))
      }
      out.append(d)
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The argument that names this place and no other: "Name, Country" when no other place of
  /// its name is in that country, else "Name, Region" (or its US state's code), else, when
  /// another of them is in its region too (two Halles of Flanders), its GeoNames id.
  static func argument(_ f: Found, _ finder: PlaceFinder) -> String {
    guard let place = f.place else { return "\(f.name), \(f.country)" }
    let same = namesakes(of: place, finder)
    guard same.count > 1 else { return "\(place.name), \(place.country)" }
    guard let region = place.region, same.filter({ $0.region == region }).count == 1 else { return String(place.geonameID) }
    // A US state's code, unless a country has it too (`CA` is Canada's): then its name.
    let code = place.stateCode.flatMap { Countries.lines(naming: Fold.key($0), version: Fold.version).isEmpty ? $0 : nil }
    return "\(place.name), \(code ?? region)"
  }

  /// The region that tells a place from another of its name in its country (nil when none
  /// does, or it is the name itself): `wx forecast "Springfield, MO"` is headed "Springfield,
  /// Missouri, United States", as `wx show` heads it.
  static func telling(_ f: Found, _ finder: PlaceFinder) -> String? {
    guard let place = f.place, let region = place.region, region != f.name, namesakes(of: place, finder).count > 1 else {
      return nil
    }
    return region
  }

  /// `Name, Region, Country` (the region when one is given), escaped for the terminal.
  static func heading(_ city: City, region: String?) -> String {
    [city.name, region, city.country].compactMap { $0?.visible }.joined(separator: ", ")
  }

  /// The arguments that may name `f` alone, best first: ``argument(_:_:)``, then "Name,
  /// Region" and its GeoNames id (``PlaceFinder/arguments(naming:candidates:)`` tries them).
  static func arguments(_ f: Found, _ finder: PlaceFinder) -> [String] {
    var out = [argument(f, finder)]
    if let place = f.place {
      if let region = place.region, region != place.name { out.append("\(place.name), \(region)") }
      out.append(String(place.geonameID))
    }
    return out
  }

  /// The places of `place`'s name in its country, itself included.
  static func namesakes(of place: Place, _ finder: PlaceFinder) -> [Place] {
    (((try? finder.atlas?.named(place.name)) ?? nil) ?? []).filter { $0.countryCode == place.countryCode }
  }

  /// ` (8,961,989 people)`, or nothing where GeoNames does not know (0) or the place is no
  /// atlas place: the notes on which place a name was taken for.
  static func peopleAside(_ f: Found) -> String {
    f.population.flatMap { $0 > 0 ? " (\(people($0)) people)" : nil } ?? ""
  }

  /// The command that fetches the weather of the place `argument` names (unescaped: the
  /// caller shows it).
  static func fetchCommand(_ argument: String) -> String {
    "wx sync --provider open-meteo --city \(shellWord(argument))"
  }

  /// `s` as one shell word: bare when it is plain, else in single quotes, or in double quotes
  /// when it holds an apostrophe and nothing a shell expands there (`"'s-Hertogenbosch, NL"`).
  static func shellWord(_ s: String) -> String {
    let plain =
      !s.isEmpty
      && s.utf8.allSatisfy { b in
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
          || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: ".")
      }
    if plain { return s }
    if s.contains("'") && !s.contains(where: { "\"$`\\!".contains($0) }) { return "\"" + s + "\"" }
    var out = "'"
    for c in s { out += c == "'" ? "'\\''" : String(c) }
    return out + "'"
  }
}
