import WXCore
import WXFeed

import Glibc

/// What the watch loop reacts to: the feed, the clock (for "updated Ns ago") and signals.
enum WatchEvent: Sendable {
  case feed(FeedRecord)
  case feedEnded
  case tick
  case stop
}

/// One `wx aqi watch` run: consumes the feed, records frames, drives the view.
struct WatchSession {
  let url: WebSocketURL
  let store: AQIStore
  let view: LiveView
  let limit: Int?

  func run(client path: String, arguments: [String], feedURL: String) async throws {
    var view = self.view
    let (events, input) = AsyncStream.makeStream(of: WatchEvent.self)
    let signals = SignalStop(input: input, restore: view.tty ? LiveView.restoreSequence : "", console: view.console)
    let client = try FeedProcess(path: path, arguments: arguments, input: feedURL)
    client.start { record in input.yield(record.map(WatchEvent.feed) ?? .feedEnded) }
    let tickTask: Task<Void, Never>? =
      view.tty
      ? Task {
        while !Task.isCancelled {
          try? await Task.sleep(nanoseconds: 1_000_000_000)
          input.yield(.tick)
        }
      } : nil
    view.begin()
    defer {
      signals.cancel()
      tickTask?.cancel()
      client.reap()
      view.finish()
    }
    var stored = 0
    var iterator = events.makeAsyncIterator()
    loop: while let event = await iterator.next() {
      switch event {
      case .feed(.connected(let attempt)):
        view.connected(attempt: attempt)
      case .feed(.text(let bytes)):
        let decoded = AQIFrame.decode(bytes)
        if decoded.bad > 0 { view.skipped(decoded) }
        guard !decoded.readings.isEmpty else { continue }
        let now = Clock.now()
        do {
          try store.record(decoded.readings, at: now)
        } catch let e as StoreError {
          guard case .busy = e else { throw e }
          view.status("not recorded: \(e.description)", warning: true)
          continue
        }
        view.recorded(decoded.readings, at: now)
        stored += 1
        if let limit, stored >= limit { break loop }
      case .feed(.binary(let size)):
        view.skipped(AQIFrame.Decoded(bad: 1, problem: "a binary frame (\(size) bytes), not text"))
      case .feed(.lost(let reason, let wasConnected, let ms, let failures)):
        view.lost(reason: reason, wasConnected: wasConnected, retryIn: Double(ms) / 1000, failures: failures)
      case .feed(.failed(let reason)):
        throw AQIError.unreachable(url: Redact.url(url.description), reason: reason)
      case .tick:
        view.redraw()
      case .feedEnded:
        throw AQIError.clientFailed("it stopped unexpectedly (\(client.reap()))")
      case .stop:
        break loop
      }
    }
    // Let the client say goodbye (a close frame) before wx exits, for up to a second.
    client.terminate()
    Task {
      try? await Task.sleep(nanoseconds: 1_000_000_000)
      input.yield(.feedEnded)
    }
    while let event = await iterator.next() {
      if case .feedEnded = event { break }
    }
  }
}

/// SIGINT and SIGTERM stop the watch loop cleanly; a second signal, or a loop that does
/// not stop within 3 s, restores the terminal and exits at once (status 0).
