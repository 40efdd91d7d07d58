import Foundation
import Testing

/// The feed client `wx-aqi-watch` is built on WXFeed and WXLive only: no WXCore, so no GDBM
/// in it, neither as a shared library (`ldd`) nor linked statically (the release build). Its
/// symbol names are read from the binary itself, which `swift build` and `make build` leave
/// unstripped; `wx`, which does use GDBM, shows that the search finds them.
@Suite struct FeedClientLinkTests {
  static let client = URL(fileURLWithPath: wxBinary).deletingLastPathComponent()
    .appendingPathComponent("wx-aqi-watch").path

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: client), "wx-aqi-watch is not built beside wx"))
  func feedClientLinksNoGDBM() throws {
    let symbol = Data("gdbm_fetch".utf8)
    let wx = try Data(contentsOf: URL(fileURLWithPath: wxBinary), options: .alwaysMapped)
    let client = try Data(contentsOf: URL(fileURLWithPath: Self.client), options: .alwaysMapped)
    #expect(wx.range(of: symbol) != nil, "wx: \(wxBinary)")
    #expect(client.range(of: symbol) == nil, "\(Self.client) links GDBM")
  }
}
