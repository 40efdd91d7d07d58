import Foundation

/// The repository root (this file is Tests/WXTestSupport/Paths.swift).
package let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().path

/// The bundled sample, what a fresh home's catalogue is seeded from.
package let sampleFile = repositoryRoot + "/Data/sample-weathers.json"

/// The world atlas's source data as shipped.
package let atlasFile = repositoryRoot + "/Data/atlas.bin"

/// `../shared/fixtures/freetestapi-weathers.json`, a real 51-record response, when present
/// (a test that needs it says so: `@Test(.enabled(if: sharedFixture != nil, …))`).
package let sharedFixture: String? = {
  let p = repositoryRoot + "/../shared/fixtures/freetestapi-weathers.json"
  return FileManager.default.fileExists(atPath: p) ? p : nil
}()

/// A file of Tests/Support: the Python stand-ins (fakeapi.py, openmeteo.py, wsserver.py), the
/// pseudo-terminal driver of `wx browse` (browse_driver.py) and stored fixtures.
package func supportFile(_ name: String) -> String { repositoryRoot + "/Tests/Support/" + name }
