import Testing

@testable import WXCore

@Suite struct RetryAfterTests {
  /// Seconds as given; an HTTP date as the time until it (0 once past); anything else 1 s.
  @Test func readsSecondsAndHTTPDates() {
    let now: Int64 = 784_111_777  // Sun, 06 Nov 1994 08:49:37 GMT
    #expect(Fetcher.retryAfter(" 7 ", now: now) == 7)
    #expect(Fetcher.retryAfter("-1", now: now) == -1)
    #expect(Fetcher.retryAfter("Sun, 06 Nov 1994 08:49:57 GMT", now: now) == 20)
    #expect(Fetcher.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 0)
    #expect(Fetcher.retryAfter("Sat, 05 Nov 1994 08:49:37 GMT", now: now) == 0)
    #expect(Fetcher.retryAfter("Fri, 01 Jan 2100 00:00:00 GMT", now: now) > Fetcher.maxRetryAfter)
    for junk in ["", "abc", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Foo 1994 08:49:37 GMT"] {
      #expect(Fetcher.retryAfter(junk, now: now) == 1, "\(junk)")
    }
  }
}
