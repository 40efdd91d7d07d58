import WXFeed

/// Exponential backoff between reconnection attempts: `initial`, doubling, at most `cap`.
package struct ReconnectBackoff: Equatable, Sendable {
  package var initial: Double
  package var cap: Double

  package init(initial: Double = 0.5, cap: Double = 30) {
    self.initial = max(0, initial)
    self.cap = max(self.initial, cap)
  }

  /// How long a connection must stay open, having delivered a message, for the backoff to
  /// start again from `initial`: 20 × `initial` (10 s by default), at most `cap`. A feed that
  /// sends a frame and drops at once is a failing feed, not a healthy one, and is retried
  /// ever more slowly, not twice a second.
  package var stable: Double { min(cap, initial * 20) }

  /// Seconds to wait after `failures` consecutive failures (1 → `initial`).
  package func delay(afterFailures failures: Int) -> Double {
    let n = min(max(failures, 1) - 1, 62)
    return min(cap, initial * Double(UInt64(1) << UInt64(n)))
  }
}

/// What a ``LiveFeed`` reports, in order.
package enum FeedEvent: Sendable {
  /// A connection is open (`attempt` 1 is the first connection of the run).
  case connected(attempt: Int)
  /// A complete message arrived.
  case message(WebSocketMessage)
  /// The connection ended (`wasConnected`) or an attempt failed; the next attempt starts in
  /// `retryIn` seconds. `failures` counts the failures since a connection last delivered a
  /// message and stayed open (``ReconnectBackoff/stable``).
  case lost(reason: String, wasConnected: Bool, retryIn: Double, failures: Int)
  /// The first connection failed and `retryFirstConnect` was off: the feed has stopped.
  case failed(WebSocketError)
}

extension FeedEvent {
  /// The record `wx-aqi-watch` writes to `wx` for this event.
  package var record: FeedRecord {
    switch self {
    case .connected(let attempt): return .connected(attempt: attempt)
    case .message(.text(let bytes)): return .text(bytes)
    case .message(.binary(let size)): return .binary(size)
    case .lost(let reason, let wasConnected, let retryIn, let failures):
      return .lost(
        reason: reason, wasConnected: wasConnected, retryMilliseconds: Int((retryIn * 1000).rounded()),
        failures: failures)
    case .failed(let error): return .failed(error.description)
    }
  }
}

/// A WebSocket feed that stays connected: it reconnects with ``ReconnectBackoff`` after every
/// drop, close or failed attempt until the consumer stops listening.
///
/// The backoff starts again from `initial` once a connection has delivered a message and
/// stayed open for ``ReconnectBackoff/stable`` seconds.
package struct LiveFeed: Sendable {
  package let client: WebSocketClient
  package let backoff: ReconnectBackoff
  /// When false, a failure of the very first connection ends the feed with ``FeedEvent/failed(_:)``.
  package let retryFirstConnect: Bool

  package init(client: WebSocketClient, backoff: ReconnectBackoff, retryFirstConnect: Bool) {
    self.client = client
    self.backoff = backoff
    self.retryFirstConnect = retryFirstConnect
  }

  /// The feed's events. Ending the iteration (or cancelling its task) closes the connection.
  package func events() -> AsyncStream<FeedEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: FeedEvent.self)
    let task = Task { [self] in
      await run { continuation.yield($0) }
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }

  /// Connects, reconnects and reports until the calling task is cancelled (then closes the
  /// connection with a close frame and returns) or, without `retryFirstConnect`, until the
  /// first connection fails.
  package func run(_ emit: @Sendable (FeedEvent) -> Void) async {
    var failures = 0
    var attempts = 0
    var everConnected = false
    while !Task.isCancelled {
      attempts += 1
      let reason: String
      var wasConnected = false
      do {
        let connection = try await client.connect()
        everConnected = true
        wasConnected = true
        emit(.connected(attempt: attempts))
        let opened = ContinuousClock.now
        var delivered = false
        let end: WebSocketEnd
        do {
          end = try await connection.run { message in
            delivered = true
            emit(.message(message))
          }
        } catch {
          if delivered && opened.duration(to: .now) >= .seconds(backoff.stable) { failures = 0 }
          throw error
        }
        if delivered && opened.duration(to: .now) >= .seconds(backoff.stable) { failures = 0 }
        reason = end.description
      } catch {
        if Task.isCancelled { return }
        let e = error as? WebSocketError ?? .failed(WebSocketError.describe(error, url: client.url))
        if !everConnected && !retryFirstConnect {
          emit(.failed(e))
          return
        }
        reason = e.description
      }
      if Task.isCancelled { return }
      failures += 1
      let wait = backoff.delay(afterFailures: failures)
      emit(.lost(reason: reason, wasConnected: wasConnected, retryIn: wait, failures: failures))
      do {
        try await Task.sleep(nanoseconds: UInt64(wait * 1e9))
      } catch {
        return
      }
    }
  }
}
