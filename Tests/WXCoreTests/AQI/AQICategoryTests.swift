import Foundation
import Testing

@testable import WXCore

@Suite struct AQICategoryTests {
  @Test func publishedBandsAndTheGapsBetweenThem() {
    let cases: [(Double, AQICategory)] = [
      (0, .good), (50, .good), (50.23, .good), (50.99, .good), (51, .satisfactory), (100, .satisfactory),
      (100.5, .satisfactory), (101, .moderate), (200.99, .moderate), (201, .poor), (300.5, .poor), (301, .veryPoor),
      (400.99, .veryPoor), (401, .severe), (500, .severe), (500.5, .severe), (1000, .severe),
    ]
    for (aqi, expected) in cases {
      #expect(AQICategory(aqi: aqi) == expected, "\(aqi)")
    }
  }

  @Test func namesAndBands() {
    #expect(AQICategory.allCases.map(\.name) == ["Good", "Satisfactory", "Moderate", "Poor", "Very Poor", "Severe"])
    #expect(AQICategory.allCases.map(\.band.lowerBound) == [0, 51, 101, 201, 301, 401])
    // Every whole number of a band falls in that band.
    for c in AQICategory.allCases {
      for v in c.band { #expect(AQICategory(aqi: Double(v)) == c) }
    }
  }
}
