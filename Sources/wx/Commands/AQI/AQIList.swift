import ArgumentParser
import Dispatch
import WXCore

#if canImport(Glibc)
  import Glibc
#endif


extension WX.AQI {
  struct List: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "The latest air-quality reading of each city, offline.")

    @Flag(help: "Print JSON instead of a table.") var json = false
    @OptionGroup var display: AQIColorOption

    func execute() async throws {
      let ctx = try Context.make(display: display.value)
      let histories = try ctx.home.aqi.histories().filter { $0.latest != nil }
      if json {
        Terminal.data(
          JSON.object([
            (
              "items",
              .array(
                histories.map { h in
                  let s = h.latest!
                  return .object([
                    ("city", .string(h.city)), ("aqi", .number(s.aqi)), ("category", .string(s.category.name(on: s.scale))), ("scale", .string(s.scale.name)),
                    ("time", .string(Clock.iso8601(s.time))),
                  ])
                })
            )
          ]).text)
        return
      }
      guard !histories.isEmpty else {
        Terminal.out("No air-quality readings yet: run `wx aqi watch URL` to record a feed.")
        return
      }
      var t = Table(headers: ["City", "AQI", "Category", "Updated"])
      t.minWidths = [(0, 10), (2, 8)]
      t.fitting = [.shrink, .drop(3)]
      t.rightAligned = [1]
      for h in histories {
        let s = h.latest!
        t.rows.append([h.city.visible, AQIText.value(s.aqi), AQIText.category(s, ctx.terminal), AQIText.ago(ctx.now - s.time)])
      }
      let n = histories.count
      Terminal.out(
        ctx.terminal.bold("Air quality") + "\n" + t.render(ctx.terminal)
          + ctx.terminal.dim("\(n) \(n == 1 ? "city" : "cities") · last \(AQIStore.capacity) readings kept per city"))
    }
  }
}
