import Foundation
import Testing

@testable import WXCore

/// The hand-off between a sync's reading thread and its storing thread.
@Suite struct HandoffTests {
  /// What the consumer saw, from its own thread.
  final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []
    private var threads: Set<UInt> = []
    func add(_ batch: [Int]) {
      lock.lock()
      values += batch
      threads.insert(UInt(pthread_self()))
      lock.unlock()
    }
    var all: [Int] {
      lock.lock()
      defer { lock.unlock() }
      return values
    }
    var threadCount: Int {
      lock.lock()
      defer { lock.unlock() }
      return threads.count
    }
    func ranOn(_ thread: UInt) -> Bool {
      lock.lock()
      defer { lock.unlock() }
      return threads.contains(thread)
    }
  }

  final class Sizes: @unchecked Sendable {
    private let lock = NSLock()
    private var sizes: [Int] = []
    func add(_ n: Int) {
      lock.lock()
      sizes.append(n)
      lock.unlock()
    }
    var all: [Int] {
      lock.lock()
      defer { lock.unlock() }
      return sizes
    }
  }

  struct Refused: Error, Equatable { var at: Int }

  @Test(arguments: [(1, 1), (7, 2), (256, 4), (20_000, 1)])
  func everyValueArrivesOnceInOrderOnAnotherThread(batch: Int, depth: Int) throws {
    let seen = Seen()
    let handoff = Handoff<Int>(batchSize: batch, depth: depth) { seen.add($0) }
    for i in 0..<10_000 { try handoff.send(i) }
    try handoff.finish()
    #expect(seen.all == Array(0..<10_000))
    #expect(seen.threadCount == 1)
    #expect(!seen.ranOn(UInt(pthread_self())))
  }

  /// A batch closes at its weight too: big values travel a few at a time, so what waits stays
  /// bounded in bytes, not only in count.
  @Test func heavyValuesCloseABatchEarly() throws {
    let sizes = Sizes()
    let handoff = Handoff<Int>(batchSize: 256, batchWeight: 1000, depth: 2, weight: { $0 }) { sizes.add($0.count) }
    for k in 0..<100 { try handoff.send(k % 10 == 0 ? 600 : 10) }
    try handoff.finish()
    #expect(sizes.all.reduce(0, +) == 100)
    #expect(sizes.all.max()! < 100 && sizes.all.count > 5, "\(sizes.all)")
  }

  @Test func nothingSentIsNothingConsumed() throws {
    let seen = Seen()
    let handoff = Handoff<Int> { seen.add($0) }
    try handoff.finish()
    #expect(seen.all.isEmpty)
  }

  /// The consumer's first error reaches the producer (from a later send, or from finish),
  /// and no batch after the failing one is consumed.
  @Test(arguments: [0, 5, 4_999, 9_999])
  func theConsumersErrorStopsTheProducer(failingAt k: Int) throws {
    let seen = Seen()
    let handoff = Handoff<Int>(batchSize: 10, depth: 2) { batch in
      if batch.contains(k) { throw Refused(at: k) }
      seen.add(batch)
    }
    var sent = 0
    let error = #expect(throws: Refused.self) {
      for i in 0..<10_000 {
        try handoff.send(i)
        sent += 1
      }
      try handoff.finish()
    }
    #expect(error == Refused(at: k))
    #expect(seen.all == Array(0..<(k / 10 * 10)))
    // Depth 2 of 10: the producer is stopped within a few batches of the failure.
    #expect(sent < k + 10 * 5)
  }

  /// After the producer fails, drain hands over what was sent all the same and waits for the
  /// consumer: every value before the failure is consumed, and after drain returns the
  /// consumer never runs again.
  @Test func drainConsumesWhatWasSentThenStops() throws {
    let seen = Seen()
    let handoff = Handoff<Int>(batchSize: 64, depth: 2) { seen.add($0) }
    for i in 0..<1_000 { try handoff.send(i) }
    #expect(handoff.drain() == nil)
    #expect(seen.all == Array(0..<1_000))
    Thread.sleep(forTimeInterval: 0.05)
    #expect(seen.all.count == 1_000)
  }

  /// A consumer's failure among the values sent before the producer's own is what drain
  /// returns: the one a one-by-one run would have met first.
  @Test func drainReturnsTheConsumersFailure() throws {
    let handoff = Handoff<Int>(batchSize: 64, depth: 2) { batch in
      if batch.contains(900) { throw Refused(at: 900) }
    }
    for i in 0..<950 { try handoff.send(i) }  // 900 is in the batch still being filled (896…)
    #expect(handoff.drain() as? Refused == Refused(at: 900))
  }
}
