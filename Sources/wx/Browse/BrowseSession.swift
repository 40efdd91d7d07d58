import Glibc
import WXCore

/// The key loop of `wx browse`: read keys, change the model, do what it asks, draw the
/// difference. Waits in `poll` on standard input and the wake-up pipe of ``TTY`` (resize),
/// with a one-second tick that notices a new catalogue or favourites written by another wx.
final class BrowseSession {
  private let ctx: Context
  private let data: BrowseData
  private var unit: Units
  private var model = BrowseModel()
  private var decoder = KeyDecoder()
  private let screen = BrowseScreen()
  private var status = ""
  private var page = BrowseData.Page(total: 0, rows: [])
  /// The city opened last, recorded as the last city once keys pause (or on the way out):
  /// flicking through cities in the detail view costs no write (and fsync) per key.
  private var opened: City?
  /// When the session began (monotonic), so the clock advances from `ctx.now` while it runs.
  private let started = Clock.monotonic()

  init(ctx: Context, data: BrowseData, unit: Units) {
    self.ctx = ctx
    self.data = data
    self.unit = unit
  }

  /// Runs until a quit key, a hang-up (end of input) or an error (thrown).
  func run() throws {
    try draw()
    defer { rememberOpened() }
    while true {
      guard let keys = waitForKeys() else { return }
      // A resize, or a return from a stop (the shell may have written over the screen): the
      // next frame is drawn whole, whether keys or a wake-up brought it. A stop inside read()
      // (SIGTTIN in the background) comes back with keys, not with the wake-up.
      if TTY.resized.change(from: true, to: false) { screen.invalidate() }
      if keys.isEmpty {
        rememberOpened()
        // A tick or a resize: redraw what changed (a new catalogue, favourites, the age).
        try data.refresh()
        try draw()
        continue
      }
      status = ""
      var after: [Deferred] = []
      // While the window is too small for the screen (its notice shown), only the ways out
      // act: nothing unseen is typed, saved or made a favourite.
      let (width, height) = Terminal.screenSize()
      let shown = width >= BrowseView.minWidth && height >= BrowseView.minHeight
      for key in keys where shown || key == .ctrl(0x03) || key == .ctrl(0x1A) {
        let action = model.apply(key)
        switch action {
        case .quit:
          // What keys before it in this read asked for is saved first (Ctrl-T then Esc, typed
          // ahead, lost the unit: the saving waits for the frame, which a quit never draws).
          for work in after { save(work) }
          return
        case .toggleFavourite:
          try loadPage()  // keys before it in this read may have moved to another page
          if let row = selected {
            let adding = !data.isFavourite(row)
            let gone = data.previewFavourite(row, adding: adding, now: ctx.currentTime())
            // The favourite taken off may be of another name than the row's (Bombay, on Mumbai's).
            let named = gone.map { ($0.name, $0.country) } ?? (row.identity.name, row.identity.country)
            status = (adding ? "added " : "removed ") + "\(named.0), \(named.1)"
            after.append(.saveFavourite(row, adding: adding, removing: gone))
          }
        case .toggleUnit:
          unit.temperature = unit.temperature == .celsius ? .fahrenheit : .celsius
          after.append(.saveUnit)
        case .opened: after.append(.open)
        case .suspend: TTY.suspend()
        case .none: break
        }
      }
      try data.refresh()
      try draw()
      // Saving (favourites, unit, last city) waits until the frame is out: a key is drawn
      // at once, and a failure is drawn after it.
      let before = status
      for work in after { save(work) }
      let warnings = ctx.console.takeWarnings()
      if !warnings.isEmpty { status = warnings.joined(separator: "; ") }
      if status != before || after.contains(where: \.changesList) { try draw() }
    }
  }

  /// Fetches the page holding the selection and draws the difference from the last frame.
  private func draw() throws {
    let (width, height) = Terminal.screenSize()
    let view = BrowseView(
      width: width, height: height, term: ctx.terminal, unit: unit, about: about(), now: ctx.currentTime(),
      isFavourite: { [data] in data.isFavourite($0) })
    if view.fits { try loadPage(pageSize: view.pageSize) }
    let lines = view.lines(model, page, selected: selected, status: status)
    ctx.console.control(screen.update(lines, width: width, height: height))
  }

  /// The page holding the selection (clamped to the result set).
  private func loadPage(pageSize: Int? = nil) throws {
    let size = pageSize ?? model.pageSize
    page = try data.page(model.list, query: model.query, offset: model.top, limit: size)
    let top = model.top
    model.update(total: page.total, pageSize: size)
    if model.top != top {
      page = try data.page(model.list, query: model.query, offset: model.top, limit: size)
    }
  }

  private var selected: BrowseRow? {
    let i = model.selection - model.top
    return page.rows.indices.contains(i) ? page.rows[i] : nil
  }

  /// `host · synced 3h ago`, or `sample data` before the first sync.
  private func about() -> String {
    let meta = data.catalogue.meta
    if meta.isSample { return "sample data, run wx sync" }
    // The host of the source URL: what follows "://", up to the next "/".
    let parts = meta.source.split(separator: "/", omittingEmptySubsequences: true)
    let host = meta.source.contains("://") && parts.count > 1 ? parts[1] : parts.first ?? ""
    return "\(String(host).visible) · \(Clock.ago(ctx.currentTime() - meta.syncedAt))"
  }

  /// Writes that follow a drawn frame.
  private enum Deferred {
    case saveFavourite(BrowseRow, adding: Bool, removing: Favourite?)
    case saveUnit
    case open

    /// The favourites reread after a write may differ from the preview (another wx wrote).
    var changesList: Bool {
      if case .saveFavourite = self { return true }
      return false
    }
  }

  private func save(_ work: Deferred) {
    switch work {
    case .saveFavourite(let row, let adding, let gone):
      do {
        try data.saveFavourite(row, adding: adding, removing: gone, now: ctx.currentTime())
      } catch {
        status = (adding ? "not added: " : "not removed: ") + ExitStatus.of(error).1
      }
    case .saveUnit:
      do {
        try ctx.home.prepare()
        try ctx.home.preferences.modify { [unit] in $0.unit = unit.temperature }
      } catch {
        status = "the unit was not saved: " + ExitStatus.of(error).1
      }
    case .open:
      opened = selected?.city
    }
  }

  private func rememberOpened() {
    if let city = opened { ctx.remember(city) }
    opened = nil
  }

  /// Keys typed, an empty list after a tick (a second, or 0.3 s with a city to remember) or
  /// a resize, or nil once input has ended.
  private func waitForKeys() -> [Key]? {
    var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: TTY.wakeFD, events: Int16(POLLIN), revents: 0)]
    let n = poll(&fds, fds[1].fd >= 0 ? 2 : 1, opened == nil ? 1000 : 300)
    if n < 0 && errno != EINTR { return nil }
    if fds[1].revents != 0 { TTY.drainWake() }
    guard n > 0, fds[0].revents != 0 else { return [] }
    guard readInput() else { return nil }
    var keys = decoder.decode()
    // An Esc alone, or half a sequence: give the rest 30 ms to arrive.
    while !decoder.pending.isEmpty {
      var one = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
      if poll(&one, 1, 30) > 0 {
        guard readInput() else { return nil }
        keys += decoder.decode()
      } else {
        keys += decoder.decode(final: true)
      }
    }
    return keys
  }

  /// Reads what is waiting on standard input; false at its end (the terminal hung up).
  private func readInput() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 512)
    let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
    if n < 0 && (errno == EINTR || errno == EAGAIN) { return true }
    guard n > 0 else { return false }
    decoder.feed(buffer[0..<n])
    return true
  }
}
