import ArgumentParser
import WXCore

extension WX {
  struct Fav: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Keep favourite cities (they survive every sync).",
      subcommands: [Add.self, Remove.self, List.self],
      defaultSubcommand: List.self)
  }
}

enum FavouriteOrder: String, CaseIterable, ExpressibleByArgument {
  case added, name, temperature
}
