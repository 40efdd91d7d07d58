import WXCore

/// What a typed name or prefix must hold to name anything: a letter or a digit. Spaces and
/// punctuation alone match no city (`wx show ""`, `wx search ,`): a usage error (64), the
/// same for every command that takes a city.
enum TypedName {
  static func check(_ text: String, as what: String) throws(UsageError) {
    guard text.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) else {
      throw UsageError("\(what) must contain at least one letter or digit")
    }
  }
}

extension [String] {
  /// The words of a city argument typed without quotes (`wx show New York`), as one name.
  var joinedName: String? { isEmpty ? nil : joined(with: " ") }

  /// `joined(separator:)`, without the standard library's unspecialised code for it, whose
  /// first use costs a process about 100k instructions of run-time type lookups: read
  /// commands (a city argument, a table) join on every run.
  func joined(with separator: String) -> String {
    var out = ""
    for (k, part) in enumerated() {
      if k > 0 { out.append(separator) }
      out.append(part)
    }
    return out
  }
}

extension Context {
  /// CITY, or the last city shown; remembers the result as the last city unless told not to.
  func resolveCity(_ argument: String?, in catalogue: Catalogue, remembering: Bool = true) throws -> City {
    let city: City
    if let argument {
      city = try catalogue.lookup(argument).city
    } else {
      guard let last = savedPreferences().lastCity else { throw LookupError.noLastCity }
      guard let found = try catalogue.find(last)?.city else {
        throw LookupError.notFound(query: "\(last.name), \(last.country)", suggestions: [])
      }
      city = found
    }
    if remembering { remember(city) }
    return city
  }

  /// Saves the last city, skipping the write (and the lock) when it is already saved. A read
  /// command must not fail because its state folder is read-only, damaged or busy: a failure
  /// to save is a warning, once. Nor may it wait: while another wx process writes (a sync
  /// publishing), the city is not saved this time, and the warning says so.
  /// `place`: the GeoNames id of the atlas place it is, if any.
  func remember(_ city: City, place: Int? = nil) {
    var writers = home.writers
    writers.deadline = 0
    let prefs = PreferencesStore(path: home.preferencesPath, writers: writers)
    do {
      let saved = try prefs.load()
      // A command that knows no place (the catalogue's alone) keeps the place saved for it.
      if saved.lastCity == city.identity && (place == nil || saved.lastPlace == place) { return }
    } catch {
      console.warn(error, Self.usingDefaults)  // a damaged file: not rewritten here
      return
    }
    do {
      try prefs.modify {
        $0.lastCity = city.identity
        $0.lastPlace = place
      }
    } catch {
      console.warn(error, "the last city was not saved")
    }
  }
}
