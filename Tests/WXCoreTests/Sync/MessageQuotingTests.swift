import Testing
import WXFeed

@testable import WXCore

/// Untrusted text quoted in WXCore's messages is escaped by the one rule every wx path uses
/// (``Redact/escaped(_:)``: `\x1b` for C0 and DEL, `\u{202e}` for the rest), never JSON's
/// (`\u001b`, `\\`), which only JSON output uses.
@Suite struct MessageQuotingTests {
  @Test func quotedTextUsesTheTerminalEscapes() {
    #expect(Redact.quoted("T1\u{1B}[2J\u{202E}x") == #""T1\x1b[2J\u{202e}x""#)
    #expect(Redact.quoted(#"a\b"c"#) == #""a\b"c""#)
    #expect(Redact.quoted(String(repeating: "a", count: 50)) == "\"" + String(repeating: "a", count: 39) + "…\"")
    #expect(Redact.quoted("Oslo") == "\"Oslo\"")
  }

  /// freetestapi's bad date is quoted as wx quotes, not as JSON: a backslash stays one.
  @Test func aBadFreeTestAPIDateIsQuotedAsWxQuotes() {
    let body =
      #"[{"id":1,"city":"Oslo","country":"Norway","latitude":59.9,"longitude":10.7,"temperature":3,"#
      + #""weather_description":"Snow","humidity":80,"wind_speed":12.5,"#
      + #""forecast":[{"date":"20\\26-11-23","temperature":1,"weather_description":"Fog","humidity":1,"wind_speed":1}]}]"#
    #expect {
      try FreeTestAPIDecoder.decode(Array(body.utf8))
    } throws: { error in
      let reason = (error as? PayloadError)?.reason ?? ""
      return reason.contains(#"field "date" is "20\26-11-23", not a date"#) && reason.contains(#"(id 1, "Oslo")"#)
    }
  }
}
