import Foundation
import Testing

@Suite struct AccuWeatherTests {
  @Test func syncsTopCitiesWithBoundedConcurrentDependentCalls() throws {
    let home = TempHome()
    let api = try FakeAPI(extra: ["--api-key", "k3y-secret", "--accu-delay-ms", "150"])
    let r = try home.wx("sync", "--provider", "accuweather", "--api-key", "k3y-secret", "--url", api.base, "--count", "10")
    #expect(r.status == 0, "\(r)")
    #expect(!r.stderr.contains("k3y-secret"))
    let data = try records(sampleFile)
    let top = try home.wx("top", "--count", "10", "--json").json()
    let items = try #require(top["items"] as? [[String: Any]])
    #expect(items.map { $0["city"] as? String } == data.prefix(10).map { $0["city"] as? String })
    for (item, rec) in zip(items, data) {
      let c = (rec["temperature"] as! NSNumber).doubleValue
      #expect(abs((item["temperature"] as! Double) - c) <= 0.34, "whole-°F rounding (≤ 0.28 °C) plus one decimal")
    }
    let stats = try JSONSerialization.jsonObject(with: Data(try api.control("/__accu").utf8)) as! [String: Any]
    #expect(stats["hourly_calls"] as? Int == 10 && stats["topcities_calls"] as? Int == 1)
    let inflight = stats["max_inflight"] as! Int
    #expect(inflight >= 2 && inflight <= 4, "concurrency \(inflight)")
    #expect(try home.wx("status", "--json").json()["provider"] as? String == "accuweather")
  }

  @Test func aBadKeyIsAConfigurationErrorAndIsNeverPrinted() throws {
    let home = TempHome()
    try home.wx("list")
    let before = home.snapshot()
    let api = try FakeAPI(extra: ["--api-key", "right"])
    let r = try home.wx("sync", "--provider", "accuweather", "--url", api.base, env: ["WX_ACCUWEATHER_KEY": "wrong-key-123"])
    #expect(r.status == 78, "\(r)")
    #expect(r.stderr.contains("401") && !r.stderr.contains("wrong-key-123"))
    #expect(home.snapshot() == before)
    let missing = try home.wx("sync", "--provider", "accuweather", "--url", api.base)
    #expect(missing.status == 78 && missing.stderr.contains("API key"))
  }

  @Test func oneFailingCityFailsTheWholeSyncAndKeepsTheCatalogue() throws {
    let home = TempHome()
    try home.wx("list")
    let before = home.snapshot()
    let third = try records(sampleFile)[2]["city"] as! String
    let api = try FakeAPI(extra: ["--api-key", "k", "--fail-key", "100002"])
    let r = try home.wx("sync", "--provider", "accuweather", "--api-key", "k", "--url", api.base)
    #expect(r.status == 69, "\(r)")
    #expect(r.stderr.contains("503") && r.stderr.contains(third), "\(r.stderr)")
    #expect(home.snapshot() == before)
  }
}
