import WXCore

/// What a command shows: JSON for scripts and text for people. Views hold values only; the
/// ``Runner`` prints them, so colour, `--ascii`, the screen's width and the escaping of
/// untrusted text are decided in one place (``Console``, for the ``Terminal`` the view was given).
protocol View {
  func json() -> JSON
  /// The text form; untrusted fields escaped with ``String/visible`` so widths are right.
  func text(_ terminal: Terminal) -> String
  /// Whether each line of the text is cut to the terminal's width (true but for a line meant
  /// for another program: `wx show --format`, read by a status bar whatever `COLUMNS` says).
  var fitsWidth: Bool { get }
}

extension View {
  var fitsWidth: Bool { true }
}

/// Prints views, through the context's console, for the context's terminal.
enum Runner {
  static func show(_ view: any View, json: Bool, _ ctx: Context) {
    if json {
      ctx.console.data(view.json().text)
    } else {
      ctx.console.out(view.text(ctx.terminal), fitted: view.fitsWidth)
    }
  }
}
