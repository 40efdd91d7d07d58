/// The postal codes people type for a region, where the atlas has none of its own: the
/// United States' states come with their code in the data (GeoNames' first-level code is the
/// state's); Canada's provinces and Australia's states and territories have numbers there, so
/// their codes are this table's (`Victoria, BC`, `Sydney, NS`, `Perth, WA`).
package enum RegionCodes {
  /// The code of `place`'s region: its state code, else this table's, else nil.
  package static func code(of place: Place) -> String? {
    if let state = place.stateCode { return state }
    guard let region = place.region else { return nil }
    switch place.countryCode {
    case "CA": return canada[region]
    case "AU": return australia[region]
    default: return nil
    }
  }

  /// Canada Post's province and territory symbols.
  static let canada: [String: String] = [
    "Alberta": "AB", "British Columbia": "BC", "Manitoba": "MB", "New Brunswick": "NB",
    "Newfoundland and Labrador": "NL", "Nova Scotia": "NS", "Ontario": "ON", "Prince Edward Island": "PE",
    "Quebec": "QC", "Saskatchewan": "SK", "Northwest Territories": "NT", "Nunavut": "NU", "Yukon": "YT",
  ]

  /// Australia Post's state and territory abbreviations.
  static let australia: [String: String] = [
    "New South Wales": "NSW", "Victoria": "VIC", "Queensland": "QLD", "Western Australia": "WA",
    "South Australia": "SA", "Tasmania": "TAS", "Australian Capital Territory": "ACT", "Northern Territory": "NT",
  ]
}
