import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Hands values from the thread that produces them to a second thread that consumes them, in
/// order, a batch at a time, so the two overlap on two cores (a sync reads the next records
/// off the network while the last ones are stored).
///
/// At most `depth` batches of `batchSize` values wait at any time: a producer that gets
/// ahead waits, so memory stays bounded. The first error the consumer throws stops it; the
/// producer gets that error from its next ``send(_:)``, or from ``finish()``. Every path out
/// (``finish()`` or ``abandon()``) waits for the consumer to stop: after it, no consumer
/// code runs.
package final class Handoff<Value: Sendable>: @unchecked Sendable {
  private let batchSize: Int
  private let depth: Int
  private let consume: ([Value]) throws -> Void
  /// The batch being filled (the producer's alone).
  private var filling: [Value] = []

  // Shared by both threads, under `mutex`.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var queue: [[Value]] = []
  private var closed = false
  private var stopped = false
  private var failure: (any Error)?
  private var started = false

  /// `consume` runs on a thread of its own, once per batch, in the order of the values.
  package init(batchSize: Int = 256, depth: Int = 4, consume: @escaping ([Value]) throws -> Void) {
    self.batchSize = max(1, batchSize)
    self.depth = max(1, depth)
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
    if filling.count >= batchSize { try push() }
  }

  /// Hands the batch being filled to the consumer, waiting while `depth` batches wait.
  private func push() throws {
    let batch = filling
    filling = []
    filling.reserveCapacity(batchSize)
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
      DispatchQueue.global(qos: .userInitiated).async { self.run() }
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

  /// Stops: what waits is dropped, and this returns once the consumer has stopped.
  package func abandon() {
    filling = []
    _ = try? close(dropping: true)
  }

  private func close(dropping: Bool = false) throws {
    let error: (any Error)? = locked {
      closed = true
      if dropping { queue.removeAll() }
      pthread_cond_broadcast(changed)
      if started {
        while !stopped { pthread_cond_wait(changed, mutex) }
      }
      return failure
    }
    if let error { throw error }
  }
}
