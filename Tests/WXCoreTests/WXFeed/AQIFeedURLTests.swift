import Foundation
import Testing

@testable import WXFeed

@Suite struct AQIFeedURLTests {
  @Test func splitsWhatAConnectionNeeds() throws {
    let u = try WebSocketURL(parsing: "WSS://Example.org/live/aqi?city=all#top")
    #expect(u.secure && u.host == "Example.org" && u.port == 443 && u.target == "/live/aqi?city=all")
    #expect(u.hostHeader == "Example.org" && u.description == "wss://Example.org/live/aqi?city=all")
    let v = try WebSocketURL(parsing: "ws://127.0.0.1:8080")
    #expect(!v.secure && v.port == 8080 && v.target == "/" && v.hostHeader == "127.0.0.1:8080")
    let w = try WebSocketURL(parsing: "ws://[::1]:9000?x=1")
    #expect(w.host == "::1" && w.port == 9000 && w.target == "/?x=1" && w.hostHeader == "[::1]:9000")
    #expect(try WebSocketURL(parsing: "ws://h:80/").hostHeader == "h")
  }

  @Test func rejectsWhatCannotBeUsed() {
    for bad in [
      "http://example.org/", "example.org", "ws://", "ws:///path", "ws://host:0/", "ws://host:65536/", "ws://host:+80/",
      "ws://host:port/", "ws://user:pw@host/", "ws://[::1/", "ws://ho st/", "ws://host/a b",
      "ws://" + String(repeating: "a", count: 254) + "/",
    ] {
      #expect(throws: WebSocketURLError.self, "\(bad)") { try WebSocketURL(parsing: bad) }
    }
  }
}
