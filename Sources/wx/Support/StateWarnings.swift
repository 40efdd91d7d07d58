import WXCore

/// Warnings about the state folder that must not stop a read command: each is said once per
/// run (a damaged preferences file is met by both the unit and the last-city code).
enum StateWarnings {
  nonisolated(unsafe) private static var said: Set<String> = []

  /// While `wx browse` owns the screen, warnings are kept here (and shown on its status
  /// line) instead of being written over the screen.
  nonisolated(unsafe) static var captured: [String]?

  static let usingDefaults = "using the default settings (°C, no last city)"

  /// `wx: warning: <what is wrong>; <consequence>` on stderr, once per file (or message).
  static func warn(_ error: any Error, _ consequence: String) {
    let key = (error as? StoreError)?.path ?? "\(error)"
    guard said.insert(key).inserted else { return }
    let message = "warning: \(ExitStatus.of(error).1); \(consequence)"
    if captured != nil { captured?.append(message) } else { Terminal.err("wx: " + message) }
  }
}

extension Context {
  /// The saved preferences for a read command: damaged or unreadable ones are warned about
  /// once and replaced by the defaults (°C, no last city). `wx unit` and writers use
  /// `home.preferences` directly and fail with 74 instead.
  func savedPreferences() -> Preferences {
    do {
      return try home.preferences.load()
    } catch {
      StateWarnings.warn(error, StateWarnings.usingDefaults)
      return Preferences()
    }
  }
}
