/// What the words after the comma of "Name, Qualifier" may name: the country (as a name, a
/// prefix, a code), and the first-level region where the source knows it (the atlas does),
/// by name or by code (a US state's: `Portland, OR`).
package struct Qualifiers: Sendable {
  package var country: String
  package var region: String?
  package var regionCode: String?
  /// The country's ISO code where the source knows it (the atlas does): a qualifier that
  /// names the country by any of the table's codes or names fits, whatever the source calls
  /// it (`Charlotte Amalie, VI`: GeoNames' "U.S. Virgin Islands" is no name of ISO's line).
  package var countryCode: String?

  package init(country: String, region: String? = nil, regionCode: String? = nil, countryCode: String? = nil) {
    self.country = country
    self.region = region
    self.regionCode = regionCode
    self.countryCode = countryCode
  }

  /// A catalogue city's or an atlas place's: its country, and an atlas place's region, its
  /// code and the country's code.
  package init(of f: Found) {
    self.init(
      country: f.country, region: f.place?.region, regionCode: f.place.flatMap(RegionCodes.code(of:)),
      countryCode: f.place?.countryCode)
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
    let asCountry = !RegionsNotCountries.folded.contains(typed)
    var fit = asCountry ? Countries.fit(typed, fold(country), lines: lines, version: version) : .none
    if asCountry, fit != .exact, let code = countryCode.map(fold), !code.isEmpty,
      Countries.fit(typed, code, lines: lines, version: version) == .exact
    {
      fit = .exact
    }
    if let region = region.map(fold), fit != .exact, !typed.isEmpty {
      // Not two letters as a region's first (`SA` is a code: Saudi Arabia or South Australia,
      // never Saint Mark Parish).
      if region == typed { fit = .exact } else if typed.count > 2 && region.starts(with: typed) { fit = max(fit, .prefix) }
    }
    if fit != .exact, let code = regionCode, !typed.isEmpty, fold(code) == typed { fit = .exact }
    // The state a territory belongs to (`Nuuk, Denmark`), below every exact fit; only for a
    // qualifier the country table reads (a region's name asks nothing more of the 2,000
    // places a qualified search fits). Or the start of its name, below every other fit (`Nuuk,
    // Den`), as a country's or a region's may be begun.
    if asCountry, fit < .sovereign, let code = countryCode.map(fold),
      let state = Countries.sovereign[String(decoding: code, as: UTF8.self)].map({ Array($0.utf8) })
    {
      if !lines.isEmpty && Countries.fit(typed, state, lines: lines, version: version) == .exact {
        fit = .sovereign
      } else if fit < .sovereignPrefix && Countries.names(of: state, begin: typed, version: version) {
        fit = .sovereignPrefix
      }
    }
    return fit
  }

  /// Whether a typed qualifier is the region, by name or code.
  package func namesRegion(_ typed: [UInt8], version: Int) -> Bool {
    let fold = { (s: String) in Fold.key(s, version: version) }
    return !typed.isEmpty && (region.map { fold($0) == typed } == true || regionCode.map { fold($0) == typed } == true)
  }
}

/// A name that does not name exactly one place, whichever names were asked (the catalogue's,
/// the atlas's, the favourites', the recorded air-quality names): the one lookup error. The
/// executable words it (the query cut and escaped, the candidates listed with what tells them
/// apart; atlas places with their people and GeoNames ids).
package enum LookupError: Error, Equatable, Sendable {
  case ambiguous(query: String, candidates: [Candidate])
  /// `atlas`: the world atlas was asked too (its words are "city or place", not "city in the
  /// catalogue", though nothing near was found).
  case notFound(query: String, suggestions: [Candidate], atlas: Bool = false)
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
  /// An atlas place's GeoNames id (which picks it: `wx show 3196359`); nil for a catalogue
  /// city that is no atlas place, or a name of another list.
  package var geonameID: Int?
  /// A US place's state code (`IL`), for "Name, ST".
  package var stateCode: String?

  package init(
    name: String, country: String, id: Int? = nil, latitude: Double? = nil, longitude: Double? = nil,
    region: String? = nil, population: Int? = nil, geonameID: Int? = nil, stateCode: String? = nil
  ) {
    self.name = name
    self.country = country
    self.id = id
    self.latitude = latitude
    self.longitude = longitude
    self.region = region
    self.population = population
    self.geonameID = geonameID
    self.stateCode = stateCode
  }

  /// A catalogue city or atlas place found by ``PlaceFinder``; `uniqueID` its catalogue id
  /// when that picks it alone.
  package init(_ f: Found, uniqueID: Int?) {
    self.init(
      name: f.name, country: f.country, id: uniqueID, latitude: f.latitude, longitude: f.longitude, region: f.place?.region,
      population: f.population, geonameID: f.place?.geonameID, stateCode: f.place?.stateCode)
  }

  /// Places found together, as candidates: a catalogue id only where no other of them has it
  /// (an id that repeats picks nothing).
  package static func list(_ found: [Found]) -> [Candidate] {
    let ids = found.compactMap { $0.city?.id }
    return found.map { f in
      Candidate(f, uniqueID: f.city.flatMap { c in ids.filter { $0 == c.id }.count == 1 ? c.id : nil })
    }
  }

  /// Whether it is an atlas place (its list is worded with people and GeoNames ids).
  package var isPlace: Bool { geonameID != nil }
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
