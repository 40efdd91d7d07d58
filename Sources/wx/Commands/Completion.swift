import ArgumentParser
import WXCore

extension WX {
  struct Completion: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print a shell completion script (bash, zsh or fish).",
      discussion: "City arguments complete from the local catalogue, offline. Example: wx completion bash > ~/.local/share/bash-completion/completions/wx")

    @Argument(help: "bash, zsh or fish.") var shell: CompletionShell

    func run() throws {
      Terminal.out(WX.completionScript(for: shell))
    }
  }
}

extension CompletionShell: @retroactive ExpressibleByArgument {}
