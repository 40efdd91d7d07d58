import Foundation

/// A lock-protected value for tests that run work concurrently.
package final class ConcurrentBox<T>: @unchecked Sendable {
  private var stored: T
  private let lock = NSLock()
  package init(_ v: T) { stored = v }
  package var value: T { lock.withLock { stored } }
  package func mutate(_ f: (inout T) -> Void) { lock.withLock { f(&stored) } }
}
