/// The last frame drawn, so the next one writes only the lines that changed.
///
/// A frame is one `write`: for each changed line, move to it, erase it, draw it. (Erasing
/// first, not after: a line that fills the width leaves the cursor on its last cell, and
/// "erase to the end" would wipe that cell.) After a resize everything is drawn again.
final class BrowseScreen {
  private var shown: [String] = []
  private var width = 0
  private var height = 0

  /// The bytes that turn the last frame into `lines` for a `width` × `height` window.
  func update(_ lines: [String], width: Int, height: Int) -> String {
    var out = ""
    if width != self.width || height != self.height {
      out += "\u{1B}[0m\u{1B}[H\u{1B}[2J"
      shown = []
      (self.width, self.height) = (width, height)
    }
    for (i, line) in lines.enumerated() where i >= shown.count || shown[i] != line {
      out += "\u{1B}[\(i + 1);1H\u{1B}[0m\u{1B}[2K" + line + "\u{1B}[0m"
    }
    shown = lines
    return out
  }

  /// Forgets the last frame: the next update draws every line.
  func invalidate() { width = 0 }
}
