import Foundation
import Testing

@testable import WXCore

/// The orders' fields go to a temporary file past 256 KiB (about 15,000 cities) while a sync
/// downloads: the orders read back from it are those of sorting in memory.
@Suite struct OrderFieldsTests {
  @Test func ordersFromSetAsideFieldsMatchSortingInMemory() throws {
    let s = Scratch()
    var cities = CityIndexTests.generated(40_000, seed: 9)
    for k in stride(from: 0, to: cities.count, by: 7) { cities[k].temperatureC = nil }  // unknowns sort last
    cities[100].id = cities[99].id  // a repeated id, as freetestapi has
    let catalogue = try CityIndexTests.build(cities, in: s)
    defer { catalogue.close() }
    let warmest = cities.indices.sorted { a, b in
      let (x, y) = (cities[a].temperatureC ?? -.infinity, cities[b].temperatureC ?? -.infinity)
      return x != y ? x > y : a < b
    }
    #expect(try catalogue.page(order: .temperature, offset: 0, limit: cities.count) == warmest.map { cities[$0] })
    let dry = warmest.filter { !Condition(description: cities[$0].description).isRainy }
    #expect(catalogue.meta.dryCount == dry.count)
    #expect(try catalogue.dry(offset: 0, limit: cities.count) == dry.map { cities[$0] })
  }
}
