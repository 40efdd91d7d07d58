/// What `wx alerts --notify` has already sent (`alerts.gdbm`, a ``SmallStore``: crash-safe
/// like the others), so a timer every 30 minutes never sends one event twice, and an event
/// that changed (rain moved from 15:00 to 17:00) is sent again, once.
///
/// Each entry: the place and the event (``Outlook/Event/key``) → itself, when it was to start
/// and end, and when the entry may be forgotten (a day after the event's end), one a line.
package struct SentAlerts: Sendable {
  package let store: SmallStore
  package let writers: WriterLock.Policy

  package init(path: String, writers: WriterLock.Policy) {
    store = SmallStore(path: path, kind: .sentAlert)
    self.writers = writers
  }

  /// One event of one place, as the store knows it.
  package struct Entry: Equatable, Sendable {
    package var key: String
    /// Start and end, as the event had them when sent: a change sends it again.
    package var fingerprint: String
    /// Seconds since the epoch after which the entry is dropped.
    package var expires: Int64

    package init(place: String, event: Outlook.Event, offset: Int) {
      key = place + "\u{1F}" + event.key
      fingerprint = "\(event.start)-\(event.end.map(String.init) ?? "")"
      expires = ((event.end ?? event.start + 24 * 60) - Int64(offset) / 60) * 60 + 24 * 3600
    }
  }

  /// Under the writer lock: hands each entry not sent as it is to `send`, and records those
  /// `send` says were sent (true); entries past their expiry are dropped. Returns how many
  /// were sent. A `send` that throws stops there: what was sent before it is recorded, then
  /// the error is thrown.
  package func sendNew(_ entries: [Entry], now: Int64, _ send: (Int) throws -> Bool) throws -> Int {
    let (sent, failure) = try store.update(under: writers) { contents -> (Int, (any Error)?) in
      for (key, value) in contents {
        let fields = String(decoding: value, as: UTF8.self).split(separator: "\n")
        if fields.count != 3 || (Int64(fields[2]) ?? 0) < now { contents[key] = nil }
      }
      var sent = 0
      for (i, entry) in entries.enumerated() {
        let key = Array(entry.key.utf8)
        let known = contents[key].flatMap { v in
          let fields = String(decoding: v, as: UTF8.self).split(separator: "\n")
          return fields.count == 3 ? String(fields[1]) : nil
        }
        if known == entry.fingerprint { continue }
        do {
          guard try send(i) else { continue }
        } catch {
          return (sent, error)
        }
        contents[key] = Array("\(entry.key)\n\(entry.fingerprint)\n\(entry.expires)".utf8)
        sent += 1
      }
      return (sent, nil)
    }
    if let failure { throw failure }
    return sent
  }

  /// The key a salvaged payload is filed under (its first line), or nil (repair).
  package static func key(salvaging payload: [UInt8]) -> [UInt8]? {
    let fields = String(decoding: payload, as: UTF8.self).split(separator: "\n")
    return fields.count == 3 && !fields[0].isEmpty ? Array(fields[0].utf8) : nil
  }
}
