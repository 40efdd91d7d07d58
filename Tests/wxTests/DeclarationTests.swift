import ArgumentParser
import Foundation
import Testing

@testable import wx

/// An option is declared once, for ArgumentParser; the completion grammar must say what it
/// says, in both directions, for every command: the same commands and aliases, the same
/// options and flags, the same value lists, the same positional arguments. (FastPathTests
/// holds the fast path's tables to the same declarations.)
@Suite struct DeclarationTests {
  /// `wx --experimental-dump-help`: ArgumentParser's whole command tree.
  static func tool() throws -> [String: Any] {
    let r = try TempHome().run(["--experimental-dump-help"])
    let tool = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    return try #require(tool["command"] as? [String: Any])
  }

  /// An option as both sides can state it: its names, and its value list ("" for any word;
  /// nil for a flag).
  struct Option: Hashable, CustomStringConvertible {
    var names: [String]
    var values: [String]?
    var description: String { names.joined(separator: ",") + (values.map { "=" + $0.joined(separator: "|") } ?? "") }
  }

  static func arguments(_ command: [String: Any]) -> [[String: Any]] {
    (command["arguments"] as? [[String: Any]] ?? []).filter { $0["shouldDisplay"] as? Bool != false }
  }

  static func valueList(_ argument: [String: Any]) -> [String]? {
    if let all = argument["allValues"] as? [String], !all.isEmpty { return all }
    return ((argument["completionKind"] as? [String: Any])?["list"] as? [String: Any])?["values"] as? [String]
  }

  /// What ArgumentParser declares for the command at `path`: `--help` aside (completion offers
  /// it everywhere), and `--version` only for `wx` itself.
  static func declaredOptions(_ command: [String: Any], _ path: [String]) -> Set<Option> {
    var out = Set<Option>()
    for a in arguments(command) where a["kind"] as? String != "positional" {
      let names = a["names"] as? [[String: String]] ?? []
      let long = names.filter { $0["kind"] != "short" }.compactMap { $0["name"] }
      if long.contains("help") || (long.contains("version") && !path.isEmpty) { continue }
      let short = names.filter { $0["kind"] == "short" }.compactMap { $0["name"] }
      let flag = a["kind"] as? String == "flag"
      out.insert(Option(names: long.map { "--" + $0 } + short.map { "-" + $0 }, values: flag ? nil : valueList(a) ?? [""]))
    }
    return out
  }

  static func grammarOptions(_ command: CompletionCommand) -> Set<Option> {
    Set(
      command.options.map { o in
        switch o.value {
        case nil: Option(names: o.names, values: nil)
        case .some(.words(let list)): Option(names: o.names, values: list)
        case .some: Option(names: o.names, values: [""])
        }
      })
  }

  /// Names from the user's data, which ArgumentParser cannot list.
  static func isDynamic(_ source: CompletionSource) -> Bool {
    switch source {
    case .cities, .favourites, .airQualityCities, .commands: true
    case .none, .words: false
    }
  }

  @Test func theCompletionGrammarSaysWhatArgumentParserDeclares() throws {
    var checked = 0
    func visit(_ command: [String: Any], _ type: any ParsableCommand.Type, _ grammar: CompletionCommand, _ path: [String]) {
      checked += 1
      let declared = Self.declaredOptions(command, path)
      let offered = Self.grammarOptions(grammar)
      #expect(
        declared == offered,
        "wx \(path): declared but not completed \(declared.subtracting(offered)), completed but not declared \(offered.subtracting(declared))"
      )

      // Positionals: each declared value list is what its place completes; a place whose
      // words are free completes nothing or names from the user's data; completion takes no
      // more places than are declared, nor repeats or joins words ArgumentParser takes once.
      let positionals = Self.arguments(command).filter { $0["kind"] as? String == "positional" }
      for (k, p) in positionals.enumerated() {
        let source = grammar.argument(k)
        if let list = Self.valueList(p) {
          #expect(source == .words(list), "wx \(path): positional \(k) completes \(source), declared \(list)")
        } else if (p["completionKind"] as? [String: Any])?["custom"] != nil {
          #expect(Self.isDynamic(source), "wx \(path): positional \(k) has a custom completion, completes \(source)")
        } else {
          #expect(source == .none || Self.isDynamic(source), "wx \(path): positional \(k) takes any word, completes \(source)")
        }
      }
      let lastRepeats = positionals.last?["isRepeating"] as? Bool ?? false
      #expect(
        grammar.arguments.count <= positionals.count || lastRepeats,
        "wx \(path): \(grammar.arguments) for \(positionals.count) positionals")
      #expect(!(grammar.repeats || grammar.joinsWords) || lastRepeats, "wx \(path): repeats or joins words declared once")

      // Subcommands, aliases and the default subcommand, both ways.
      let subcommands = (command["subcommands"] as? [[String: Any]] ?? []).filter { $0["shouldDisplay"] as? Bool != false }
      let names = subcommands.compactMap { $0["commandName"] as? String }
      #expect(names == grammar.subcommands.map(\.name), "wx \(path): subcommands")
      #expect(
        type.configuration.defaultSubcommand?._commandName == grammar.defaultSubcommand, "wx \(path): default subcommand")
      for sub in subcommands {
        guard let name = sub["commandName"] as? String, let g = grammar.subcommand(name) else { continue }
        #expect(g.name == name && g.aliases == (sub["aliases"] as? [String] ?? []), "wx \(path) \(name): aliases")
        // `help` is ArgumentParser's own command, not in WX's configuration.
        let subtype = type.configuration.subcommands.first { $0._commandName == name } ?? HelpLike.self
        visit(sub, subtype, g, path + [name])
      }
    }
    visit(try Self.tool(), WX.self, CompletionGrammar.root, [])
    #expect(checked > 20)
    // Every shape is of a command there is, and names options it has (an option whose value
    // completes names is one that takes any word: the walk above checks that).
    for (path, shape) in CompletionGrammar.shapes {
      var command: CompletionCommand? = CompletionGrammar.root
      for word in path { command = command?.subcommand(word) }
      #expect(command != nil, "shape of wx \(path): no such command")
      for name in shape.values.keys {
        #expect(command?.options.contains { $0.names.contains(name) } == true, "shape of wx \(path): no option \(name)")
      }
    }
  }

  /// Stands for ArgumentParser's `help` command, which has no subcommands.
  struct HelpLike: ParsableCommand {}
}
