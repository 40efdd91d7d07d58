import WXCore
import WXFeed

/// Every exit status wx uses, in one place (sysexits.h values; documented in wx(1)).
enum ExitStatus: Int32, CaseIterable {
  case ok = 0
  /// `wx search` found nothing (like grep).
  case noMatch = 1
  case usage = 64
  case badData = 65
  case noSuchCity = 66
  case unavailable = 69
  case ioError = 74
  case busy = 75
  case config = 78

  /// Prints the one-line message for `error` on stderr (none for ``NoMatch``, whose
  /// message is already out) and returns its status.
  static func report(_ error: any Error, _ console: Console) -> ExitStatus {
    if error is NoMatch { return .noMatch }
    let (status, message) = of(error)
    console.err("wx: " + message)
    return status
  }

  /// The status and one-line message for an error.
  static func of(_ error: any Error) -> (ExitStatus, String) {
    switch error {
    case let e as StoreError:
      if case .busy = e { return (.busy, e.description) }
      return (.ioError, e.description + e.remedy.words)
    case let e as SyncFailure: return of(e)
    case let e as SyncError: return of(e, unchanged: "your catalogue")
    case let e as RefreshPlanError: return (.usage, e.message)
    case let e as HomeError:
      if case .badSample = e { return (.badData, e.description + e.remedy.words) }
      return (.config, e.description + e.remedy.words)
    case let e as LookupError:
      // Catalogue cities alone (no atlas), favourites, recorded names: the catalogue's words;
      // a list with an atlas place in it, with people and GeoNames ids.
      switch e {
      case .ambiguous(_, let c) where c.contains(where: \.isPlace): return (.usage, placeMessage(e))
      case .notFound(_, let s, let atlas) where atlas || s.contains(where: \.isPlace): return (.noSuchCity, placeMessage(e))
      case .ambiguous, .noLastCity: return (.usage, message(e))
      case .notFound: return (.noSuchCity, message(e))
      }
    case let e as FavouritesError:
      switch e {
      case .notAFavourite(let names):
        return (.noSuchCity, "not a favourite: \(names.map { $0.quoted() }.joined(separator: ", ")); nothing was removed")
      }
    case let e as UsageError: return (.usage, e.message)
    case is Notifier.NoNotifier:
      return (.unavailable, "--notify needs notify-send, which is not installed (Debian: apt-get install libnotify-bin)")
    case let e as ConfigError: return (.config, e.message)
    case let e as AQIError:
      switch e {
      case .unreachable, .clientFailed: return (.unavailable, e.message)
      case .noReadings: return (.noSuchCity, e.message)
      case .clientMissing: return (.config, e.message)
      }
    default: return (.ioError, "unexpected error: \(error)")
    }
  }
}

extension ExitStatus {
  /// A failed sync's status and message, naming the store it left unchanged.
  static func of(_ e: SyncError, unchanged kept: String) -> (ExitStatus, String) {
    let message = e.message(unchanged: kept)
    switch e {
    case .catalogueChanged: return (.busy, message)
    case .badURL, .unauthorized, .missingKey: return (.config, message + e.remedy.words)
    case .unreachable, .timeout, .redirectLoop, .redirectRefused, .serverError, .rateLimited, .libraryMissing:
      return (.unavailable, message)
    case .clientError, .rejected, .notJSON, .tooLarge, .badPayload, .tooManyPages, .noRecords, .shrinks:
      return (.badData, message + e.remedy.words)
    }
  }
}

extension ExitStatus {
  /// A failed sync's status and message: what failed, and whether the store it would have
  /// replaced is the one there was. A failure in the new file names what it was, not its path.
  static func of(_ e: SyncFailure) -> (ExitStatus, String) {
    let store = e.store == .catalogue ? "catalogue" : "air-quality history"
    let kept = e.store == .catalogue ? "your catalogue" : "the air-quality history"
    switch e.cause {
    case .download(let error): return of(error, unchanged: kept)
    case .store(let error):
      var (status, message) = e.inTempFile ? (ExitStatus.ioError, error.description) : of(error)
      if e.inTempFile {
        let folder = Redact.path(FileSystem.directoryName(error.path))
        message = message.replacing(Redact.path(error.path), with: "the new \(store) in \(folder)")
      }
      return (status, message + (e.unchanged ? "; \(kept) is unchanged" : ""))
    }
  }
}

/// The words for a city argument that names no city, or several: the query is cut to 60
/// characters and, like every name, escaped. Candidates that read alike carry what tells
/// them apart (region and population when known, coordinates), and their id only where no
/// other city has it: an id that repeats picks nothing.
private func message(_ e: LookupError) -> String {
  func named(_ c: Candidate) -> String {
    let country = c.country.isEmpty ? "" : ", \(String(c.country.prefix(60)).visible)"
    return String(c.name.prefix(60)).visible + country
  }
  /// Each candidate as text, with what tells it from the others where its name reads alike.
  func listed(_ shown: [Candidate], always: Bool) -> [String] {
    let texts = shown.map(named)
    return zip(texts, shown).map { text, c in
      guard always || texts.filter({ $0 == text }).count > 1 else { return text }
      var tell: [String] = []
      if let region = c.region { tell.append(String(region.prefix(40)).visible) }
      if let lat = c.latitude, let lon = c.longitude, lat.isFinite, lon.isFinite {
        tell.append(Coordinates.text(latitude: lat, longitude: lon))
      }
      if let population = c.population, population > 0 { tell.append("pop. \(population)") }
      if let id = c.id { tell.append("id \(id)") }
      return tell.isEmpty ? text : "\(text) (\(tell.joined(separator: ", ")))"
    }
  }
  switch e {
  case .ambiguous(let query, let candidates):
    let shown = Array(candidates.prefix(8))
    let more = candidates.count > 8 ? "; …" : ""
    // Only the forms that tell them apart: their regions (two Springfields of the United
    // States), their countries, their ids.
    var forms: [String] = []
    if Set(candidates.compactMap { $0.region.map { Fold.key($0) } }).count > 1,
      let c = candidates.first(where: { $0.region != nil })
    {
      forms.append("\"Name, Region\" (\(String("\(c.name), \(c.region!)".prefix(60)).visible))")
    }
    if Set(candidates.map { Fold.key($0.country) }).count > 1 { forms.append("\"Name, Country\"") }
    if shown.contains(where: { $0.id != nil }) { forms.append("its id") }
    let pick =
      forms.isEmpty
      ? "" : " — pick one with " + (forms.count > 1 ? forms.dropLast().joined(separator: ", ") + " or " : "") + forms.last!
    return "\(query.quoted()) matches \(candidates.count > 5 ? "several" : "\(candidates.count)") cities: "
      + listed(shown, always: true).joined(separator: "; ") + more + pick
  case .notFound(let query, let suggestions, _):
    let what =
      !query.isEmpty && query.allSatisfy(\.isASCIIDigit)
      ? "with id \(query.quoted(limit: 20).dropFirst().dropLast())" : "named \(query.quoted())"
    guard !suggestions.isEmpty else { return "no city \(what) in the catalogue" }
    return "no city \(what); closest: " + listed(Array(suggestions.prefix(5)), always: false).joined(separator: "; ")
  case .noLastCity:
    return "no city given and none shown before; try `wx show London`"
  }
}

/// Coordinates as people read them: `48.86°N 2.35°E`.
enum Coordinates {
  static func text(latitude: Double, longitude: Double) -> String {
    func part(_ v: Double, _ plus: String, _ minus: String) -> String {
      let r = (abs(v) * 100).rounded() / 100
      var digits = String(r)
      if digits.hasSuffix(".0") { digits.removeLast(2) }
      return digits + "°" + (v < 0 ? minus : plus)
    }
    return part(latitude, "N", "S") + " " + part(longitude, "E", "W")
  }
}

/// The words for a city argument that names no place or several of the catalogue and the
/// atlas: each candidate as "Name, Region, Country (people)", and how to pick one.
private func placeMessage(_ e: LookupError) -> String {
  func named(_ c: Candidate) -> String {
    let text = String(PlaceText.full(c).prefix(80)).visible
    if let n = c.population, n > 0 { return "\(text) (\(PlaceText.people(n)))" }  // 0: GeoNames does not know
    return c.id.map { "\(text) (id \($0))" } ?? text
  }
  switch e {
  case .ambiguous(let query, let candidates):
    // Places that read alike (two Halles of Flanders, Belgium) are told apart by their
    // GeoNames ids, which pick them (`wx show 3196359`).
    // Catalogue cities that read alike (two Poianas of Botoșani County, both with weather) by
    // their catalogue ids: "Name, Region" was offered, the very words typed.
    var twin: Int? = nil
    var idKind = "GeoNames id"
    let texts = candidates.map(PlaceText.full)
    let list = candidates.prefix(8).enumerated().map { k, f in
      guard texts.filter({ $0 == texts[k] }).count > 1, let id = f.id ?? f.geonameID else { return named(f) }
      if twin == nil { (twin, idKind) = (id, f.id == nil ? "GeoNames id" : "id") }
      if f.id == nil { return "\(named(f)) GeoNames \(id)" }
      return f.population == nil ? named(f) : "\(named(f)) id \(id)"
    }.joined(separator: "; ")
    let more = candidates.count > 8 ? "; …" : ""
    let example =
      candidates.first { $0.region != nil }.map { f in
        " (\(String("\(f.name), \(f.stateCode ?? f.region!)".prefix(60)).visible))"
      } ?? ""
    // The search that lists them: of their one name (`Mt Vernon` is listed by `wx search 'Mount
    // Vernon'`); none when their names differ (an id typed), as no one search lists them all.
    let names = Set(candidates.map { Fold.key($0.name) })
    let search =
      names.count == 1
      ? "; `wx search \(PlaceText.shellWord(String(PlaceText.searchWords(candidates[0].name).prefix(60))).visible)` lists them"
      : ""
    // A qualifier typed already did not tell the twins apart: their ids alone can.
    // "Name, Country" only where it can tell them apart (not all of one country).
    let country = Set(candidates.map { Fold.key($0.country) }).count > 1 ? ", \"Name, Country\"" : ""
    let pick =
      switch (twin, query.contains(",")) {
      // A qualifier typed already did not tell them apart, or every one reads the same
      // (`mulheim`: two Mülheims of one region): their ids alone can.
      case (let id?, true),
        (let id?, false) where Set(texts).count == 1:
        " — pick one by its \(idKind) (`wx show \(id)`)"
      case (let id?, false): " — pick one with \"Name, Region\"\(example)\(country) or its \(idKind) (`wx show \(id)`)"
      case (nil, _):
        country.isEmpty
          ? " — pick one with \"Name, Region\"\(example)" : " — pick one with \"Name, Region\"\(example) or \"Name, Country\""
      }
    return "\(query.quoted()) matches \(candidates.count > 5 ? "several" : "\(candidates.count)") places: \(list)\(more)"
      + pick + search
  case .notFound(let query, let suggestions, _):
    guard !suggestions.isEmpty else { return "no city or place named \(query.quoted())" }
    return "no city or place named \(query.quoted()); closest: " + suggestions.prefix(5).map(named).joined(separator: "; ")
  case .noLastCity: return message(e)
  }
}

/// A bad request that argument parsing cannot see (a page past the end…): exit 64.
struct UsageError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

/// A bad environment variable or setting: exit 78.
struct ConfigError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

/// `wx search` found nothing: exit 1, message already printed.
struct NoMatch: Error {}

/// WXCore's remedies in wx's words: the commands, options and variables to use.
extension Remedy {
  var words: String {
    switch self {
    case .useAFolder: return "set WX_HOME to a folder"
    case .useAWritableFolder: return "set WX_HOME to a folder wx may write in"
    case .useAPrivateFolder: return "set WX_HOME to a private folder (mode 0700)"
    case .inspect: return "run `wx doctor` to inspect it and `wx doctor --repair` to repair it"
    case .repair: return "run `wx doctor --repair`"
    case .removeOrRepair: return "remove it or run `wx doctor --repair`"
    case .repairSetsItAside: return "`wx doctor --repair` sets it aside"
    case .sync: return "run `wx sync`"
    case .syncOrFindTheSample: return "run `wx sync` (or set WX_DATA_DIR)"
    case .findTheData: return "set WX_DATA_DIR to the folder that holds it"
    case .reinstall: return "it ships with wx: install wx again (`make install`), or set WX_DATA_DIR to intact data"
    case .giveAKey: return "pass --api-key or set WX_ACCUWEATHER_KEY"
    case .checkTheKey: return "check --api-key"
    case .allowShrink: return "pass --allow-shrink if that is right"
    case .largerPages: return "try a larger --per-page"
    }
  }
}

extension Optional where Wrapped == Remedy {
  /// "; " and the words, or nothing: what ends a message.
  var words: String { map { "; " + $0.words } ?? "" }
}
