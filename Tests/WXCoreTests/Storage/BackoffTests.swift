import Testing

@testable import WXCore

/// The writer lock's backoff, on a clock of the test's own: its pauses are counted and added
/// up, not timed.
@Suite struct BackoffTests {
  /// A clock that moves only when the backoff pauses.
  final class Clockwork {
    var now = 1000.0
    var pauses: [Double] = []
  }

  static func backoff(_ deadline: Double, _ clock: Clockwork) -> Backoff {
    Backoff(
      deadline: deadline, now: { clock.now },
      pause: {
        clock.pauses.append($0)
        clock.now += $0
      })
  }

  /// It waits until the deadline and not a moment past it, 1 ms first, doubling to 50 ms
  /// (each jittered by 0.5–1.5×), then gives up, and stays given up.
  @Test func pausesAddUpToTheDeadlineAndNoMore() {
    let clock = Clockwork()
    var b = Self.backoff(0.2, clock)
    var waits = 0
    while b.wait() { waits += 1 }
    #expect(waits == clock.pauses.count && waits >= 6, "\(clock.pauses)")
    #expect(abs(clock.now - 1000.2) < 1e-9, "waited \(clock.now - 1000) s")
    #expect(clock.pauses[0] >= 0.0005 && clock.pauses[0] <= 0.0015, "\(clock.pauses)")
    // 50 ms × 1.5 is 0.07500000000000001 in binary: a tolerance, or one run in 200 fails.
    #expect(clock.pauses.allSatisfy { $0 > 0 && $0 <= 0.075 + 1e-12 }, "\(clock.pauses)")
    #expect(!b.wait() && clock.pauses.count == waits)
  }

  /// `WX_LOCK_TIMEOUT=0`: no wait at all.
  @Test func aZeroDeadlineNeverPauses() {
    let clock = Clockwork()
    var b = Self.backoff(0, clock)
    #expect(!b.wait() && clock.pauses.isEmpty)
  }
}
