import WXCore

/// What a command shows: JSON for scripts and text for people. Views hold values only; the
/// ``Runner`` prints them, so colour, `--ascii`, the screen's width and the escaping of
/// untrusted text are decided in one place (``Console``, for the ``Terminal`` the view was given).
protocol View {
  func json() -> JSON
  /// The text form; untrusted fields escaped with ``String/visible`` so widths are right.
  func text(_ terminal: Terminal) -> String
}

/// Prints views, through the context's console, for the context's terminal.
enum Runner {
  static func show(_ view: any View, json: Bool, _ ctx: Context) {
    if json {
      ctx.console.data(view.json().text)
    } else {
      ctx.console.out(view.text(ctx.terminal))
    }
  }
}
