import ArgumentParser
import WXCore

extension WX {
  struct Completion: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print a shell completion script (bash, zsh or fish).",
      discussion: """
        Commands, options, their values, city names (from the local catalogue, offline, matched like \
        `wx search`: case and accents ignored) and favourites complete. Load it with \
        `source <(wx completion bash)`, `source <(wx completion zsh)` or `wx completion fish | source`, \
        or install it: wx completion bash > ~/.local/share/bash-completion/completions/wx
        """)

    @Argument(help: "bash, zsh or fish.") var shell: Shell

    func execute(_ console: Console) async throws {
      console.data(CompletionScripts.script(for: shell.rawValue) ?? "")
    }

    enum Shell: String, CaseIterable, ExpressibleByArgument {
      case bash, zsh, fish
    }
  }
}
