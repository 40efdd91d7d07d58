import ArgumentParser
import WXCore

extension WX.AQI {
  struct List: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "The latest air-quality reading of each city, offline.")

    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: AQIColorOption

    func execute(_ console: Console) async throws {
      let ctx = try Context.make(console, display: display.value)
      let histories = try ctx.home.aqi.histories().filter { $0.latest != nil }
      Runner.show(AQIListView(histories: histories, now: ctx.now), json: json, ctx)
    }
  }
}

/// City | AQI | Category | Updated, one row per city recorded; `{"items": [{city, aqi,
/// category, scale, time}]}`.
struct AQIListView: View {
  var histories: [AQIHistory]
  var now: Int64

  func json() -> JSON {
    .object([
      (
        "items",
        .array(
          histories.compactMap { h in
            h.latest.map { s in
              .object([
                ("city", .string(h.city)), ("aqi", .number(s.aqi)), ("category", .string(s.category.name(on: s.scale))),
                ("scale", .string(s.scale.name)), ("time", .string(Clock.iso8601(s.time))),
              ])
            }
          })
      )
    ])
  }

  func text(_ term: Terminal) -> String {
    guard !histories.isEmpty else {
      return "No air-quality readings yet: run `wx aqi sync` (Open-Meteo, online) or `wx aqi watch URL` to record a feed."
    }
    var t = Table(headers: ["City", "AQI", "Category", "Updated"])
    t.minWidths = [(0, 10), (2, 8)]
    t.fitting = [.shrink, .drop(3)]
    t.rightAligned = [1]
    for h in histories {
      guard let s = h.latest else { continue }
      t.rows.append([h.city.visible, AQIText.value(s.aqi, on: s.scale), AQIText.category(s, term), AQIText.ago(now - s.time)])
    }
    let n = histories.count
    return term.bold("Air quality") + "\n" + t.render(term)
      + term.dim("\(n) \(n == 1 ? "city" : "cities") · last \(AQIStore.capacity) readings kept per city")
  }
}
