import WXCore

/// Air-quality failures that are about the feed or the request, not the store (their exit
/// statuses are in ``ExitStatus``).
enum AQIError: Error {
  /// The first connection of `--once` / `--count` failed: exit 69.
  case unreachable(url: String, reason: String)
  /// `wx aqi show CITY` with no readings for CITY (on the scale asked for): exit 66.
  /// `looked`: the place the name was read as, when the place book read it as one.
  case noReadings(String, scale: AQIScale? = nil, closest: [String] = [], looked: String? = nil)
  /// The feed client `wx-aqi-watch` is not installed: exit 78.
  case clientMissing
  /// The feed client could not start or stopped by itself: exit 69.
  case clientFailed(String)

  var message: String {
    switch self {
    case .unreachable(let url, let reason): return "cannot reach the air-quality feed \(url): \(reason)"
    case .clientMissing:
      return "the feed client wx-aqi-watch is not installed (looked in ../libexec/wx and beside wx); reinstall wx"
    case .clientFailed(let why): return "the feed client failed: \(why)"
    case .noReadings(let city, nil, let closest, let looked) where !closest.isEmpty:
      // A typo of a recorded name says which (`berln`), as `wx show` does; a name read as a
      // place without readings says which place, and the namesakes that have some.
      let place = looked.map { " (\($0.visible))" } ?? ""
      return
        "no air-quality readings for \(city.quoted())\(place); closest recorded: "
        + closest.prefix(5).map(\.visible).joined(separator: "; ")
    case .noReadings(let city, nil, _, _):
      // Echoed back cut to 60 characters, like every city argument.
      return "no air-quality readings for \(city.quoted()); `wx aqi list` shows the cities recorded"
    case .noReadings(let city, let scale?, _, _):
      return
        "no \(scale.name) readings for \(city.quoted()); without --scale, `wx aqi show` charts the scale of its latest reading"
    }
  }
}
