import Foundation
import Testing

@testable import WXFeed

@Suite struct AQIFeedPipeTests {
  static let records: [FeedRecord] = [
    .connected(attempt: 1), .text(Array(#"[{"city":"Delhi","aqi":302.2}]"#.utf8)), .text([]),
    .text([0x0A, 0x0A, 0xFF, 0x00]), .binary(26),
    .lost(reason: "closed by the server, code 1001: bye\nnow", wasConnected: true, retryMilliseconds: 500, failures: 1),
    .lost(
      reason: "cannot connect to 127.0.0.1:9: connection refused", wasConnected: false, retryMilliseconds: 30000, failures: 7),
    .failed("the server did not accept the WebSocket upgrade"), .connected(attempt: 12),
  ]

  @Test func recordsSurviveTheRoundTripInAnyChunking() throws {
    let stream = Self.records.flatMap(\.encoded)
    for chunk in [1, 2, 3, 7, 64, stream.count] {
      var reader = FeedRecordReader()
      var out: [FeedRecord] = []
      var i = 0
      while i < stream.count {
        reader.append(stream[i..<min(stream.count, i + chunk)])
        i += chunk
        while let r = try reader.next() { out.append(r) }
      }
      #expect(out == Self.records, "chunk \(chunk)")
    }
    #expect(FeedRecord.connected(attempt: 3).encoded == Array("C 3 0\n".utf8))
    #expect(FeedRecord.text(Array("[]".utf8)).encoded == Array("T 2\n[]".utf8))
  }

  @Test func malformedRecordsAreErrors() throws {
    for bad in [
      "X 1\n", "C\n", "C -1 0\n", "C 1 2\nab", "L 2 1 1 0\n", "T 99999999999\n", "B x 0\n", String(repeating: "T", count: 300),
    ] {
      var reader = FeedRecordReader()
      reader.append(Array(bad.utf8))
      #expect(throws: FeedPipeError.self, "\(bad)") { _ = try reader.next() }
    }
    var partial = FeedRecordReader()
    partial.append(Array("T 5\nab".utf8))
    #expect(try partial.next() == nil)
  }
}
