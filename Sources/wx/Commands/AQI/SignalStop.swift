import Dispatch
import WXCore

import Glibc

final class SignalStop: @unchecked Sendable {
  private var sources: [any DispatchSourceSignal] = []
  private let queue = DispatchQueue(label: "wx.signals")
  private let input: AsyncStream<WatchEvent>.Continuation
  private let restore: String
  private let console: Console
  private var seen = 0  // only touched on `queue`

  init(input: AsyncStream<WatchEvent>.Continuation, restore: String, console: Console) {
    self.input = input
    self.restore = restore
    self.console = console
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
    let (restore, console) = (self.restore, self.console)
    queue.asyncAfter(deadline: .now() + 3) {
      console.control(restore)
      _exit(console.outputFailure == nil ? 0 : ExitStatus.ioError.rawValue)
    }
  }

  private func hardExit() {
    console.control(restore)
    _exit(console.outputFailure == nil ? 0 : ExitStatus.ioError.rawValue)
  }

  func cancel() {
    for s in sources { s.cancel() }
  }
}

/// The watch output: a table redrawn in place on a terminal, one line per reading otherwise.
