import Foundation
import Testing
import WXCore

/// Issue 30: a catalogue city's atlas place is linked at sync (``AtlasLinks``), so a search
/// past 200 catalogue matches lists each page's places with their weather without looking
/// their names up. What the user sees is what the lookups gave: the same pages, byte for
/// byte, once the links are deleted from the synced store.
@Suite(.serialized) struct AtlasLinkTests {
  /// The atlas places named San… or Par… (thousands: past 200 catalogue matches), each a
  /// catalogue city 2 km from it, every third under its country's code, every fifth also a
  /// city 60 km away (no place's city).
  static func catalogue(at path: String) throws -> Int {
    var cities: [[String: Any]] = []
    func add(_ name: String, _ country: String, _ lat: Double, _ lon: Double) {
      let n = cities.count
      cities.append([
        "id": n + 1, "city": name, "country": country, "latitude": lat, "longitude": lon,
        "temperature": Double(n % 40) - 5, "weather_description": "Sunny", "humidity": 40, "wind_speed": 7,
        "forecast": [] as [Any],
      ])
    }
    try AtlasData(path: atlasFile).forEach { e in
      let p = e.place
      guard p.name.hasPrefix("San") || p.name.hasPrefix("Par") else { return }
      add(p.name, cities.count % 3 == 0 ? p.countryCode : p.country, p.latitude + 0.018, p.longitude)
      if cities.count % 5 == 0 { add(p.name, p.country, p.latitude + 0.54, p.longitude) }
    }
    try JSONSerialization.data(withJSONObject: cities).write(to: URL(fileURLWithPath: path))
    return cities.count
  }

  @Test func searchPagesReadFromTheLinksAreThePagesTheLookupsGave() throws {
    let home = TempHome()
    let data = home.file("data.json")
    let n = try Self.catalogue(at: data)
    #expect(n > AtlasLinks.threshold)
    let api = try FakeAPI(data: data)
    let sync = try home.wx("sync", "--url", api.url, "--per-page", "1000")
    try #require(sync.status == 0, "\(sync)")
    let asked: [[String]] = [
      ["search", "san"], ["search", "san", "--page", "3"], ["search", "par"], ["search", "par", "--page", "2"],
      ["search", "san", "--json"], ["search", "santa", "--per-page", "50"],
    ]
    let linked = try asked.map { try home.run($0) }
    // The links are there and doctor reads them.
    let catalogue = try Catalogue(path: home.catalogue)
    let atlas = try Atlas(path: sharedData + "/atlas.gdbm")
    let first = try catalogue.link(ofPlace: 0, atlas: atlas.meta)
    catalogue.close()
    atlas.close()
    #expect(first != .unknown)
    let doctor = try home.wx("doctor")
    #expect(doctor.status == 0, "\(doctor)")
    // Pages list places with their weather.
    let json = try linked[4].json()
    let items = try #require(json["items"] as? [[String: Any]])
    #expect((json["total"] as? Int ?? 0) > 200)
    #expect(items.filter { $0["temperature"] is Double }.count >= 10, "\(items.prefix(3))")
    // The same store without its links: every page the same.
    let db = try GDBMDatabase(path: home.catalogue, mode: .writer)
    var deleted = 0
    for key in try db.keys() where key.first == UInt8(ascii: "L") { deleted += try db.delete(key) ? 1 : 0 }
    try db.close()
    #expect(deleted >= 2)
    for (args, before) in zip(asked, linked) {
      let after = try home.run(args)
      #expect(after.status == 0 && before.status == 0, "\(args): \(after)")
      #expect(after.stdout == before.stdout, "\(args)")
    }
  }
}
