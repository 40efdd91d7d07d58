internal import CGDBM

/// A flag that a signal handler and the program's threads share: one byte of memory allocated
/// when the flag is made and never freed, read and written with atomic operations (lock-free,
/// so async-signal-safe). Make every flag a handler reads before installing the handler.
package struct SignalFlag: @unchecked Sendable {
  private let byte: UnsafeMutablePointer<UInt8>

  package init() {
    byte = .allocate(capacity: 1)
    byte.initialize(to: 0)
  }

  package var isSet: Bool { wx_byte_load(byte) != 0 }

  package func set(_ on: Bool) { wx_byte_store(byte, on ? 1 : 0) }

  /// Sets the flag to `to` if it is `from`: whether it was (one of a handler and a thread wins).
  package func change(from: Bool, to: Bool) -> Bool { wx_byte_exchange(byte, from ? 1 : 0, to ? 1 : 0) != 0 }
}
