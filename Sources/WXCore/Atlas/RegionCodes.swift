/// The postal codes people type for a region, where the atlas has none of its own: the
/// United States' states come with their code in the data (GeoNames' first-level code is the
/// state's); Canada's provinces and Australia's states and territories have numbers there, so
/// their codes are this table's (`Victoria, BC`, `Sydney, NS`, `Perth, WA`).
package enum RegionCodes {
  /// The code of `place`'s region: its state code, else this table's, else nil.
  package static func code(of place: Place) -> String? {
    if let state = place.stateCode { return state }
    guard let region = place.region else { return nil }
    let table: [(region: String, code: String)]
    switch place.countryCode {
    case "CA": table = canada
    case "AU": table = australia
    default: return nil
    }
    return table.first { $0.region == region }?.code
  }

  // Arrays, not Dictionaries: a Dictionary's first use looks its key's Hashable conformance up
  // at run time, 0.26 M instructions (`show "Springfield, Illinois"` paid them for the
  // Springfield of Queensland).

  /// Canada Post's province and territory symbols.
  static let canada: [(region: String, code: String)] = [
    ("Alberta", "AB"), ("British Columbia", "BC"), ("Manitoba", "MB"), ("New Brunswick", "NB"),
    ("Newfoundland and Labrador", "NL"), ("Nova Scotia", "NS"), ("Ontario", "ON"), ("Prince Edward Island", "PE"),
    ("Quebec", "QC"), ("Saskatchewan", "SK"), ("Northwest Territories", "NT"), ("Nunavut", "NU"), ("Yukon", "YT"),
  ]

  /// Australia Post's state and territory abbreviations.
  static let australia: [(region: String, code: String)] = [
    ("New South Wales", "NSW"), ("Victoria", "VIC"), ("Queensland", "QLD"), ("Western Australia", "WA"),
    ("South Australia", "SA"), ("Tasmania", "TAS"), ("Australian Capital Territory", "ACT"), ("Northern Territory", "NT"),
  ]
}
