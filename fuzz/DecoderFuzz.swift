// libFuzzer target: the freetestapi payload decoder and the JSON parser under it.
//
// Built by fuzz/build.sh together with all of Sources/WXCore (one module, so `package`
// declarations are visible without an import). Any input may be rejected with an error;
// nothing may trap. Beyond "does not crash", it checks properties that must hold for every
// input the parser or decoder accepts:
//
// - JSON: writing a parsed document back out (JSONWriter's quoting and number format) and
//   parsing that again gives the same document.
// - Decoder: every city satisfies the documented field ranges, and its catalogue encoding
//   (City.encoded / City(decoding:)) reads back as the same city.
// - Streaming decoder (FreeTestAPIStream): the same cities or the same message as the
//   whole-body decoder, fed in chunks of 1 to 64 bytes.
// - Open-Meteo stream reader (OpenMeteoStream, for 1 to 3 locations): the same locations or
//   the same message whole and in chunks of 1 to 64 bytes; what it accepts, the strict parser
//   accepts (for UTF-8 input: skipped text is not checked for it); every location that
//   decodes gives a city whose catalogue encoding reads back as the same city.
//
// A broken property is reported with `fatalError`, which libFuzzer records as a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let body = Array(UnsafeBufferPointer(start: data, count: size))
  checkJSONRoundTrip(body)
  let whole: Result<[City], PayloadError>
  do {
    let cities = try FreeTestAPIDecoder.decode(body)
    for city in cities { checkCity(city) }
    whole = .success(cities)
  } catch {
    // Rejection is fine; the message must still render.
    _ = error.description
    whole = .failure(error)
  }
  checkStreamed(body, whole)
  checkOpenMeteo(body)
  return 0
}

private func checkOpenMeteo(_ body: [UInt8]) {
  let count = 1 + Int(body.last ?? 0) % 3
  func read(_ chunk: Int) -> Result<[JSON], PayloadError> {
    Result { () throws(PayloadError) in try OpenMeteoDecoder.locations(body, count: count, chunk: chunk) }
  }
  let whole = read(max(1, body.count))
  let chunk = 1 + Int(body.first ?? 0) % 64
  let cut = read(chunk)
  guard cut == whole else { fatalError("Open-Meteo: \(cut) in \(chunk)-byte chunks but \(whole) whole") }
  guard case .success(let items) = whole else { return }
  if String(validating: body, as: UTF8.self) != nil && (try? JSON.parse(body)) == nil {
    fatalError("the Open-Meteo stream accepted what the parser refuses")
  }
  let asked = City(
    id: 1, name: "Fuzz", country: "Fuzzland", latitude: 0, longitude: 0, temperatureC: nil, description: "",
    humidity: nil, windKmh: nil, forecast: [])
  for item in items {
    if let city = try? OpenMeteoDecoder.city(asked, from: item, days: 16) { checkCity(city) }
  }
}

/// The streaming decoder must give the same cities or the same message, fed in chunks of a
/// size taken from the input (1 to 64 bytes).
private func checkStreamed(_ body: [UInt8], _ whole: Result<[City], PayloadError>) {
  let chunk = 1 + Int(body.first ?? 0) % 64
  var stream = FreeTestAPIStream()
  var cities: [City] = []
  let streamed: Result<[City], PayloadError>
  do {
    var k = 0
    while k < body.count {
      try Array(body[k..<min(body.count, k + chunk)]).withUnsafeBytes { try stream.feed($0) { cities.append($0) } }
      k += chunk
    }
    try stream.finish { cities.append($0) }
    streamed = .success(cities)
  } catch let error as PayloadError {
    streamed = .failure(error)
  } catch {
    fatalError("the streaming decoder threw \(error)")
  }
  guard streamed == whole else { fatalError("streamed \(streamed) but whole \(whole), chunks of \(chunk)") }
}

private func checkJSONRoundTrip(_ body: [UInt8]) {
  let json: JSON
  do {
    json = try JSON.parse(body)
  } catch {
    guard error.offset >= 0 && error.offset <= body.count else {
      fatalError("JSON error offset \(error.offset) outside 0...\(body.count): \(error)")
    }
    return
  }
  let text = json.text
  let again: JSON
  do {
    again = try JSON.parse(Array(text.utf8))
  } catch {
    fatalError("JSON written back does not parse (\(error)): \(text)")
  }
  guard sameIgnoringIntegerFlag(json, again) else {
    fatalError("JSON changed on a write/parse round trip: \(text)")
  }
}

/// Equality, except that `1.0` written back as `1` may come back flagged as an integer.
private func sameIgnoringIntegerFlag(_ a: JSON, _ b: JSON) -> Bool {
  switch (a, b) {
  case (.null, .null): return true
  case (.bool(let x), .bool(let y)): return x == y
  case (.number(let x, _), .number(let y, _)): return x == y
  case (.string(let x), .string(let y)): return x == y
  case (.array(let x), .array(let y)):
    return x.count == y.count && zip(x, y).allSatisfy { sameIgnoringIntegerFlag($0, $1) }
  case (.object(let x), .object(let y)):
    return x.count == y.count
      && zip(x, y).allSatisfy { $0.key == $1.key && sameIgnoringIntegerFlag($0.value, $1.value) }
  default: return false
  }
}

private func checkCity(_ c: City) {
  func require(_ ok: Bool, _ what: String) {
    if !ok { fatalError("decoded city id \(c.id) breaks: \(what)") }
  }
  require(!c.name.isEmpty && !Fold.key(c.name).isEmpty, "name has letters")
  require(!c.country.isEmpty, "country not empty")
  require((-90...90).contains(c.latitude), "latitude range")
  require((-180...180).contains(c.longitude), "longitude range")
  require(c.temperatureC.map { (-100...70).contains($0) } ?? true, "temperature range")
  require(c.humidity.map { (0...100).contains($0) } ?? true, "humidity range")
  require(c.windKmh.map { (0...500).contains($0) } ?? true, "wind range")
  for (a, b) in zip(c.forecast, c.forecast.dropFirst()) { require(a.date <= b.date, "forecast in date order") }
  var r = ByteReader(c.encoded())
  do {
    let back = try City(decoding: &r)
    require(r.isAtEnd, "encoding read back to its end")
    require(back == c, "encoding reads back as the same city")
  } catch {
    require(false, "encoding reads back (\(c.forecast.count) forecast days)")
  }
}
