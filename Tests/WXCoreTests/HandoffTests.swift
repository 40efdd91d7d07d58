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
    #expect(!seen.all.isEmpty)
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

  /// After abandon returns the consumer never runs again, even with batches still waiting.
  @Test func abandonWaitsForTheConsumerAndDropsWhatWaits() throws {
    let seen = Seen()
    let (entered, gate) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let handoff = Handoff<Int>(batchSize: 1, depth: 3) { batch in
      if batch == [0] {
        entered.signal()
        gate.wait()
      }
      seen.add(batch)
    }
    for i in 0..<3 { try handoff.send(i) }
    entered.wait()
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { gate.signal() }
    handoff.abandon()
    let after = seen.all
    #expect(after == [0])
    Thread.sleep(forTimeInterval: 0.1)
    #expect(seen.all == after)
  }
}
