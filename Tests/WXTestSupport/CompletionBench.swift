import Foundation
import Testing

/// A state folder seeded from the sample, a `bin/wx` link to the built binary and the
/// completion scripts, for driving each real shell's completion machinery.
package final class CompletionBench: @unchecked Sendable {
  package let home = TempHome()
  /// The shells' locale.
  package var lang = "C.UTF-8"
  package var bin: String { home.path + "/bin" }
  /// Whether the world atlas is on (off but in the atlas's own test: the catalogue's cities
  /// alone are what these tests expect).
  package let atlas: Bool

  package init(atlas: Bool = false) throws {
    self.atlas = atlas
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: bin + "/wx", withDestinationPath: wxBinary)
    try #require(try home.wx("list").status == 0)  // seeds the catalogue from the sample
    for shell in ["bash", "zsh", "fish"] {
      let r = try home.wx("completion", shell)
      try #require(r.status == 0, "\(r)")
      try r.stdout.write(toFile: script(shell), atomically: true, encoding: .utf8)
    }
  }

  package func script(_ shell: String) -> String { home.path + "/wx." + shell }

  /// zsh's completion system initialised once for the whole test process: `compinit` writes
  /// its dump, as every user's zsh does (~/.zcompdump), and each zsh here loads it with `-C`:
  /// 0.02 s, where scanning every completion function afresh (`-D`) took 0.45 s a shell.
  package static let zshDump: String = {
    let path = NSTemporaryDirectory() + "wx-test-zcompdump-\(getpid())"
    let r = try? runProcess(
      "/usr/bin/zsh", ["-f", "-c", "autoload -Uz compinit && compinit -u -d \"$DUMP\""], environment: ["DUMP": path])
    if r?.status == 0 { atexit { unlink(NSTemporaryDirectory() + "wx-test-zcompdump-\(getpid())") } }
    return path
  }()

  /// The line that loads zsh's completion system (`$ZDUMP`: ``zshDump``).
  static let zshCompinit = #"autoload -Uz compinit && compinit -u -C -d "$ZDUMP""#

  package var environment: [String: String] {
    [
      "PATH": bin + ":/usr/bin:/bin", "HOME": home.path, "WX_HOME": home.path, "LANG": lang,
      "WX_DATA_DIR": repositoryRoot + "/Data", "TERM": "dumb", "XDG_CONFIG_HOME": home.path + "/config",
      "WX_ATLAS": atlas ? "on" : "off",
    ]
  }

  /// What `shell` offers for `line` (the cursor at its end): bash's COMPREPLY (quoted words),
  /// the words zsh's `_wx` hands to `compadd`, fish's `complete -C` candidates.
  package func offers(_ shell: String, _ line: String) throws -> [String] {
    var env = environment
    env["LINE"] = line
    env["SCRIPT"] = script(shell)
    env["ZDUMP"] = Self.zshDump
    let r: Run
    switch shell {
    case "bash":
      // The function `complete -p wx` registered, called as bash's programmable completion calls it.
      r = try runProcess(
        "/bin/bash",
        [
          "--norc", "--noprofile", "-c",
          #"""
          source "$SCRIPT"
          spec=$(complete -p wx); fn=${spec##*-F }; fn=${fn%% *}
          COMP_LINE=$LINE; COMP_POINT=${#LINE}  # characters, as bash counts them in a UTF-8 locale
          read -ra COMP_WORDS <<<"$LINE"; [[ $LINE == *' ' ]] && COMP_WORDS+=('')
          COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
          "$fn" wx "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
          (( ${#COMPREPLY[@]} )) && printf '%s\n' "${COMPREPLY[@]}"; true
          """#,
        ], environment: env)
    case "zsh":
      // compinit, the script, and a compadd that prints what it is given.
      r = try runProcess(
        "/usr/bin/zsh",
        [
          "-f", "-c",
          #"""
          \#(Self.zshCompinit)
          source "$SCRIPT"
          compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -rl -- "$@" }
          words=( ${(z)LINE} ); [[ $LINE == *' ' ]] && words+=('')
          CURRENT=${#words}; PREFIX=${words[CURRENT]}
          _wx
          true
          """#,
        ], environment: env)
    default:
      r = try runProcess("/usr/bin/fish", ["--no-config", "-c", "source $SCRIPT; complete -C $LINE"], environment: env)
    }
    #expect(r.status == 0 && r.stderr.isEmpty, "\(shell) \(line): \(r)")
    return r.stdout.split(separator: "\n").map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[0]) }
  }
}

extension CompletionBench {
  /// The command line after typing `keys` (TAB included) into an interactive `shell` on a
  /// pseudo-terminal, read back by a key binding: what the shell's own completion inserted.
  package func typed(_ shell: String, _ keys: String) throws -> String {
    let setup: String
    let argv: [String]
    switch shell {
    case "bash":
      argv = ["bash", "--norc", "--noprofile", "-i"]
      setup = #"source "$SCRIPT"; bind -x '"\C-x\C-t": printf "DUMP%s[%s]\n" : "$READLINE_LINE"'"#
    case "zsh":
      argv = ["zsh", "-f", "-i"]
      setup =
        Self.zshCompinit + #"; source "$SCRIPT"; dump() { print -r -- "DUMP:[$BUFFER]" }; zle -N dump; bindkey "^X^T" dump"#
    default:
      argv = ["fish", "--no-config", "-i"]
      setup = #"source $SCRIPT; bind \cx\ct 'echo DUMP(echo :)"["(commandline)"]"'"#
    }
    var env = environment
    env["SCRIPT"] = script(shell)
    env["ZDUMP"] = Self.zshDump
    env["TERM"] = "xterm"
    env["KEYS"] = setup + "\n" + keys + "\u{18}\u{14}"  // C-x C-t (C-d would be end-of-file before the editor starts)
    let r = try runProcess("/usr/bin/python3", ["-c", Self.ptyDriver] + argv, environment: env, timeout: 60)
    #expect(r.status == 0, "\(shell) \(keys): \(r)")
    return r.stdout
  }

  /// Types $KEYS into argv on a pseudo-terminal and prints the first `DUMP:[line]` it answers.
  static let ptyDriver = #"""
    import os, pty, re, select, sys, time
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(sys.argv[1], sys.argv[1:])
    os.write(fd, os.environ["KEYS"].encode())
    out, deadline = b"", time.time() + 30
    while time.time() < deadline:
        m = re.search(rb"DUMP:\[(.*?)\]\r?\n", out)
        if m:
            break
        if select.select([fd], [], [], 0.1)[0]:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
    os.kill(pid, 9)
    sys.stdout.write(m.group(1).decode() if m else "no answer: " + repr(out[-400:]))
    """#
}
