import Dispatch

import Glibc

/// Hands values from the thread that produces them to a second thread that consumes them, in
/// order, a batch at a time, so the two overlap on two cores (a sync reads the next records
/// off the network while the last ones are stored).
///
/// A batch closes at `batchSize` values or `batchWeight` (the sum of `weight` of its values:
/// their bytes, say), and at most `depth` batches wait: a producer that gets ahead waits, so
/// memory stays bounded whatever the values' sizes. The first error the consumer throws stops
/// it; the producer gets that error from its next ``send(_:)``, or from ``finish()``. Every way
/// out (``finish()``, ``drain()``) waits for the consumer to stop: after it, no consumer code
/// runs. The consumer has a thread of its own, not a worker of a shared pool that it would
/// occupy for as long as the producer runs.
package final class Handoff<Value: Sendable>: @unchecked Sendable {
  private let batchSize: Int
  private let batchWeight: Int
  private let depth: Int
  private let weight: (Value) -> Int
  private let consume: ([Value]) throws -> Void
  /// The batch being filled and its weight (the producer's alone).
  private var filling: [Value] = []
  private var fillingWeight = 0

  // Shared by both threads, under `mutex`.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var queue: [[Value]] = []
  private var closed = false
  private var stopped = false
  private var failure: (any Error)?
  private var started = false

  /// `consume` runs on a thread of its own, once per batch, in the order of the values.
  package init(
    batchSize: Int = 256, batchWeight: Int = .max, depth: Int = 4, weight: @escaping (Value) -> Int = { _ in 1 },
    consume: @escaping ([Value]) throws -> Void
  ) {
    self.batchSize = max(1, batchSize)
    self.batchWeight = max(1, batchWeight)
    self.depth = max(1, depth)
    self.weight = weight
    self.consume = consume
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(changed, nil)
    filling.reserveCapacity(self.batchSize)
  }

  deinit {
    pthread_cond_destroy(changed)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    changed.deallocate()
  }

  private func locked<T>(_ body: () -> T) -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body()
  }

  /// Queues `value`; throws what the consumer threw, once it has.
  package func send(_ value: Value) throws {
    filling.append(value)
    fillingWeight += weight(value)
    if filling.count >= batchSize || fillingWeight >= batchWeight { try push() }
  }

  /// Hands the batch being filled to the consumer, waiting while `depth` batches wait.
  private func push() throws {
    let batch = filling
    filling = []
    fillingWeight = 0
    let error: (any Error)? = locked {
      while queue.count >= depth && failure == nil { pthread_cond_wait(changed, mutex) }
      if failure == nil {
        queue.append(batch)
        pthread_cond_broadcast(changed)
      }
      return failure
    }
    if let error { throw error }
    if !started {
      started = true
      Self.startThread { self.run() }
    }
  }

  /// The consumer's loop: a batch at a time until closed and drained, or the first error.
  private func run() {
    while true {
      let next: [Value]? = locked {
        while queue.isEmpty && !closed { pthread_cond_wait(changed, mutex) }
        guard !queue.isEmpty else { return nil }
        pthread_cond_broadcast(changed)
        return queue.removeFirst()
      }
      guard let batch = next else { break }
      do {
        try consume(batch)
      } catch {
        locked {
          failure = error
          queue.removeAll()
        }
        break
      }
    }
    locked {
      stopped = true
      pthread_cond_broadcast(changed)
    }
  }

  /// Hands over what is left, waits until everything is consumed, and throws what the
  /// consumer threw, if anything.
  package func finish() throws {
    if !filling.isEmpty { try push() }
    try close()
  }

  /// After the producer failed: hands over what is left all the same and waits until the
  /// consumer has stopped, so the values before the failure are consumed as they would have
  /// been one by one; returns the consumer's own error, if it had one (a storage error that
  /// came first is the one to report).
  package func drain() -> (any Error)? {
    do {
      try finish()
      return nil
    } catch {
      return error
    }
  }

  private func close() throws {
    let error: (any Error)? = locked {
      closed = true
      pthread_cond_broadcast(changed)
      if started {
        while !stopped { pthread_cond_wait(changed, mutex) }
      }
      return failure
    }
    if let error { throw error }
  }
}

/// Starts a detached thread running `body` (a Dispatch worker if no thread can be made).
private final class ThreadBody: @unchecked Sendable {
  let run: () -> Void
  init(_ run: @escaping () -> Void) { self.run = run }
}

extension Handoff {
  fileprivate static func startThread(_ body: @escaping () -> Void) {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { raw in
        Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
        return nil
      }, context)
    if started == 0 {
      pthread_detach(thread)
    } else {
      let box = Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue()
      DispatchQueue.global().async { box.run() }
    }
  }
}
