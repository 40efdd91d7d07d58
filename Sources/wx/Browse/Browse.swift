import ArgumentParser
import WXCore

extension WX {
  struct Browse: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Browse the catalogue full-screen: search as you type, page, open a city.",
      discussion: """
        A full-screen view of the local catalogue, offline: a list of cities with a search line \
        on top and the forecast of the selected city on Enter. `wx` alone opens it on a terminal.

        Keys: every printable key goes to the search line (as `wx search` matches: quito, \
        kyoto and frankfurt are searched for), Backspace and Ctrl-U edit the query, Esc clears \
        it. ↑ ↓, PgUp PgDn, Home End move through the whole list, one page at a time. Enter (→) \
        opens the selected city and records it as the last city; Esc (← Backspace) goes back to \
        the same place. Ctrl-F adds or removes a favourite, Ctrl-T switches °C/°F and saves it \
        (on a city's screen also f and u, with j k to move and q to quit), Tab (Shift-Tab) \
        cycles All / Favourites / Hottest (rain-free, hottest first), ? shows the keys, Esc \
        with no query or Ctrl-C quits, Ctrl-Z suspends.

        Needs a terminal on standard input and output (otherwise it exits 64); a window \
        smaller than 40×10 shows a notice until it grows.
        """)

    @OptionGroup var display: DisplayOptions

    func execute(_ console: Console) async throws {
      try Self.perform(display: display.value, console)
    }

    static func perform(display: Display, _ console: Console) throws {
      guard TTY.isInteractive else {
        throw UsageError("browse needs a terminal; use `wx list` or `wx search` in scripts and pipes")
      }
      guard TTY.isFullScreen else {
        throw UsageError(
          "browse needs a terminal with a full screen (TERM=\((Environment.get("TERM") ?? "").visible) has none); use `wx list` or `wx search`"
        )
      }
      let ctx = try Context.make(console, display: display)
      let data = try BrowseData(home: ctx.home, console: ctx.console)
      let session = BrowseSession(ctx: ctx, data: data, unit: ctx.unit(display))
      guard TTY.enter() else { throw UsageError("browse cannot set up this terminal; use `wx list` or `wx search`") }
      console.holdWarnings()
      defer {
        TTY.leave()
        console.releaseWarnings()
      }
      try session.run()
    }
  }
}
