import Foundation
import Testing
import WXCore
@testable import wx

/// `wx browse` on a real pseudo-terminal: resize, every way out, suspend, errors, hostile
/// names, a sync underneath; and its model's keys, pages and screens.
extension BrowseTests {
  @Test func redrawsOnResize() throws {
    let r = try browse(
      TempHome(),
      [
        Self.ready, ["resize": [50, 14]], Self.wait("page 1 of 7"), Self.snap("small"),
        ["resize": [30, 8]], Self.wait("needs a window"), Self.snap("tiny"),
        ["resize": [80, 24]], Self.ready,
      ] + Self.quit)
    let small = r.screen("small")
    #expect(small.count == 14 && small[12].hasPrefix("page 1 of 7 · 62 cities"))
    #expect(small[3].hasPrefix(">") && small[3].contains("New York"))
    #expect(r.screen("tiny")[0].hasPrefix("wx browse needs a window"))
    #expect(r.screen("tiny").joined(separator: "\n").contains("of at least 40×10"), "the size asked for is shown at 30 columns")
    #expect(r.status == ["code": 0])
  }

  @Test(arguments: ["q", "ctrl-c", "esc", "TERM", "HUP", "INT"])
  func everyWayOutRestoresTheTerminal(_ way: String) throws {
    let steps: [[String: Any]]
    switch way {
    case "q": steps = [Self.keys("\r"), Self.wait("Forecast"), Self.keys("q")]
    case "ctrl-c": steps = [Self.keys("par"), Self.wait("3 matches"), Self.keys("\u{3}")]
    case "esc": steps = [Self.keys("par"), Self.wait("3 matches"), Self.keys(Self.esc), Self.ready, Self.keys(Self.esc)]
    default: steps = [["signal": way]]
    }
    let r = try browse(TempHome(), [Self.ready] + steps + [["exit": true]])
    #expect(r.flag("alternate_entered"))
    #expect(r.flag("alternate_left"))
    #expect(r.flag("cursor_shown"))
    #expect(r.flag("modes_restored"), "\(r.raw["stty_before"] ?? "") → \(r.raw["stty_after"] ?? "")")
    let signals = ["TERM": 15, "HUP": 1, "INT": 2]
    #expect(r.status == (signals[way].map { ["signal": $0] } ?? ["code": 0]))
  }

  @Test func suspendsWithTheTerminalRestoredAndComesBack() throws {
    let r = try browse(
      TempHome(),
      [
        Self.ready, Self.keys("par"), Self.wait("3 matches"), ["signal": "TSTP"], ["stopped": "signal"],
        ["signal": "CONT"], ["resumed": true], Self.wait("3 matches"), Self.keys("\u{1A}"), ["stopped": "ctrl-z"],
        ["signal": "CONT"], ["resumed": true], Self.wait("3 matches"), Self.snap("back"), Self.keys("\u{3}"), ["exit": true],
      ], jobControl: true)
    let modes = r.raw["modes"] as? [String: String]
    #expect(modes?["signal"] == r.raw["stty_before"] as? String)
    #expect(modes?["ctrl-z"] == r.raw["stty_before"] as? String)
    #expect(r.screen("back")[1].hasPrefix("Search: par"))
    #expect(r.flag("modes_restored") && r.flag("alternate_left"))
    #expect(r.status == ["code": 0])
  }

  @Test func anErrorRestoresTheTerminalAndIsOneLine() throws {
    let home = TempHome()
    let junk = home.path + "/junk"
    try Data("not a catalogue".utf8).write(to: URL(fileURLWithPath: junk))
    let r = try browse(home, [Self.ready, ["rename": [junk, home.catalogue]], Self.keys(Self.down), ["exit": true]])
    #expect(r.status == ["code": 74])
    #expect(r.flag("modes_restored") && r.flag("alternate_left") && r.flag("cursor_shown"))
    // pyte keeps one screen, so the message lands where the last frame ended.
    let text = r.final.joined()
    #expect(text.components(separatedBy: "wx: ").count == 2, "\(r)")
    #expect(text.contains("catalogue.gdbm is not a wx store"), "\(r)")
  }

  @Test func hostileNamesAreEscaped() throws {
    let home = TempHome()
    var cities: [City] = []
    for (k, bit) in hostileBits.enumerated() {
      cities.append(city(k + 1, "Evil\(bit)\(k)", "Bad\(bit)land", "Sunny\(bit)", temperature: Double(k)))
    }
    try publish(cities, in: home)
    let r = try browse(
      home,
      [Self.wait("13 cities"), Self.snap("list"), Self.keys("\r"), Self.wait("Forecast"), Self.snap("detail")] + Self.quit,
      env: [:])  // colours on: only the program's own colour sequences survive
    let list = r.screen("list").joined(separator: "\n")
    #expect(list.contains(#"Evil\x1b]0;pwned\x07"#) || list.contains(#"Evil\x1b]0;pwn"#))
    #expect(list.contains(#"\u{202e}"#) || list.contains(#"\u{202"#))
    #expect(r.screen("list")[0].hasPrefix("wx "))  // not cleared by a hostile ESC [2J
    #expect(r.screen("detail").joined().contains(#"Evil\x1b]0;pwned\x07"#))
    #expect(r.raw["title"] as? String == "")
    #expect(r.status == ["code": 0])
  }

  @Test func followsASyncUnderneath() throws {
    let home = TempHome()
    let other = TempHome()
    try publish([city(1, "Atlantis", "Sea"), city(2, "Lemuria", "Ocean")], in: other)
    let r = try browse(
      home,
      [Self.ready, ["rename": [other.catalogue, home.catalogue]], Self.keys(Self.down), Self.wait("2 cities"), Self.snap("new")]
        + Self.quit)
    #expect(r.screen("new").contains { $0.contains("Atlantis") })
  }

  // MARK: Units: keys and the model, without a terminal

  @Test func decodesKeys() {
    var d = KeyDecoder()
    d.feed(Array("a\u{1B}[A\u{1B}OB\u{1B}[5~\u{1B}[6~\u{1B}[1~\u{1B}[4~\u{1B}[Z\r\u{7F}\u{15}é".utf8))
    #expect(
      d.decode() == [
        .char("a"), .up, .down, .pageUp, .pageDown, .home, .end, .backTab, .enter, .backspace, .ctrl(0x15), .char("é"),
      ])
    d.feed([0x1B])
    #expect(d.decode().isEmpty)  // Esc, or the start of a sequence: wait
    d.feed(Array("[B".utf8))
    #expect(d.decode() == [.down])
    d.feed([0x1B])
    #expect(d.decode(final: true) == [.escape])
    d.feed([0xC3])
    #expect(d.decode().isEmpty)
    d.feed([0xA9, 0xC2, 0x9B])  // é, then a C1 control (CSI): not a key
    #expect(d.decode() == [.char("é")])
  }

  @Test func modelPagesAndKeepsItsPlace() {
    var m = BrowseModel()
    m.update(total: 62, pageSize: 19)
    _ = m.apply(.pageDown)
    #expect(m.page == 1 && m.top == 19 && m.selection == 19)
    _ = m.apply(.end)
    #expect(m.page == 3 && m.selection == 61 && m.pages == 4)
    #expect(m.apply(.enter) == .opened && m.mode == .detail)
    _ = m.apply(.escape)
    #expect(m.mode == .list && m.selection == 61)
    #expect(m.apply(.ctrl(0x06)) == .toggleFavourite)
    #expect(m.apply(.ctrl(0x14)) == .toggleUnit)
    // Every printable key goes to the search field, first letters included: frankfurt,
    // quito and kyoto are searched for, not taken as actions.
    for word in ["frankfurt", "quito", "kyoto", "jujuy", "ulm"] {
      for c in word { #expect(m.apply(.char(c)) == .none) }
      #expect(m.query == word && m.mode == .list && m.editing)
      _ = m.apply(.escape)
      #expect(m.query.isEmpty && !m.editing)
    }
    _ = m.apply(.char(" "))
    #expect(m.query.isEmpty, "no name starts with a space")
    _ = m.apply(.char("?"))
    #expect(m.mode == .help)
    _ = m.apply(.char("x"))
    #expect(m.mode == .list)
    #expect(m.apply(.escape) == .quit)
  }

  /// The keys screen goes back to where it was opened: the city, or the list.
  @Test func theKeysScreenReturnsWhereItWasOpened() {
    var m = BrowseModel()
    m.update(total: 62, pageSize: 19)
    _ = m.apply(.down)
    #expect(m.apply(.enter) == .opened && m.mode == .detail)
    _ = m.apply(.char("?"))
    #expect(m.mode == .help)
    _ = m.apply(.char("x"))
    #expect(m.mode == .detail && m.selection == 1)
    _ = m.apply(.escape)
    _ = m.apply(.char("?"))
    _ = m.apply(.char("x"))
    #expect(m.mode == .list && m.selection == 1)
    // A city that left the list while the keys were up is not gone back to.
    _ = m.apply(.enter)
    _ = m.apply(.char("?"))
    m.update(total: 0, pageSize: 19)
    _ = m.apply(.char("x"))
    #expect(m.mode == .list)
  }

  /// The browse detail shows the 24-hour strip of a city with stored hours, fitted to the
  /// window, in ASCII without Unicode.
  @Test func theDetailShowsTheNext24Hours() throws {
    let (home, _, _) = try FullForecastTests.synced()
    for (locale, size) in [("C.UTF-8", [80, 24]), ("C", [40, 24])] {
      let r = try browse(
        home, [Self.wait("62 cities"), Self.keys("\r"), Self.wait("Forecast"), Self.snap("detail")] + Self.quit, size: size,
        env: ["NO_COLOR": "1", "WX_NOW": String(FullForecastTests.now), "LANG": locale])
      let detail = r.screen("detail")
      let temp = try #require(detail.first { $0.hasPrefix(" temp  ") }, "\(r)")
      let rain = try #require(detail.first { $0.hasPrefix(" rain  ") }, "\(r)")
      #expect(temp.count <= size[0] && rain.count <= size[0], "\(r)")
      #expect(locale != "C" || (temp + rain).unicodeScalars.allSatisfy(\.isASCII), "\(r)")
    }
  }
}

extension BrowseTests {
  /// One town under two names is one favourite in browse too, by the rule `wx fav` follows:
  /// with a catalogue's Bombay a favourite, Mumbai's row is starred, and f on it removes
  /// Bombay, and says so (it added Mumbai as a second favourite of one town).
  @Test func aTownUnderTwoNamesIsOneFavouriteInBrowse() throws {
    let home = TempHome()
    try FileManager.default.copyItem(
      atPath: AtlasCommandTests.built.path + "/atlas.gdbm", toPath: home.path + "/atlas.gdbm")
    let on = ["WX_ATLAS": "on"]
    let api = try FakeAPI(
      data: try writeRecords(
        [
          weatherRecord(id: 1, city: "Mumbai", country: "India", latitude: 19.0728, longitude: 72.8826),
          weatherRecord(id: 2, city: "Bombay", country: "India", latitude: 19.07, longitude: 72.88),
        ], in: home))
    try #require(try home.wx("sync", "--url", api.url, env: on).status == 0)
    try #require(try home.wx("fav", "add", "Bombay", env: on).status == 0)
    let r = try browse(
      home,
      [
        Self.wait("2 cities"), Self.keys("mumbai"), Self.wait("Navi Mumbai"), Self.snap("search"),
        Self.keys(Self.ctrlF), Self.wait("removed Bombay, India"),
      ] + Self.quit, env: ["NO_COLOR": "1", "WX_ATLAS": "on"])
    let row = try #require(r.selected("search"), "\(r)")
    #expect(row.contains("Mumbai") && row.contains("★"), "\(r)")
    let fav = try home.wx("fav", "--json", env: on).json()
    #expect(fav["total"] as? Int == 0, "\(fav)")
  }
}
