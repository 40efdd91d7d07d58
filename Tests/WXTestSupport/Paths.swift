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

/// `WX_TEST_SHARE`: a shared data folder `make test` built once with the release binary
/// (`wx __build-atlas`), for both suites: WXCore's reads its atlas store (built in the debug
/// build it took three quarters of the suite's time), the end-to-end suite runs wx on it.
/// nil when unset, or when it holds no atlas store: each suite builds its own.
package let prebuiltShare: String? = {
  guard let folder = ProcessInfo.processInfo.environment["WX_TEST_SHARE"], !folder.isEmpty,
    FileManager.default.fileExists(atPath: folder + "/atlas.gdbm")
  else { return nil }
  return folder
}()

/// The shared data folder as `make install` lays it out (`share/wx`): the bundled sample,
/// atlas.bin and the read-only stores `wx __build-atlas` builds from them once. Every run of
/// the harness reads it (WX_DATA_DIR), so each test takes the path users take, the world
/// atlas on, without building an atlas of its own (seconds in a debug build). Built once per
/// test process, by the binary under test; removed never (a temporary folder).
package let sharedData: String = {
  if let built = prebuiltShare { return built }
  var template = Array((NSTemporaryDirectory() + "wx-share-XXXXXX").utf8CString)
  let folder = String(cString: template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!)
  for name in ["sample-weathers.json", "sample-weathers.crc32", "atlas.bin"] {
    try? FileManager.default.copyItem(atPath: repositoryRoot + "/Data/" + name, toPath: folder + "/" + name)
  }
  let build = try? runProcess(wxBinary, ["__build-atlas", folder], environment: ["PATH": "/usr/bin:/bin"], timeout: 300)
  precondition(build?.status == 0, "wx __build-atlas \(folder) failed: \(build.map(String.init(describing:)) ?? "did not run")")
  return folder
}()
