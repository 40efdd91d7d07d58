import Foundation
import Testing
import WXCore

@Suite struct SyncProgressTests {
  /// On a terminal, sync's progress line clears itself with a real `ESC [ K` (wx's own
  /// sequence), not an escaped `\x1b[K` printed as text; in a pipe there is no progress line.
  @Test func progressUsesRealControlsOnATerminalOnly() throws {
    let home = TempHome()
    let api = try FakeAPI()
    let tty = try runProcess(
      "/usr/bin/script", ["-qec", "'\(wxBinary)' sync --url \(api.url) --per-page 10", "/dev/null"],
      environment: ["WX_HOME": home.path, "LANG": "C.UTF-8", "TERM": "xterm", "PATH": "/usr/bin:/bin", "HOME": home.path])
    #expect(tty.status == 0, "\(tty)")
    #expect(tty.stdout.contains("\r\u{1B}[Kwx: page"), "\(tty.stdout.debugDescription)")
    #expect(!tty.stdout.contains("\\x1b") && !tty.stdout.contains("\\x0d"), "\(tty.stdout.debugDescription)")
    let pipe = try home.wx("sync", "--url", api.url, "--per-page", "10")
    #expect(pipe.status == 0 && !pipe.stderr.contains("page") && !pipe.stderr.contains("\u{1B}"), "\(pipe)")
  }
}
