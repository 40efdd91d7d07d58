import Foundation
import Testing
import WXCore

/// Whether an atlas is read at all, as the commands and `wx status` decide it.
extension AtlasCommandTests {
  @Test func withoutAtlasDataTheCatalogueAnswersSilently() throws {
    let h = TempHome()
    let data = TempHome()
    try FileManager.default.copyItem(atPath: sampleFile, toPath: data.path + "/sample-weathers.json")
    let r = try h.wx("search", "par", env: Self.on.merging(["WX_DATA_DIR": data.path]) { $1 })
    #expect(r.status == 0)
    #expect(!r.stderr.contains("warning"))
    #expect(!FileManager.default.fileExists(atPath: h.path + "/atlas.gdbm"))
    #expect(try h.wx("search", "par", env: ["WX_ATLAS": "maybe"]).status == 78)
    // Status says what the commands read: no atlas here, nor under WX_ATLAS=off (the shared
    // one is installed), and a bad WX_ATLAS is refused as the commands refuse it.
    for env in [Self.on.merging(["WX_DATA_DIR": data.path]) { $1 }, ["WX_ATLAS": "off"]] {
      let status = try h.wx("status", "--json", env: env)
      #expect(status.status == 0, "\(status)")
      #expect(try status.json()["atlas"] is NSNull, "\(env): \(status.stdout)")
      let text = try h.wx("status", env: env).stdout
      #expect(!text.contains("world atlas") && !text.contains("/atlas.gdbm") || text.contains(h.path + "/atlas.gdbm"), "\(text)")
    }
    let on = try h.wx("status", "--json")
    #expect((try on.json()["atlas"] as? [String: Any])?["places"] as? Int == 170_391, "\(on.stdout)")
    #expect(try h.wx("status", env: ["WX_ATLAS": "maybe"]).status == 78)
  }

}
