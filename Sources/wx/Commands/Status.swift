import ArgumentParser
import WXCore

extension WX {
  struct Status: WXCommand {
    static let configuration = CommandConfiguration(
      abstract: "Where the catalogue came from, how fresh it is, and the store files.")

    @Flag(help: "Print JSON instead of text.") var json = false

    func execute(_ console: Console) async throws {
      let ctx = try Context.make(console)
      let catalogue = try ctx.catalogue()
      let meta = catalogue.meta
      catalogue.close()
      let latestAir = ((try? ctx.home.aqi.histories()) ?? []).compactMap(\.latest)
      let (atlas, atlasPath) = try AtlasStatus.of(ctx.home)
      let view = StatusView(
        home: ctx.home.directory, meta: meta, unit: ctx.unit(Display()), now: ctx.now,
        files: StatusView.files(ctx.home, atlas: atlasPath),
        airUpdated: latestAir.map(\.time).max(), openMeteoAir: latestAir.contains { $0.scale == .us }, atlas: atlas)
      Runner.show(view, json: json, ctx)
    }
  }
}

/// The catalogue's provenance and age, the units (temperature and wind), the store files;
/// attribution where Open-Meteo's data is shown (the weather, the air quality, or both).
struct StatusView: View {
  var home: String
  var meta: CatalogueMeta
  var unit: Units
  var now: Int64
  var files: [(name: String, path: String, size: Int64?)]
  var airUpdated: Int64?
  var openMeteoAir: Bool
  var atlas = AtlasStatus(meta: nil, installed: false)

  var attribution: String? {
    let credited = [meta.provider == "open-meteo" ? "weather" : nil, openMeteoAir ? "air quality" : nil].compactMap { $0 }
    guard !credited.isEmpty else { return nil }
    let what = credited.joined(separator: " and ")
    return what.prefix(1).uppercased() + what.dropFirst() + " data by Open-Meteo.com (CC BY 4.0)"
  }

  func json() -> JSON {
    // In parts: as one literal, this function took 1.4 s of every build to type-check.
    func time(_ t: Int64?) -> JSON { t.map { .string(Clock.iso8601($0)) } ?? .null }
    let catalogue: [(String, JSON)] = [
      ("home", .string(home)), ("source", .string(meta.source)), ("provider", .string(meta.provider)),
      ("sample", .bool(meta.isSample)), ("count", .int(meta.count)), ("synced_at", time(meta.synced)),
      ("age_seconds", meta.synced.map { .int(Int(now - $0)) } ?? .null), ("list_provider", .string(meta.listProvider)),
      ("list_synced_at", time(meta.listSynced)), ("refreshed", .int(meta.refreshed)),
    ]
    let bySource: JSON = .object(Self.bySource(meta).map { ($0.0.rawValue, JSON.int($0.1)) })
    let observations: [(String, JSON)] = [
      ("by_source", bySource), ("oldest_observation", time(meta.oldestObservation)),
      ("newest_observation", time(meta.newestObservation)), ("air_quality_at", time(airUpdated)),
    ]
    let attributionJSON: JSON = attribution.map { .string($0) } ?? .null
    let fileList: [JSON] = files.map { f in
      let bytes: JSON = f.size.map { .int(Int($0)) } ?? .null
      return .object([("name", .string(f.name)), ("path", .string(f.path)), ("bytes", bytes)])
    }
    let rest: [(String, JSON)] = [
      ("attribution", attributionJSON), ("atlas", atlas.json), ("unit", .string(unit.rawValue)),
      ("wind_unit", .string(unit.wind.rawValue)), ("files", .array(fileList)),
    ]
    return .object(catalogue + observations + rest)
  }

  func text(_ term: Terminal) -> String {
    var out = ""
    out += "home      \(home.visible)\n"
    out += "source    \(meta.source.visible)\(meta.isSample ? "  (bundled sample: run `wx sync`)" : "")\n"
    let part = meta.refreshed == meta.count ? "" : " (weather of \(meta.refreshed) of \(meta.count) cities)"
    out += "provider  \(meta.provider.visible)\(part)\n"
    out += "cities    \(meta.count)\n"
    out += meta.synced.map { "synced    \(Clock.format($0)) (\(Ages.ago($0, now)))\n" } ?? "synced    never\n"
    if meta.listProvider != meta.provider || meta.listSyncedAt != meta.syncedAt {
      out +=
        meta.listSynced.map { "list      from \(meta.listProvider.visible), \(Clock.format($0)) (\(Ages.ago($0, now)))\n" }
        ?? "list      the bundled sample's (never synced)\n"
    }
    let sources = Self.bySource(meta).filter { $0.1 > 0 }
    if !sources.isEmpty {
      out += "weather   " + sources.map { "\($0.1) from \(Ages.name($0.0))" }.joined(separator: " · ") + "\n"
    }
    if let oldest = meta.oldestObservation, let newest = meta.newestObservation {
      out += "observed  \(Clock.format(oldest)) (\(Ages.ago(oldest, now)))"
      out += newest == oldest ? "\n" : " to \(Clock.format(newest)) (\(Ages.ago(newest, now)))\n"
    }
    if let airUpdated { out += "air       \(Clock.format(airUpdated)) (\(Ages.ago(airUpdated, now)))\n" }
    if let attribution { out += "data      \(attribution)\n" }
    if let line = atlas.line { out += "places    \(line)\n" }
    out += "unit      \(unit.rawValue)\n"
    out += "wind      \(unit.wind.rawValue)\n"
    out += "files"
    var lines = out.split(separator: "\n", omittingEmptySubsequences: false).flatMap {
      Self.fit(String($0), indent: 10, width: term.width)
    }
    for f in files {
      let s = f.size.map { Self.bytes($0) } ?? "absent"
      let head = "  \(DisplayWidth.pad(f.name, to: 12)) \(DisplayWidth.pad(s, to: 9, right: true))"
      let line = head + "  " + f.path.visible
      // A path that does not fit goes under its name, whole, broken where it must be.
      let fits = term.width.map { DisplayWidth.of(line) <= $0 } ?? true
      lines += fits ? [line] : [head] + Self.fit("    " + f.path.visible, indent: 4, width: term.width)
    }
    return lines.joined(separator: "\n")
  }

  /// `line` within `width`, its rest broken onto lines starting at column `indent`: between
  /// words, else anywhere (a path, a URL). Never cut: the runner would end it with "…", and
  /// a path to copy or the atlas's licence credit was lost at 40 columns.
  static func fit(_ line: String, indent: Int, width: Int?) -> [String] {
    guard let width, width > indent + 8, DisplayWidth.of(line) > width else { return [line] }
    let pad = String(repeating: " ", count: indent)
    var out: [String] = []
    var rest = Substring(line)
    var first = true
    while !rest.isEmpty {
      let room = first ? width : width - indent
      if DisplayWidth.of(String(rest)) <= room {
        out.append((first ? "" : pad) + rest)
        break
      }
      // The longest start that fits, back to its last space past the value's column.
      var end = rest.startIndex
      var used = 0
      while end < rest.endIndex {
        let w = DisplayWidth.of(String(rest[end]))
        if used + w > room { break }
        used += w
        end = rest.index(after: end)
      }
      if end == rest.startIndex { end = rest.index(after: end) }
      var cut = end
      if let space = rest[..<end].lastIndex(of: " "), rest.distance(from: rest.startIndex, to: space) > (first ? indent : 0) {
        cut = space
      }
      out.append((first ? "" : pad) + rest[..<cut])
      rest = rest[cut...].drop { $0 == " " }
      first = false
    }
    return out
  }

  /// The store files and their sizes; for the atlas, the one commands read (`atlas`, from
  /// ``Home/currentAtlas(shared:)``: the shared one when the state folder has none, which is
  /// not "absent"), else the state folder's, where the first command that needs one builds it.
  static func files(_ home: Home, atlas: String?) -> [(name: String, path: String, size: Int64?)] {
    home.storePaths.map { name, path in
      let used = name == "atlas" ? atlas ?? path : path
      return (name, used, FileSystem.size(used))
    }
  }

  /// Cities by source, from the header (a header written before it counted them: every
  /// city the provider's, or the sample's).
  static func bySource(_ meta: CatalogueMeta) -> [(WeatherSource, Int)] {
    if let counts = meta.bySource {
      return zip(WeatherSource.allCases, counts + [Int](repeating: 0, count: max(0, WeatherSource.allCases.count - counts.count)))
        .map { ($0, $1) }
    }
    let source = meta.isSample ? WeatherSource.sample : WeatherSource(provider: meta.provider) ?? .freetestapi
    return WeatherSource.allCases.map { ($0, $0 == source ? meta.count : 0) }
  }

  static func bytes(_ n: Int64) -> String {
    if n < 1024 { return "\(n) B" }
    if n < 1_048_576 { return "\(Number.oneDecimal(Double(n) / 1024)) KiB" }
    return "\(Number.oneDecimal(Double(n) / 1_048_576)) MiB"
  }
}

/// The world atlas in `wx status`: how many places, and the credit GeoNames' licence asks for.
struct AtlasStatus {
  var meta: AtlasMeta?
  /// Whether its data is installed (and the atlas not turned off), so it is built on first use.
  var installed: Bool
  /// Whether the state folder's atlas cannot be read (`wx doctor --repair` rebuilds it).
  var damaged = false
  static let credit = "GeoNames (geonames.org, CC BY 4.0)"

  /// The atlas commands read as things stand (not built here), and its path: none under
  /// `WX_ATLAS=off` (a bad `WX_ATLAS` is refused), the shared one when the state folder's is
  /// damaged (said so), else none when nothing is built yet.
  static func of(_ home: Home) throws -> (AtlasStatus, path: String?) {
    let reads = try Context.readsAtlas(home)
    var atlas: Atlas? = nil
    var damaged = false
    if reads {
      do { atlas = try home.currentAtlas(shared: Context.sharesAtlas) { _ in damaged = true } } catch { damaged = true }
    }
    atlas?.close()
    return (AtlasStatus(meta: atlas?.meta, installed: reads && home.atlasDataPath != nil, damaged: damaged), atlas?.path)
  }

  var line: String? {
    let mend = "`wx doctor --repair` rebuilds it"
    if let meta, damaged {
      return
        "\(PlaceText.people(meta.count)) from the shared world atlas (the state folder's is damaged: \(mend)): \(Self.credit)"
    }
    if let meta { return "\(PlaceText.people(meta.count)) from the world atlas: \(Self.credit)" }
    if damaged { return "the state folder's world atlas is damaged (\(mend)): \(Self.credit)" }
    return installed ? "the world atlas is built on first use: \(Self.credit)" : nil
  }

  var json: JSON {
    guard meta != nil || installed || damaged else { return .null }
    return .object([
      ("places", meta.map { .int($0.count) } ?? .null), ("built_at", meta.map { .string(Clock.iso8601($0.builtAt)) } ?? .null),
      ("damaged", .bool(damaged)), ("attribution", .string(Self.credit)),
    ])
  }
}
