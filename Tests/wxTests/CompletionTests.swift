import Foundation
import Testing

@Suite(.serialized) struct CompletionTests {
  static let shells = ["bash", "zsh", "fish"]

  /// A name as the shell inserts it: bash's COMPREPLY holds quoted words.
  static func inserted(_ shell: String, _ name: String) -> String {
    shell == "bash" ? name.replacingOccurrences(of: " ", with: "\\ ").replacingOccurrences(of: "'", with: "\\'") : name
  }

  @Test(arguments: shells)
  func cityNamesCompleteIgnoringCaseAndAccents(_ shell: String) throws {
    let bench = try CompletionBench()
    // Three Parises: each offered with its country, since "Paris" alone is ambiguous.
    let parises = ["Paris, Canada", "Paris, France", "Paris, United States"].map { Self.inserted(shell, $0) }
    #expect(try bench.offers(shell, "wx show pa") == parises)
    #expect(try bench.offers(shell, "wx forecast PAR") == parises)
    #expect(try bench.offers(shell, "wx show Paris,\\ F") == [Self.inserted(shell, "Paris, France")])
    #expect(try bench.offers(shell, "wx show Paris,\\ us") == [Self.inserted(shell, "Paris, United States")])
    #expect(try bench.offers(shell, "wx show lon") == ["London"])
    #expect(try bench.offers(shell, "wx show sao") == ["São Paulo", "São Tomé"].map { Self.inserted(shell, $0) })
    #expect(try bench.offers(shell, "wx show łód") == ["Łódź"])
    #expect(try bench.offers(shell, "wx fav add qqq").isEmpty)
    // After an accented word: bash counts COMP_POINT in characters, not bytes.
    #expect(try bench.offers(shell, "wx fav add Łódź Pra") == ["Prague"])
    #expect(try bench.offers(shell, "wx fav add São\\ Paulo Pra") == ["Prague"])
    #expect(try bench.offers(shell, "wx fav add ndj") == [Self.inserted(shell, "N'Djamena")])
    let zu = try bench.offers(shell, "wx show zu")
    // fish keeps only the names that start with the word when some do (Zurich hides Zürich);
    // bash gets the second written quoted, so that readline keeps the word rather than shorten
    // it to "Z" (no made-up entry: both are the names, once the shell removes the quotes).
    let expected: Set<String> = shell == "fish" ? ["Zurich"] : shell == "bash" ? ["Zurich", "'Zürich'"] : ["Zurich", "Zürich"]
    #expect(Set(zu) == expected, "\(zu)")
    // A capital typed does not hide the accented names (bash kept only "Zu…" spellings).
    if shell != "fish" {
      let capital = try bench.offers(shell, "wx show Zu")
      #expect(Set(capital) == expected, "\(capital)")
      #expect(try bench.offers(shell, "wx show Sa").contains(shell == "bash" ? "'São Paulo'" : "São Paulo"))
    }
  }

  @Test(arguments: shells)
  func namesWithSpacesAndApostrophesAreInsertedQuoted(_ shell: String) throws {
    let bench = try CompletionBench()
    #expect(try bench.offers(shell, "wx show new") == [Self.inserted(shell, "New York")])
    #expect(try bench.offers(shell, "wx fav add ho") == [Self.inserted(shell, "Ho Chi Minh City")])
    #expect(try bench.offers(shell, "wx show N\\'Dj") == [Self.inserted(shell, "N'Djamena")])
    #expect(try bench.offers(shell, "wx show New\\ Y") == [Self.inserted(shell, "New York")])
  }

  @Test(arguments: shells)
  func theShellInsertsTheCompletedNameQuoted(_ shell: String) throws {
    let bench = try CompletionBench()
    #expect(try bench.typed(shell, "wx show pa\t") == "wx show Paris,\\ ")
    #expect(try bench.typed(shell, "wx show pa\tf\t") == "wx show Paris,\\ France ")
    #expect(try bench.typed(shell, "wx show lond\t") == "wx show London ")
    // `wx search` completes the names it lists (it offered nothing).
    #expect(try bench.typed(shell, "wx search lond\t") == "wx search London ")
    #expect(try bench.typed(shell, "wx show new\t") == "wx show New\\ York ")
    #expect(try bench.typed(shell, "wx show sao\\ p\t") == "wx show São\\ Paulo ")
    #expect(try bench.typed(shell, "wx show N\\'D\t") == "wx show N\\'Djamena ")
    #expect(try bench.typed(shell, "wx unit fa\t") == "wx unit fahrenheit ")
    if shell != "fish" {  // fish has no unclosed quotes on its command line
      #expect(try bench.typed(shell, "wx show \"new y\t") == "wx show \"New York\" ")
    }
    if shell == "bash" {
      #expect(try bench.typed(shell, "wx show 'n'\\''dj\t") == "wx show 'n'\\''Djamena' ")
    }
    // Zurich and Zürich share only "Z": TAB must not shorten "zu" to it (bash and zsh did),
    // and a longer shared part still goes in ("sao" -> "São ").
    if shell != "fish" {  // fish offers the names that start with the typed word, ignoring case
      #expect(try bench.typed(shell, "wx show zu\t") == "wx show zu")
      #expect(try bench.typed(shell, "wx show sao\t") == "wx show São\\ ")
    }
  }

  /// bash, zsh: TAB never takes letters away from the typed word, whatever its case or
  /// accents, in a UTF-8 locale or in C.
  @Test(arguments: ["bash", "zsh"], ["C.UTF-8", "C"])
  func tabNeverDeletesTypedLetters(_ shell: String, _ lang: String) throws {
    let bench = try CompletionBench()
    bench.lang = lang
    for word in ["Zu", "zu", "ZU", "Zur", "zü", "Zü"] where lang != "C" || word.allSatisfy(\.isASCII) {
      let line = try bench.typed(shell, "wx show \(word)\t")
      #expect(line.hasPrefix("wx show ") && line.dropFirst(8).count >= word.count, "\(shell) \(lang) \(word): \(line)")
      #expect(line.dropFirst(8).lowercased().hasPrefix(word.lowercased()), "\(shell) \(lang) \(word): \(line)")
    }
    #expect(try bench.typed(shell, "wx show Zu\t") == "wx show Zu")
    // Inside a quote the user opened, too.
    #expect(try bench.typed(shell, "wx show \"Zu\t") == "wx show \"Zu")
    #expect(try bench.typed(shell, "wx show 'Zu\t") == "wx show 'Zu")
  }

  /// Completion is as wide as search: later words, unquoted names of several words, a
  /// country after an unquoted comma; an apostrophe the shell took as a quote.
  @Test(arguments: shells)
  func completionIsAsWideAsSearch(_ shell: String) throws {
    let bench = try CompletionBench()
    #expect(try bench.offers(shell, "wx show aires") == [Self.inserted(shell, "Buenos Aires")])
    #expect(try bench.offers(shell, "wx show paulo") == [Self.inserted(shell, "São Paulo")])
    #expect(try bench.offers(shell, "wx show town") == [Self.inserted(shell, "Cape Town")])
    #expect(try bench.offers(shell, "wx show new y") == ["York"])
    #expect(try bench.offers(shell, "wx forecast ho chi") == [Self.inserted(shell, "Chi Minh City")])
    #expect(try bench.offers(shell, "wx show Paris, us") == [Self.inserted(shell, "United States")])
    #expect(try bench.offers(shell, "wx fav add London new y") == ["York"])
    #expect(try bench.typed(shell, "wx show new y\t") == "wx show new York ")
    #expect(try bench.offers(shell, "wx show o fal").isEmpty, "nothing made up")
    #expect(try bench.offers(shell, "wx show n dj") == ["Djamena"], "an apostrophe typed as a space")
    if shell == "bash" {
      #expect(try bench.typed(shell, "wx show n'dj\t") == "wx show n'Djamena' ")
    }
  }

  /// `wx fav rm`: the comma form goes on to the country, and a favourite already on the
  /// line is not offered again.
  @Test(arguments: shells)
  func favRemoveGoesOnAfterTheCommaAndSkipsWhatIsNamed(_ shell: String) throws {
    let bench = try CompletionBench()
    try #require(try bench.home.wx("fav", "add", "Oslo", "Paris, France", "Paris, Canada", "London").status == 0)
    #expect(try bench.typed(shell, "wx fav rm pa\t") == "wx fav rm Paris,\\ ")
    #expect(try bench.typed(shell, "wx fav rm pa\tf\t") == "wx fav rm Paris,\\ France ")
    #expect(try bench.offers(shell, "wx fav rm Paris, ") == ["France", "Canada"])
    #expect(try bench.offers(shell, "wx fav rm Paris, France Paris, ") == ["Canada"])
    #expect(
      try bench.offers(shell, "wx fav rm London ") == ["Oslo", "Paris, France", "Paris, Canada"].map { Self.inserted(shell, $0) })
    #expect(try bench.offers(shell, "wx fav rm Oslo o").isEmpty)
  }

  @Test func bashCompletesInsideAnOpenQuote() throws {
    let bench = try CompletionBench()
    // readline replaces the text after the quote and closes the quote itself.
    #expect(try bench.offers("bash", "wx show \"new y") == ["New York"])
    #expect(try bench.offers("bash", "wx show 'new") == ["New York"])
    #expect(try bench.offers("bash", "wx show 'n").contains("N'\\''Djamena"))
    #expect(try bench.offers("bash", "wx show \"São P") == ["São Paulo"])
  }

  @Test(arguments: shells)
  func subcommandsOptionsAndTheirValuesComplete(_ shell: String) throws {
    let bench = try CompletionBench()
    #expect(try bench.offers(shell, "wx fa") == ["fav"])
    #expect(try Set(bench.offers(shell, "wx fav ")) == ["add", "remove", "rm", "list"])
    #expect(try bench.offers(shell, "wx list --sort ") == ["catalogue", "name", "temperature"])
    #expect(try bench.offers(shell, "wx fav list --sort ") == ["added", "name", "temperature"])
    #expect(try bench.offers(shell, "wx unit ") == ["c", "f", "celsius", "fahrenheit", "wind"])
    #expect(try bench.offers(shell, "wx unit wind ") == ["kmh", "mph", "ms", "knots", "beaufort", "auto"])
    #expect(try bench.offers(shell, "wx show --wind ") == ["kmh", "mph", "ms", "knots", "beaufort"])
    #expect(try bench.offers(shell, "wx show --unit ") == ["c", "f", "celsius", "fahrenheit"])
    #expect(try bench.offers(shell, "wx top --color a") == ["auto", "always"])
    #expect(try bench.offers(shell, "wx sync --provider ") == ["freetestapi", "accuweather", "open-meteo"])
    #expect(try bench.offers(shell, "wx completion ") == ["bash", "zsh", "fish"])
    #expect(try bench.offers(shell, "wx aqi s") == ["sync", "show"])
    #expect(try bench.offers(shell, "wx help fav r") == ["remove", "rm"])
    #expect(try bench.offers(shell, "wx list --so") == ["--sort"])
    #expect(try bench.offers(shell, "wx list --page ").isEmpty)
    let sortEquals = try bench.offers(shell, "wx list --sort=te")
    #expect(sortEquals == [shell == "bash" ? "temperature" : "--sort=temperature"], "\(sortEquals)")
    let all = try bench.offers(shell, "wx ")
    for command in [
      "list", "show", "search", "forecast", "top", "hottest", "sync", "unit", "fav", "status", "doctor",
      "completion", "aqi", "help",
    ] {
      #expect(all.contains(command), "\(shell): \(command) in \(all)")
    }
  }

  @Test(arguments: shells)
  func favRemoveOffersOnlyFavourites(_ shell: String) throws {
    let bench = try CompletionBench()
    #expect(try bench.offers(shell, "wx fav remove ").isEmpty)
    try #require(try bench.home.wx("fav", "add", "Oslo", "Paris, France", "Paris, Canada", "New York").status == 0)
    #expect(try bench.offers(shell, "wx fav remove o") == ["Oslo"])
    #expect(try bench.offers(shell, "wx fav rm pa") == ["Paris, France", "Paris, Canada"].map { Self.inserted(shell, $0) })
    #expect(try bench.offers(shell, "wx fav remove ne") == [Self.inserted(shell, "New York")])
    #expect(try bench.offers(shell, "wx fav remove lo").isEmpty, "London is no favourite")
  }

  @Test func completionPrintsOnlyPrintableNames() throws {
    let bench = try CompletionBench()
    // Written straight to the store, as an older wx or a foreign file could have left it (sync
    // itself cleans names): completion must drop what it cannot print.
    try publish([city(1, "Evil\u{1B}]0;pwned\u{07}", "Norway"), city(2, "Evilbidi\u{202E}txt", "Norway")], in: bench.home)
    let r = try bench.home.wx("__complete", "zsh", "--", "show", "evil")
    #expect(r.status == 0 && !r.stdout.contains("\u{1B}") && !r.stdout.contains("\u{202E}"), "\(r)")
    for shell in Self.shells {
      #expect(try bench.offers(shell, "wx show evil").isEmpty)
    }
  }

  /// The completion grammar (CompletionGrammar.swift) against ArgumentParser's own help: every
  /// subcommand and every option a command's `--help` lists is offered.
  @Test func theGrammarKnowsEveryCommandAndOption() throws {
    let home = TempHome()
    func offered(_ words: [String], _ current: String) throws -> Set<String> {
      Set(try home.run(["__complete", "zsh", "--"] + words + [current]).stdout.split(separator: "\n").map(String.init))
    }
    func section(_ help: String, _ title: String) -> [String] {
      guard let start = help.range(of: title + ":\n") else { return [] }
      return help[start.upperBound...].components(separatedBy: "\n\n")[0].components(separatedBy: "\n")
    }
    var paths: [[String]] = [[]]
    var checked = 0
    while let path = paths.popLast() {
      let help = try home.run(path + ["--help"]).stdout
      // An entry's first line is indented by two spaces; wrapped text by more.
      let entries = { (title: String) in section(help, title).filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") } }
      var options: [String] = []
      for line in entries("OPTIONS") {
        for word in line.split(separator: " ") where word.hasPrefix("--") && word.count > 2 {
          options.append(String(word.prefix { $0 != "," && $0 != "=" }))
        }
      }
      #expect(!options.isEmpty, "\(path): \(help)")
      let offeredOptions = try offered(path, "-")
      // --version is offered where it means something: after `wx` alone.
      for option in options where option != "--version" || path.isEmpty {
        #expect(offeredOptions.contains(option), "wx \(path) \(option)")
      }
      let subcommands = entries("SUBCOMMANDS").compactMap {
        $0.split(separator: " ").first.map { String($0.prefix { $0 != "," }) }
      }
      let offeredCommands = try offered(path, "")
      for sub in subcommands {
        #expect(offeredCommands.contains(sub), "wx \(path) \(sub)")
        if sub != "help" { paths.append(path + [sub]) }
      }
      checked += 1
    }
    #expect(checked > 15)
  }

  @Test func theHiddenEntryPointRejectsABadCommandLine() throws {
    let r = try TempHome().wx("__complete", "tcsh")
    #expect(r.status == 64 && r.stdout.isEmpty && r.stderr.hasPrefix("wx: "), "\(r)")
  }

  @Test func anInstalledBinaryFindsTheSampleBesideItsShareFolder() throws {
    let home = TempHome()
    let prefix = home.path + "/prefix"
    try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: prefix + "/share/wx", withIntermediateDirectories: true)
    try copyExecutable(wxBinary, to: prefix + "/bin/wx")
    try FileManager.default.copyItem(atPath: sampleFile, toPath: prefix + "/share/wx/sample-weathers.json")
    let r = try runProcess(
      prefix + "/bin/wx", ["list", "--json"],
      environment: ["WX_HOME": home.path + "/state", "LANG": "C.UTF-8", "HOME": home.path])
    #expect(r.status == 0, "\(r)")
    #expect(try r.json()["total"] as? Int == (try records(sampleFile)).count)
    // Doctor names the share folder as installed, not through the binary's folder.
    let doctor = try runProcess(
      prefix + "/bin/wx", ["doctor"], environment: ["WX_HOME": home.path + "/state", "LANG": "C.UTF-8", "HOME": home.path])
    #expect(doctor.stdout.contains(prefix + "/share/wx/sample-weathers.json: ok"), "\(doctor)")
    #expect(!doctor.stdout.contains("/../"), "\(doctor)")
    // Without the sample and without a catalogue: a clear configuration error.
    try FileManager.default.removeItem(atPath: prefix + "/share/wx/sample-weathers.json")
    let none = try runProcess(
      prefix + "/bin/wx", ["list"],
      environment: ["WX_HOME": home.path + "/empty", "LANG": "C.UTF-8", "HOME": home.path])
    #expect(none.status == 78 && none.stderr.contains("wx sync"), "\(none)")
  }
}
