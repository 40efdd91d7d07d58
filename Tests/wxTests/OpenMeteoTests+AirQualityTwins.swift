import Foundation
import Testing
import WXTestSupport

extension OpenMeteoTests {
  /// A new-user pass: catalogue twins that no region tells apart are recorded as "Name,
  /// Country, id N", and `wx aqi show` read that as region "Country" of a country "id N":
  /// `wx aqi show 2` (the id `wx show` takes) and `wx aqi show "Testville, Testland, id 2"`
  /// exited 66 though `wx aqi list` listed their readings.
  @Test func aqiShowFindsTwinsRecordedWithTheirIds() throws {
    let home = TempHome()
    let records = [
      weatherRecord(id: 1, city: "Testville", country: "Testland"),
      weatherRecord(id: 2, city: "Testville", country: "Testland"),
    ]
    let api = try FakeAPI(data: try writeRecords(records, in: home))
    try #require(try home.wx("sync", "--url", api.url).status == 0)
    let air = try OpenMeteoAPI()
    let sync = try home.wx("aqi", "sync", env: ["WX_OPEN_METEO_AQ_URL": air.airQuality])
    #expect(sync.status == 0, "\(sync)")
    let listed = try #require(try home.wx("aqi", "list", "--json").json()["items"] as? [[String: Any]])
    #expect(Set(listed.compactMap { $0["city"] as? String }) == ["Testville, Testland, id 1", "Testville, Testland, id 2"])
    for id in ["1", "2"] {
      for typed in [id, "Testville, Testland, id \(id)", "testville, testland,ID \(id)"] {
        let r = try home.wx("aqi", "show", typed, "--json")
        #expect(r.status == 0 && (try? r.json())?["city"] as? String == "Testville, Testland, id \(id)", "\(typed): \(r)")
      }
    }
    let both = try home.wx("aqi", "show", "Testville")
    #expect(both.status == 64, "\(both)")
  }
}
