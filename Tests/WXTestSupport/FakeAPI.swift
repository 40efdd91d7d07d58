import Foundation

/// The project's loopback stand-in for freetestapi and AccuWeather (Tests/Support/fakeapi.py;
/// its modes: Tests/Support/README.md).
package final class FakeAPI: LoopbackServer, @unchecked Sendable {
  package init(data: String = sampleFile, mode: String = "paged", extra: [String] = []) throws {
    try super.init(script: "fakeapi.py", ["--data", data, "--mode", mode, "--port", "0", "--exit-with-parent"] + extra)
  }

  package var url: String { base + "/api/v1/weathers" }

  /// GET a control path (`/__mode?set=…`, `/__hits`): its answer, trimmed.
  @discardableResult
  package func control(_ path: String) throws -> String {
    try get(path).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
