import Testing

/// `wx show --format` writes a line for another program (a tmux or waybar status bar): it is
/// escaped like all text, but never cut to `COLUMNS`, which a status bar's command may inherit
/// from the shell that started it.
@Suite struct FormatLineWidthTests {
  @Test func aFormatLineIsNotCutToTheWidth() throws {
    let home = TempHome()
    let format = "%l: %C, %t, humidity %h, wind %w"
    let wide = try home.wx("show", "London", "--format", format)
    #expect(wide.status == 0 && wide.stdout.count > 25, "\(wide)")
    let narrow = try home.wx("show", "London", "--format", format, env: ["COLUMNS": "20"])
    #expect(narrow.status == 0 && narrow.stdout == wide.stdout, "\(narrow)")
    // The text wx fits to the width still is.
    let show = try home.wx("show", "London", env: ["COLUMNS": "20"])
    #expect(show.stdout.split(separator: "\n").allSatisfy { $0.count <= 20 }, "\(show)")
    let hostile = try home.wx("show", "London", "--format", "\u{1B}[2J%t", env: ["COLUMNS": "5"])
    #expect(!hostile.stdout.contains("\u{1B}") && hostile.stdout.hasPrefix("\\x1b[2J"), "\(hostile)")
  }
}
