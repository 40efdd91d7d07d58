import WXCore

/// What a command shows: JSON for scripts and text for people. Views hold values only; the
/// ``Runner`` prints them, so colour, `--ascii`, the screen's width and the escaping of
/// untrusted text are decided in one place (``Terminal``).
protocol View {
  func json() -> JSON
  /// The text form; untrusted fields escaped with ``String/visible`` so widths are right.
  func text(_ terminal: Terminal) -> String
}

/// Prints views.
enum Runner {
  static func show(_ view: any View, json: Bool, _ terminal: Terminal) {
    if json {
      Terminal.data(view.json().text)
    } else {
      Terminal.out(view.text(terminal))
    }
  }
}
