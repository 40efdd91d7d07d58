import Dispatch
import WXCore

import Glibc

final class SignalStop: @unchecked Sendable {
  private var sources: [any DispatchSourceSignal] = []
  private let queue = DispatchQueue(label: "wx.signals")
  private let input: AsyncStream<WatchEvent>.Continuation
  private let restore: String
  private var seen = 0  // only touched on `queue`

  init(input: AsyncStream<WatchEvent>.Continuation, restore: String) {
    self.input = input
    self.restore = restore
    for sig in [SIGINT, SIGTERM] {
      signal(sig, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
      source.setEventHandler { [unowned self] in self.received() }
      source.resume()
      sources.append(source)
    }
  }

  private func received() {
    seen += 1
    input.yield(.stop)
    if seen > 1 { hardExit() }
    let restore = self.restore
    queue.asyncAfter(deadline: .now() + 3) {
      Terminal.control(restore)
      _exit(Terminal.outputFailure == nil ? 0 : ExitStatus.ioError.rawValue)
    }
  }

  private func hardExit() {
    Terminal.control(restore)
    _exit(Terminal.outputFailure == nil ? 0 : ExitStatus.ioError.rawValue)
  }

  func cancel() {
    for s in sources { s.cancel() }
  }
}

/// The watch output: a table redrawn in place on a terminal, one line per reading otherwise.
