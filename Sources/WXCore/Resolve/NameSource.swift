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
  /// The place's names as spelled, for the tie-break by spelling (``Resolver/spelled(_:_:)``):
  /// its stored name, and the atlas place's own where a catalogue city of another spelling is
  /// that place (a catalogue's St Paul is GeoNames' Saint Paul, Minnesota).
  func spellings(of place: Place) throws(StoreError) -> [String]
}

extension NameSource {
  package func population(of place: Place) throws(StoreError) -> Int? { nil }
  package func spellings(of place: Place) throws(StoreError) -> [String] { [try identity(of: place).name] }
  package func largeNames(atLeast people: Int, _ body: ([UInt8]) -> Void) throws(StoreError) {}
}
