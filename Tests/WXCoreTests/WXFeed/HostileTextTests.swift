import Testing

@testable import WXCore
@testable import WXFeed

/// The storage rule for text from an API (``StoredText``) and what ``Redact`` does to URLs.
@Suite struct HostileTextTests {
  @Test(arguments: [
    ("Paris", "Paris"), ("  São  Paulo ", "São Paulo"), ("\u{1B}]0;title\u{07}Oslo", "]0;title Oslo"),
    ("New\r\nYork", "New York"), ("Nul\u{0}l", "Nul l"), ("Del\u{7F}hi", "Del hi"), ("C1\u{9B}2J", "C1 2J"),
    ("Rome\u{202E}emoR\u{202C}", "RomeemoR"), ("\u{2066}Kyiv\u{2069}", "Kyiv"), ("Zero\u{200B}Width\u{FEFF}", "ZeroWidth"),
    ("Line\u{2028}Break", "Line Break"), ("Non\u{00A0}\u{3000}Break", "Non Break"), ("\u{1B}\u{7}\u{202E}", ""),
    ("Bogotá", "Bogotá"), ("東京", "東京"),
  ])
  func cleansEveryControlAndFormatCharacter(_ raw: String, _ stored: String) throws {
    #expect(try StoredText.clean(raw) == stored)
  }

  @Test func refusesTextLongerThanTheLimit() throws {
    #expect(try StoredText.clean(String(repeating: "é", count: 256)).count == 256)
    #expect(throws: StoredText.TooLong(scalars: 257)) { try StoredText.clean(String(repeating: "é", count: 257)) }
  }

  @Test func theDecoderStoresCleanTextInEveryField() throws {
    let body =
      #"[{"id":1,"city":"\u001b[31mRed\u0007","country":"\u202eLand","latitude":1,"longitude":2,"temperature":3,"weather_description":"Sun\u0085ny","humidity":4,"wind_speed":5,"forecast":[{"date":"2026-11-23\r","temperature":1,"weather_description":"\u2066Fog","humidity":1,"wind_speed":1}]}]"#
    let city = try #require(try FreeTestAPIDecoder.decode(Array(body.utf8)).first)
    #expect([city.name, city.country, city.description] == ["[31mRed", "Land", "Sun ny"])
    #expect(city.forecast.map(\.date) == ["2026-11-23"] && city.forecast.map(\.description) == ["Fog"])
  }

  @Test(arguments: [
    ("https://u:p@h.example/w?apikey=K&page=2", "https://…@h.example/w?apikey=…&page=2"),
    ("http://h/w?api_key=K;Token=T#access_token=A", "http://h/w?api_key=…;Token=…#access_token=…"),
    ("http://h/w?x-amz-signature=S&limit=5", "http://h/w?x-amz-signature=…&limit=5"),
    ("user:pass@host/w", "…@host/w"), ("http://h/\u{1B}[2J", "http://h/\\x1b[2J"),
    ("sample:/usr/share/wx/sample-weathers.json", "sample:/usr/share/wx/sample-weathers.json"),
    ("http://h/w?apikey=K (Paris)", "http://h/w?apikey=… (Paris)"),
    // Names as the server reads them, percent-encoded; the path's own parameters.
    ("http://h/w?my%6Bey=K&page=2", "http://h/w?my%6Bey=…&page=2"), ("http://h/w?%41PIKEY=K", "http://h/w?%41PIKEY=…"),
    ("http://h/app;jsessionid=S?page=2", "http://h/app;jsessionid=…?page=2"),
    ("http://h/a;jsessionid=S/b;v=1;token=T/c", "http://h/a;jsessionid=…/b;v=1;token=…/c"),
    ("http://h/%3Bkey=K", "http://h/%3Bkey=K"),
  ])
  func redactsSecretsAndControls(_ url: String, _ shown: String) {
    #expect(Redact.url(url) == shown)
    #expect(Redact.url(shown) == shown, "idempotent")
  }

  /// What a server echoes is searched for the key as sent and percent-encoded; a key too
  /// short to be one hides nothing.
  @Test func hidesASecretWhereverItAppears() {
    let key = "K3y/+ü"
    #expect(Redact.hiding([key], in: "Invalid apikey value: K3y/+ü.") == "Invalid apikey value: ….")
    #expect(Redact.hiding([key], in: "ftp://h/K3y%2F%2B%C3%BC/x and K3y%2f%2b%c3%bc") == "ftp://h/…/x and …")
    #expect(Redact.hiding(["k"], in: "Makkah") == "Makkah")
    let error = SyncError.notJSON(url: "http://h/?apikey=K3y%2F%2B%C3%BC", contentType: "text/plain; key=K3y/+ü").hiding([key])
    #expect(!error.description.contains("K3y"), "\(error)")
  }

  @Test func cutsLongTextIdempotently() {
    let long = Redact.text(String(repeating: "\u{1B}", count: 100), limit: 20)
    #expect(long == "\\x1b\\x1b\\x1b\\x1b…" && Redact.text(long, limit: 20) == long)
  }

  @Test func anOldCatalogueHeaderNeverShowsItsPassword() throws {
    let meta = CatalogueMeta(
      generation: 1, source: "http://a:s3cret@h/w?token=t", provider: "freetestapi", syncedAt: 0, count: 0, isSample: false)
    var r = ByteReader(meta.encoded())
    #expect(try CatalogueMeta(decoding: &r).source == "http://…@h/w?token=…")
  }
}
