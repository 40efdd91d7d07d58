/// The three lists `wx browse` cycles through with Tab.
enum BrowseList: String, CaseIterable {
  case all = "All"
  case favourites = "Favourites"
  case hottest = "Hottest"

  var next: BrowseList {
    let all = Self.allCases
    return all[(all.firstIndex(of: self)! + 1) % all.count]
  }
}

/// What the loop must do after a key, besides redrawing.
enum BrowseAction: Equatable {
  case none, quit, toggleFavourite, toggleUnit, suspend
  /// Entered the detail of the selected row: record it as the last city.
  case opened
}

/// The state of `wx browse`, without any I/O: the query, the list shown, the selection and
/// the page it is on, and which screen (list, detail, keys) is up. Keys change it through
/// ``apply(_:)``; the loop does the actions it returns.
///
/// The list scrolls a page at a time (the page holding the selection is shown), so
/// "page i of n" is always true and each page is one fetch.
struct BrowseModel: Equatable {
  enum Mode: Equatable { case list, detail, help }

  var query = ""
  var list = BrowseList.all
  var mode = Mode.list
  /// Index of the selected row in the whole result set.
  var selection = 0
  /// Rows in the result set.
  var total = 0
  /// Rows that fit on a page.
  var pageSize = 10
  /// The screen the keys screen (`?`) goes back to: the list, or the city it was opened from.
  var beforeHelp = Mode.list

  /// A query is typed (Esc clears it rather than quitting).
  var editing: Bool { !query.isEmpty }
  var page: Int { selection / max(1, pageSize) }
  var pages: Int { max(1, (total + pageSize - 1) / max(1, pageSize)) }
  /// The first row shown.
  var top: Int { page * max(1, pageSize) }

  /// The list the query applies to: a query searches the whole catalogue, or filters the
  /// favourites.
  var searchesCatalogue: Bool { !query.isEmpty && list != .favourites }

  mutating func apply(_ key: Key) -> BrowseAction {
    if key == .ctrl(0x03) { return .quit }
    if key == .ctrl(0x1A) { return .suspend }  // Ctrl-Z
    switch mode {
    case .help:
      mode = beforeHelp == .detail && total == 0 ? .list : beforeHelp
      return .none
    case .detail: return applyDetail(key)
    case .list: return applyList(key)
    }
  }

  /// The detail screen has no search field: its letters are actions (f, u, q, j, k, ?).
  private mutating func applyDetail(_ key: Key) -> BrowseAction {
    switch key {
    case .escape, .left, .backspace: mode = .list
    case .char("q"): return .quit
    case .char("f"), .ctrl(0x06): return .toggleFavourite
    case .char("u"), .ctrl(0x14): return .toggleUnit
    case .char("?"): showHelp()
    case .up, .char("k"):
      if selection > 0 {
        move(by: -1)
        return .opened
      }
    case .down, .char("j"):
      if selection + 1 < total {
        move(by: 1)
        return .opened
      }
    default: break
    }
    return .none
  }

  /// In the list every printable key goes to the search field (typing `frankfurt`, `quito`
  /// or `kyoto` searches for it); actions are on keys no name starts with: Enter, arrows,
  /// Tab, Esc, Ctrl-F (favourite), Ctrl-T (°C/°F), and `?` (no name holds one).
  private mutating func applyList(_ key: Key) -> BrowseAction {
    switch key {
    case .up: move(by: -1)
    case .down: move(by: 1)
    case .pageUp: move(by: -pageSize)
    case .pageDown: move(by: pageSize)
    case .home: selection = 0
    case .end: selection = max(0, total - 1)
    case .enter, .right:
      if total > 0 {
        mode = .detail
        return .opened
      }
    case .tab: cycle(list.next)
    case .backTab: cycle(list.next.next)
    case .escape:
      if !editing { return .quit }
      setQuery("")
    case .backspace:
      if !query.isEmpty { setQuery(String(query.dropLast())) }
    case .ctrl(0x15): setQuery("")  // Ctrl-U
    case .ctrl(0x06): return total > 0 ? .toggleFavourite : .none  // Ctrl-F
    case .ctrl(0x14): return .toggleUnit  // Ctrl-T
    case .char("?"): showHelp()
    case .char(" ") where query.isEmpty: break  // no name starts with a space
    case .char(let c): type(c)
    default: break
    }
    return .none
  }

  private mutating func showHelp() {
    beforeHelp = mode
    mode = .help
  }

  private mutating func type(_ c: Character) {
    guard query.count < 64 else { return }
    setQuery(query + String(c))
  }

  private mutating func setQuery(_ q: String) {
    guard q != query else { return }
    query = q
    selection = 0
    // A query searches the catalogue; the hottest list has no search of its own.
    if !q.isEmpty && list == .hottest { list = .all }
  }

  private mutating func cycle(_ to: BrowseList) {
    list = to
    selection = 0
  }

  mutating func move(by delta: Int) {
    selection = max(0, min(max(0, total - 1), selection + delta))
  }

  /// After the result set changed size (a new query, a resize, a new catalogue).
  mutating func update(total: Int, pageSize: Int) {
    self.total = total
    self.pageSize = max(1, pageSize)
    selection = max(0, min(selection, total - 1))
    if total == 0 && mode == .detail { mode = .list }
  }
}
