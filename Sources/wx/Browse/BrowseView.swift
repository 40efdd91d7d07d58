import WXCore

/// Draws `wx browse` for a window of `width` × `height`: exactly `height` lines, none wider
/// than `width` columns. Every piece of untrusted text (names, countries, descriptions,
/// dates, the query, messages) is escaped here, before it is measured.
struct BrowseView {
  var width: Int
  var height: Int
  var term: Terminal
  var unit: Units
  /// Source and age of the catalogue, for the header (already escaped).
  var about: String
  /// Now (seconds since the epoch): which forecast days are past, and the hour the detail's
  /// 24-hour strip starts at.
  var now: Int64
  var isFavourite: (BrowseRow) -> Bool

  static let minWidth = 40
  static let minHeight = 10

  var fits: Bool { width >= Self.minWidth && height >= Self.minHeight }
  /// List rows on a page: everything but the header, search, column, status and key lines.
  var pageSize: Int { max(1, height - 5) }

  func lines(_ m: BrowseModel, _ page: BrowseData.Page, selected: BrowseRow?, status: String) -> [String] {
    guard fits else {
      // Short lines, so the size it asks for shows even in a very narrow window.
      return finish([
        "wx browse needs a window", "of at least \(Self.minWidth)×\(Self.minHeight)", "(this one is \(width)×\(height))",
      ])
    }
    var out = [header(m)]
    switch m.mode {
    case .help: out += help()
    case .detail: out += selected.map { detail($0) } ?? []
    case .list:
      // An Age column (`5h`, `sample`) when a row's values are over three hours old or invented.
      // As wide as its widest cell (`5h`: the header's 3; `sample`: 6), beside two spaces.
      let ageWidth = page.rows.compactMap(\.city).map { DisplayWidth.of(Ages.cell($0, now)) }.max() ?? 0
      let aged = ageWidth > 0
      let widths = Self.columnWidths(room: width - 2 - 7 - 6 - (aged ? max(3, ageWidth) + 2 : 0), page.rows.map(cells))
      let head = columns(widths, ageWidth: max(3, ageWidth), "", "City", "Country", "Temp", aged ? "Age" : nil, "Conditions")
      out += [search(m), term.bold(head)] + rows(m, page, widths, ageWidth: aged ? max(3, ageWidth) : 0)
    }
    out = Array(out.prefix(height - 2))
    while out.count < height - 2 { out.append("") }
    out.append(term.dim(statusLine(m, page, status)))
    out.append(term.dim(keys(m)))
    return finish(out)
  }

  /// Each line cut to the width (ASCII spellings without Unicode), padded to `height` lines.
  private func finish(_ lines: [String]) -> [String] {
    var out = lines.map { line -> String in
      // The arrows in words first: ASCII spelling would make them `?`, the keys screen's key.
      let l = term.unicode ? line : ASCII.spell(Self.spellArrows(line))
      return DisplayWidth.truncate(l, to: width, ellipsis: term.ellipsis)
    }
    while out.count < height { out.append("") }
    return Array(out.prefix(height))
  }

  /// The arrows of the key hints, in words for `--ascii` and non-UTF-8 locales.
  static func spellArrows(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: { (0x2190...0x2193).contains($0.value) }) else { return s }
    var out = ""
    for ch in s {
      switch ch {
      case "↑": out += "Up"
      case "↓": out += out.hasSuffix("Up") ? "/Down" : "Down"
      case "←": out += "Left"
      case "→": out += "Right"
      default: out.append(ch)
      }
    }
    return out
  }

  private func header(_ m: BrowseModel) -> String {
    let tabs = BrowseList.allCases.map { l in
      l == m.list ? (term.color ? term.paint(" \(l.rawValue) ", "7") : "[\(l.rawValue)]") : " \(l.rawValue) "
    }.joined(separator: " ")
    let left = term.bold("wx") + "  " + tabs
    let right = about + " · " + unit.symbol
    let gap = width - DisplayWidth.of(left) - DisplayWidth.of(right)
    return gap >= 2 ? left + String(repeating: " ", count: gap) + term.dim(right) : left
  }

  private func search(_ m: BrowseModel) -> String {
    guard m.editing else { return term.dim("Type to search · ? keys · Tab: All, Favourites, Hottest") }
    let caret = term.unicode ? "▏" : "_"
    return "Search: " + term.bold(m.query.visible) + caret
  }

  /// City, Country and Conditions of a row, escaped, as the list shows them.
  private func cells(_ row: BrowseRow) -> [String] {
    guard let c = row.city else {
      return [row.identity.name.visible, row.identity.country.visible, "not in the current catalogue"]
    }
    return [c.name.visible, c.country.visible, c.current(at: now).city.description.visible]
  }

  /// The widths of City, Country and Conditions on a page of `rows` (their cells): each column
  /// that needs less than its share of `room` (4 : 2 : 4) gets what it needs, and what it
  /// leaves is shared by the others in the same proportions, so Country is never cut while
  /// City has columns to spare (nor City while Country has).
  static func columnWidths(room: Int, _ rows: [[String]]) -> [Int] {
    let weights = [4, 2, 4]
    var needs = ["City", "Country", "Conditions"].map(DisplayWidth.of)
    for row in rows {
      for (i, cell) in row.enumerated() where i < needs.count { needs[i] = max(needs[i], DisplayWidth.of(cell)) }
    }
    var widths = [0, 0, 0]
    var open = [0, 1, 2]
    var left = max(0, room)
    while !open.isEmpty {
      let weight = open.reduce(0) { $0 + weights[$1] }
      let met = open.filter { needs[$0] * weight <= left * weights[$0] }
      if met.isEmpty {
        for i in open { widths[i] = left * weights[i] / weight }
        break
      }
      for i in met {
        widths[i] = needs[i]
        left -= needs[i]
      }
      open.removeAll { met.contains($0) }
    }
    return widths
  }

  /// Mark, City, Country, Temp (right-aligned), Conditions in `widths` (``columnWidths(room:_:)``).
  private func columns(
    _ widths: [Int], ageWidth: Int = 3, _ mark: String, _ city: String, _ country: String, _ temp: String, _ age: String?,
    _ conditions: String
  ) -> String {
    let cut = { (s: String, w: Int) in DisplayWidth.pad(DisplayWidth.truncate(s, to: w, ellipsis: term.ellipsis), to: w) }
    // Measured as printed: "9 C" without Unicode, or Conditions would sit left of its header.
    let temp = term.unicode ? temp : ASCII.spell(temp)
    return DisplayWidth.pad(mark, to: 2) + cut(city, widths[0]) + "  " + cut(country, widths[1]) + "  "
      + DisplayWidth.pad(temp, to: 7, right: true) + "  "
      + (age.map { DisplayWidth.pad($0, to: ageWidth, right: true) + "  " } ?? "")
      + conditions
  }

  private func rows(_ m: BrowseModel, _ page: BrowseData.Page, _ widths: [Int], ageWidth: Int) -> [String] {
    guard !page.rows.isEmpty else { return ["", empty(m)] }
    let star = term.unicode ? "★" : "*"
    return page.rows.enumerated().map { k, row in
      let selected = m.top + k == m.selection
      let mark = (selected ? ">" : " ") + (isFavourite(row) ? star : " ")
      let cells = cells(row)
      let shown = row.city?.current(at: now).city
      let temp = shown.map { term.temperature($0.temperatureC, unit) } ?? "–"
      let age = ageWidth > 0 ? (row.city.map { Ages.cell($0, now) } ?? "") : nil
      let line = columns(widths, ageWidth: ageWidth, mark, cells[0], cells[1], temp, age, cells[2])
      // The temperature's colour ends with a reset: on the selected row it resets to reverse
      // video, so the bar runs the whole width.
      return selected && term.color
        ? term.paint(DisplayWidth.pad(line, to: width).replacing("\u{1B}[0m", with: "\u{1B}[0;7m"), "7") : line
    }
  }

  private func empty(_ m: BrowseModel) -> String {
    if !m.query.isEmpty { return "  No city name or word in it starts with \(m.query.quoted())." }
    switch m.list {
    case .favourites: return "  No favourites yet: press f on a city to add it."
    case .hottest: return "  No rain-free cities: it is raining everywhere."
    case .all: return "  The catalogue is empty: run `wx sync`."
    }
  }

  private func statusLine(_ m: BrowseModel, _ page: BrowseData.Page, _ status: String) -> String {
    let noun: String
    switch (m.list, m.query.isEmpty) {
    case (.favourites, _): noun = page.total == 1 ? "favourite" : "favourites"
    case (_, false): noun = page.total == 1 ? "match" : "matches"
    case (.hottest, true): noun = page.total == 1 ? "rain-free city" : "rain-free cities"
    case (.all, true): noun = page.total == 1 ? "city" : "cities"
    }
    let line =
      m.mode == .list ? "page \(m.page + 1) of \(m.pages) · \(page.total) \(noun)" : "\(m.selection + 1) of \(page.total) \(noun)"
    return status.isEmpty ? line : line + " · " + status.visible
  }

  private func keys(_ m: BrowseModel) -> String {
    switch m.mode {
    case .help: return "any key: back"
    case .detail: return "Esc back · ↑↓ previous/next · f favourite · u °C/°F · ? keys · q quit"
    case .list:
      return m.editing
        ? "Enter open · ↑↓ PgUp PgDn move · Esc clear · Tab view · Ctrl-C quit"
        : "↑↓ move · PgUp PgDn page · Enter open · Ctrl-F favourite · Ctrl-T °C/°F · Tab view · ? keys · Esc quit"
    }
  }

  private func help() -> [String] {
    [
      "", term.bold("Keys"),
      "  any letter, digit search as you type (the same matching as wx search)",
      "  Backspace Ctrl-U  delete a letter / the whole query; Esc clears it",
      "  ↑ ↓               previous / next city (j k on a city's screen)",
      "  PgUp PgDn         previous / next page;  Home End  first / last city",
      "  Enter →           open the city;  Esc ← Backspace  back to the list",
      "  Ctrl-F            add or remove the favourite (f on a city's screen)",
      "  Ctrl-T            switch between °C and °F, saved like wx unit (u there)",
      "  Tab Shift-Tab     All · Favourites · Hottest (rain-free, hottest first)",
      "  Esc Ctrl-C        quit (Esc with no query; q on a city's screen)",
      "  Ctrl-Z            suspend (fg brings it back)",
    ]
  }

  private func detail(_ row: BrowseRow) -> [String] {
    let favourite = isFavourite(row)
    let title = term.bold("\(row.identity.name.visible), \(row.identity.country.visible)")
    guard let stored = row.city else { return ["", title, "", "  Not in the current catalogue."] }
    let (c, _, hour) = stored.current(at: now)
    let mark = favourite ? (term.unicode ? "★" : "*") + " favourite (f removes it)" : term.dim("f: add to favourites")
    var out = ["", title + term.dim(row.geonameID.map { "  GeoNames \($0)" } ?? "  id \(c.id)"), ""]
    out += CityView.beside(c, CityView.weather(c, unit, term) + [mark], term).map { " " + $0 }
    // An atlas place has no weather yet: how to get it, in lines that fit 40 columns.
    if row.geonameID != nil {
      return out + [
        "", " No weather for it yet: make it a", " favourite (f), then fetch it with",
        "   wx sync --provider open-meteo", "     --favourites",
      ]
    }
    // When the values are from and who gave them, as `wx show` says it.
    // Wrapped, and above the hours and the forecast: a short window loses those first.
    let stale = Ages.isStale(stored, now)
    out += Ages.wrap(Ages.line(stored, now, estimate: hour), width - 2).map { " " + CityView.ageLine($0, stale: stale, term) }
    // What is coming, as on top of `wx show` (nothing without stored hours).
    if let sentence = OutlookText.sentence(stored, unit, now) {
      out += [""] + Ages.wrap(sentence.visible, width - 2).map { " " + term.bold($0) }
    }
    if case .hours(let hours) = c.hours(at: now, limit: HourStrip.hours) {
      let strip = HourStrip.render(hours, unit, term, width: width - 1)
      if !strip.isEmpty { out += [""] + strip.map { " " + $0 } }
    }
    // The table of `wx show`, fitted to the window beside a one-column margin: its columns
    // line up whatever the widths of the values.
    let table = Terminal(color: term.color, unicode: term.unicode, width: width - 1)
    let forecast = CityView.forecast(c.datedForecast(at: now), unit, table, source: stored.origin.source)
    out += ["", term.bold(" Forecast")] + forecast.split(separator: "\n").map { " " + $0 }
    return out
  }
}
