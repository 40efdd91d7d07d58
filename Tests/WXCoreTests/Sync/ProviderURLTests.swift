import Testing

@testable import WXCore

@Suite struct ProviderURLTests {
  @Test func pathsGoBeforeTheBaseURLsQueryAndKeysBeforeItsParameters() {
    #expect(ProviderConfig(url: "http://h/x/?a=1").url(path: "/y", query: "k=2") == "http://h/x/y?k=2&a=1")
    #expect(ProviderConfig(url: "http://h/x").url(path: "/y", query: "k=2") == "http://h/x/y?k=2")
    #expect(ProviderConfig(url: "http://h/x?").url(path: "/y", query: "k=2") == "http://h/x/y?k=2")
    #expect(ProviderConfig(url: "http://h/x#frag").url(path: "/y", query: "k=2") == "http://h/x/y?k=2")
    #expect(ProviderConfig(url: "http://h/x?a=1").url(path: "/y", query: "") == "http://h/x/y?a=1")
    #expect(ProviderConfig(url: "http://h/x").url(path: "/y", query: "") == "http://h/x/y")
  }
}
