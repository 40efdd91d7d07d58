import Foundation
import Testing

/// The loopback Open-Meteo stand-in (Tests/Support/openmeteo.py): forecast and air-quality
/// batches, nulls, errors, 429; it counts requests and what it sent.
package final class OpenMeteoAPI: LoopbackServer, @unchecked Sendable {
  package init(mode: String = "ok") throws {
    try super.init(script: "openmeteo.py", ["--mode", mode, "--port", "0", "--exit-with-parent"])
  }

  package var forecast: String { base + "/v1/forecast" }
  package var airQuality: String { base + "/v1/air-quality" }

  private func json(_ path: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(get(path).utf8)) }

  /// Requests served, most in flight at once, and locations per request.
  package func stats() throws -> (requests: Int, peak: Int, sizes: [Int]) {
    let s = try #require(try json("/__stats") as? [String: Any])
    return (s["requests"] as? Int ?? -1, s["peak"] as? Int ?? -1, s["sizes"] as? [Int] ?? [])
  }

  /// Requests asked again before the `Retry-After` of their refusal (mode 429).
  package func early() throws -> Int { try #require(try json("/__stats") as? [String: Any])["early"] as? Int ?? -1 }

  /// Every location object sent, with the coordinates asked.
  package func sent() throws -> [[String: Any]] { try #require(try json("/__sent") as? [[String: Any]]) }

  /// The location object sent for the coordinates asked (from `all`, else fetched).
  package func sent(latitude: Double, longitude: Double, in all: [[String: Any]]? = nil) throws -> [String: Any]? {
    let all = try all ?? sent()
    let hit = all.last {
      abs(($0["latitude"] as? Double ?? .nan) - latitude) < 1e-9 && abs(($0["longitude"] as? Double ?? .nan) - longitude) < 1e-9
    }
    return hit?["item"] as? [String: Any]
  }
}
