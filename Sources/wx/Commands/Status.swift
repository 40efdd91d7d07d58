import ArgumentParser
import WXCore

extension WX {
  struct Status: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Where the catalogue came from, how fresh it is, and the store files.")

    @Flag(help: "Print JSON instead of text.") var json = false

    func execute() async throws {
      let ctx = try Context.make()
      let catalogue = try ctx.catalogue()
      let meta = catalogue.meta
      catalogue.close()
      let unit = ctx.unit(Display())
      let files = ctx.home.storePaths.map { ($0.name, $0.path, FileSystem.size($0.path)) }
      let latestAir = ((try? ctx.home.aqi.histories()) ?? []).compactMap(\.latest)
      let airUpdated = latestAir.map(\.time).max()
      // Open-Meteo's data is credited where it is shown: the weather, the air quality, or both.
      let credited = [
        meta.provider == "open-meteo" ? "Weather" : nil, latestAir.contains { $0.scale == .us } ? "air quality" : nil,
      ].compactMap { $0 }
      let attribution = credited.isEmpty ? nil : Self.attribution(credited.joined(separator: " and "))
      if json {
        Terminal.data(
          JSON.object([
            ("home", .string(ctx.home.directory)), ("source", .string(meta.source)),
            ("provider", .string(meta.provider)), ("sample", .bool(meta.isSample)), ("count", .int(meta.count)),
            ("synced_at", .string(Clock.iso8601(meta.syncedAt))), ("age_seconds", .int(Int(ctx.now - meta.syncedAt))),
            ("list_provider", .string(meta.listProvider)), ("list_synced_at", .string(Clock.iso8601(meta.listSyncedAt))),
            ("refreshed", .int(meta.refreshed)), ("air_quality_at", airUpdated.map { .string(Clock.iso8601($0)) } ?? .null),
            ("attribution", attribution.map { .string($0) } ?? .null), ("unit", .string(unit.rawValue)),
            (
              "files",
              .array(
                files.map { name, path, size in
                  .object([("name", .string(name)), ("path", .string(path)), ("bytes", size.map { .int(Int($0)) } ?? .null)])
                })
            ),
          ]).text)
        return
      }
      var out = ""
      out += "home      \(ctx.home.directory)\n"
      out += "source    \(meta.source)\(meta.isSample ? "  (bundled sample: run `wx sync`)" : "")\n"
      let part = meta.refreshed == meta.count ? "" : " (weather of \(meta.refreshed) of \(meta.count) cities)"
      out += "provider  \(meta.provider)\(part)\n"
      out += "cities    \(meta.count)\n"
      out += "synced    \(Clock.format(meta.syncedAt)) (\(Clock.ago(ctx.now - meta.syncedAt)))\n"
      if meta.listProvider != meta.provider || meta.listSyncedAt != meta.syncedAt {
        out += "list      from \(meta.listProvider), \(Clock.format(meta.listSyncedAt)) (\(Clock.ago(ctx.now - meta.listSyncedAt)))\n"
      }
      if let airUpdated { out += "air       \(Clock.format(airUpdated)) (\(Clock.ago(ctx.now - airUpdated)))\n" }
      if let attribution { out += "data      \(attribution)\n" }
      out += "unit      \(unit.rawValue)\n"
      out += "files\n"
      for (name, path, size) in files {
        let s = size.map { Self.bytes($0) } ?? "absent"
        out += "  \(DisplayWidth.pad(name, to: 12)) \(DisplayWidth.pad(s, to: 9, right: true))  \(path)\n"
      }
      Terminal.out(out)
    }

    static func attribution(_ what: String) -> String {
      what.prefix(1).uppercased() + what.dropFirst() + " data by Open-Meteo.com (CC BY 4.0)"
    }

    static func bytes(_ n: Int64) -> String {
      if n < 1024 { return "\(n) B" }
      if n < 1_048_576 { return "\(Number.oneDecimal(Double(n) / 1024)) KiB" }
      return "\(Number.oneDecimal(Double(n) / 1_048_576)) MiB"
    }
  }
}
