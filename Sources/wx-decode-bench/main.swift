// wx-decode-bench: decodes Open-Meteo forecast answers saved in files exactly as
// `wx sync --provider open-meteo` decodes them as they arrive (OpenMeteoStream fed chunks of
// 16 KiB, libcurl's largest; each location made a City by OpenMeteoDecoder), for
// scripts/bench-fresh.sh: callgrind counts decoding's instructions a byte on it, whether
// or not valgrind 3.19 manages to run `wx sync` itself (it has stopped in `dispatchMain`'s
// sigsuspend: PERFORMANCE.md). Built by `make bench` only.
//
//     wx-decode-bench LOCATIONS FILE...
//
// Each FILE is one answer for LOCATIONS locations. Prints the bytes read, the locations
// decoded, their hours and a digest of the records made (FNV-1a of City.encoded()): the
// work cannot be optimised away, and two builds' decodings can be compared.
import Glibc
import WXCore

func fail(_ message: String, _ status: Int32) -> Never {
  let line = Array("wx-decode-bench: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(status)
}

let args = CommandLine.arguments
guard args.count >= 3, let count = Int(args[1]), count >= 1 else { fail("usage: wx-decode-bench LOCATIONS FILE...", 64) }
let asked = (0..<count).map {
  City(
    id: $0 + 1, name: "Place \($0 + 1)", country: "Nowhere", latitude: 0, longitude: 0, temperatureC: nil,
    description: "", humidity: nil, windKmh: nil, forecast: [])
}
var (bytes, cities, hours) = (0, 0, 0)
var digest: UInt64 = 0xcbf2_9ce4_8422_2325
let chunk = 16 * 1024
var buffer = [UInt8](repeating: 0, count: chunk)
for path in args.dropFirst(2) {
  guard let file = fopen(path, "rb") else { fail("cannot read \(path)", 66) }
  var stream = OpenMeteoStream(count: count, location: OpenMeteoDecoder.shape) { i, item in
    let city = try OpenMeteoDecoder.city(asked[i], from: item, days: OpenMeteoProvider.days.upperBound)
    cities += 1
    hours += city.hourly.count
    for b in city.encoded() { digest = (digest ^ UInt64(b)) &* 0x100_0000_01b3 }
  }
  do {
    while true {
      let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, chunk, file) }
      if n == 0 { break }
      bytes += n
      try buffer.withUnsafeBytes { try stream.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
    }
    try stream.finish()
  } catch {
    fail("\(path): \((error as? PayloadError)?.reason ?? "\(error)")", 65)
  }
  fclose(file)
}
print("\(bytes) bytes, \(cities) locations, \(hours) hours, digest \(String(digest, radix: 16))")
