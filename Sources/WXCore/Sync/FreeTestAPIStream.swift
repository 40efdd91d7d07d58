/// ``FreeTestAPIDecoder`` as bytes arrive: a freetestapi `/weathers` body goes in chunk by
/// chunk and each record comes out validated as soon as it is complete, so neither the body
/// nor a tree of it is ever held (memory is one record, whatever the body's size).
///
/// Same acceptance and the same messages as ``FreeTestAPIDecoder/decode(_:)``, which parses
/// the whole body before it validates a record: a record that fails validation stops the
/// delivery, but is reported only at ``finish()`` if no JSON syntax error follows it.
package struct FreeTestAPIStream {
  private var json = JSONStream()
  private var position = 0
  private var invalid: PayloadError?
  /// An error of the record consumer: it stops the stream and is rethrown as it is.
  private var consumerError: (any Error)?
  /// Records delivered (each valid).
  package private(set) var delivered = 0
  /// Bytes read so far.
  package var bytes: Int { json.total }

  package init() {}

  /// Reads a chunk; `record` gets each valid record in order. Throws a ``PayloadError`` for
  /// bad data, or what `record` threw.
  package mutating func feed(_ chunk: UnsafeRawBufferPointer, _ record: (City) throws -> Void) throws {
    // The parser is taken out of `self` while it calls back into `self` (exclusive access).
    var parser = JSONStream()
    swap(&parser, &json)
    defer { swap(&parser, &json) }
    do throws(JSONError) {
      try parser.feed(chunk, direct: { bytes in direct(bytes, record) }) { (item, _) throws(JSONError) in
        deliver(item, record)
      }
    } catch {
      throw PayloadError("invalid JSON: \(error)")
    }
    if let consumerError { throw consumerError }
  }

  /// The body ended: throws what is wrong with it as a whole, if anything.
  package mutating func finish(_ record: (City) throws -> Void) throws {
    if json.total == 0 { throw PayloadError("the response body is empty") }
    var parser = JSONStream()
    swap(&parser, &json)
    defer { swap(&parser, &json) }
    do throws(JSONError) {
      try parser.finish { (item, _) throws(JSONError) in deliver(item, record) }
    } catch {
      if error.offset >= parser.total { throw PayloadError("the JSON ends early (\(parser.total) bytes, truncated?)") }
      throw PayloadError("invalid JSON: \(error)")
    }
    if let consumerError { throw consumerError }
    if let other = parser.other { throw PayloadError("expected a JSON array of weather records, found \(other)") }
    if let invalid { throw invalid }
  }

  private mutating func deliver(_ item: JSON, _ record: (City) throws -> Void) {
    position += 1
    guard invalid == nil, consumerError == nil else { return }
    do throws(PayloadError) {
      hand(try FreeTestAPIDecoder.record(item, position: position), record)
    } catch {
      invalid = error
    }
  }

  /// A record of the usual shape, read from its bytes without a tree
  /// (``FreeTestAPIFastRecord``); nil leaves it to the parser and ``deliver(_:_:)``.
  private mutating func direct(_ bytes: UnsafeBufferPointer<UInt8>, _ record: (City) throws -> Void) -> Int? {
    guard let (city, end) = FreeTestAPIFastRecord.read(bytes) else { return nil }
    position += 1
    if invalid == nil, consumerError == nil { hand(city, record) }
    return end
  }

  private mutating func hand(_ city: City, _ record: (City) throws -> Void) {
    do {
      try record(city)
      delivered += 1
    } catch {
      consumerError = error
    }
  }
}
