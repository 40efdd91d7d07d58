// Every file of this target sees the shared harness (Tests/WXTestSupport: temp folders,
// running wx, the loopback stand-ins, fixtures) without importing it itself.
@_exported import WXTestSupport
import Foundation
import WXCore

/// The atlas's naming rule for a qualifier in parentheses or a joiner, the slow way, for the
/// tests that work out from the data what a store must hold: each place named `Name
/// (Qualifier)` or `Name upon River` (``AtlasWriter/joiners``) is also named `Name` (folded),
/// unless a larger place has `Name` as its own within `km` (the districts `Zürich (Kreis 11)`
/// are parts of Zürich).
func unqualifiedNames(_ places: [Place], within km: Double) -> [(key: [UInt8], position: Int)] {
  var own: [[UInt8]: [Place]] = [:]
  for p in places { own[Fold.key(p.name), default: []].append(p) }
  var out: [(key: [UInt8], position: Int)] = []
  for p in places {
    let head: Substring
    if p.name.hasSuffix(")"), let open = p.name.range(of: " (", options: .backwards) {
      head = p.name[..<open.lowerBound]
    } else if !AtlasWriter.unshortened.contains(p.name),
      let joined = AtlasWriter.joiners.compactMap({ p.name.range(of: $0) })
        .filter({ $0.lowerBound > p.name.startIndex && $0.upperBound < p.name.endIndex }).min(by: {
          $0.lowerBound < $1.lowerBound
        })
    {
      head = p.name[..<joined.lowerBound]
    } else {
      continue
    }
    let key = Fold.key(String(head))
    guard !key.isEmpty, key != Fold.key(p.name) else { continue }
    let part = (own[key] ?? []).contains {
      $0.position < p.position && Place.distance($0.latitude, $0.longitude, p.latitude, p.longitude) <= km
    }
    if !part { out.append((key, p.position)) }
  }
  return out
}

/// The atlas's aliases, the slow way: each alias names the first (largest) of `places` with
/// its place's name and country code.
func aliasNames(_ places: [Place]) -> [(key: [UInt8], position: Int)] {
  AtlasWriter.aliases.compactMap { a in
    places.first { $0.name == a.name && $0.countryCode == a.countryCode }.map { (Fold.key(a.alias), $0.position) }
  }
}
