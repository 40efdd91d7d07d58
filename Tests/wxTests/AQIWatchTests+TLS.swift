import Foundation
import Testing
import WXTestSupport

/// `wss://` feeds: TLS by the system's OpenSSL, against the loopback server speaking TLS with
/// a certificate made for the test, trusted through `SSL_CERT_FILE`.
extension AQIWatchTests {
  @Test func wssFeedsAreReadOverTLSByNameAndByAddress() throws {
    let home = TempHome()
    let cert = try selfSignedCertificate(in: home.path, names: "DNS:localhost,IP:127.0.0.1")
    // 1,500 readings in one message: about 50 KB, several TLS records in several reads.
    let many = (1...1500).map { (String(format: "C%04d", $0), Double($0) / 4) }
    let server = try WSServer(
      [
        aqiFrame(many) + "\nping hello\nfragments 3 " + aqiFrame([("Agra", 88.5)]).dropFirst(5) + "\n"
          + aqiFrame([("Delhi", 301)]) + "\nhold",
        aqiFrame([("Pune", 12)]) + "\nhold",
      ], tls: cert)
    let trusted = ["SSL_CERT_FILE": cert.cert, "WX_AQI_BACKOFF_MS": "20"]
    let r = try home.run(["aqi", "watch", "wss://localhost:\(server.port)/aqi", "--count", "3"], env: trusted)
    #expect(r.status == 0, "\(r)")
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count == 1502, "\(lines.count) lines")
    #expect(lines.first?.hasSuffix("Z C0001 0.25 Good") == true && lines.last?.hasSuffix("Z Delhi 301.00 Very Poor") == true)
    #expect(lines.contains { $0.hasSuffix("Z Agra 88.50 Satisfactory") })
    // The ping was answered and the client said goodbye, both through TLS.
    #expect(server.log.contains("pong 1 hello") && server.log.contains("close 1 1001"), "\(server.log)")
    let byAddress = try home.run(["aqi", "watch", "wss://127.0.0.1:\(server.port)/aqi", "--once"], env: trusted)
    #expect(byAddress.status == 0 && byAddress.stdout.hasSuffix("Z Pune 12.00 Good\n"), "\(byAddress)")
    // The host's name went in the first ClientHello (SNI); the address, none.
    #expect(server.log.filter { $0.hasPrefix("sni") } == ["sni localhost", "sni -"], "\(server.log)")
    // A server of TLS 1.2 at most is as good.
    let older = try WSServer([aqiFrame([("Agra", 90)])], tls: cert, tls12: true)
    let r12 = try home.run(["aqi", "watch", "wss://localhost:\(older.port)/aqi", "--once"], env: trusted)
    #expect(r12.status == 0 && r12.stdout.hasSuffix("Z Agra 90.00 Satisfactory\n"), "\(r12)")
    #expect(try home.wx("aqi", "show", "C1500", "--json").json()["readings"] as? [[String: Any]] != nil)
  }

  @Test func wssRefusesACertificateItCannotTrustOrThatNamesAnotherHost() throws {
    let home = TempHome()
    let ours = try selfSignedCertificate(in: home.path, names: "DNS:localhost,IP:127.0.0.1")
    let other = try selfSignedCertificate(in: home.path, names: "DNS:other.invalid")
    let server = try WSServer([aqiFrame([("Delhi", 301)])], tls: ours)
    let url = "wss://localhost:\(server.port)/aqi"
    let failures = [
      // The system's trust store, and a store holding another certificate.
      (try home.run(["aqi", "watch", url, "--once"]), "could not be verified (self-signed certificate)"),
      (try home.run(["aqi", "watch", url, "--once"], env: ["SSL_CERT_FILE": other.cert]), "could not be verified ("),
    ]
    for (r, why) in failures {
      #expect(r.status == 69 && r.stdout.isEmpty, "\(r)")
      #expect(
        r.stderr.contains("wx: cannot reach the air-quality feed \(url): TLS failed: the server's certificate \(why)"), "\(r)")
      #expect(r.stderr.split(separator: "\n").count == 1, "\(r)")
    }
    let elsewhere = try WSServer([aqiFrame([("Delhi", 301)])], tls: other)
    for host in ["localhost", "127.0.0.1"] {
      let r = try home.run(
        ["aqi", "watch", "wss://\(host):\(elsewhere.port)/aqi", "--once"], env: ["SSL_CERT_FILE": other.cert])
      #expect(r.status == 69 && r.stderr.contains("TLS failed: the server's certificate is not for this host"), "\(r)")
    }
    // No handshake finished, so neither server counted a connection.
    #expect(!server.log.contains { $0.hasPrefix("connect") } && !elsewhere.log.contains { $0.hasPrefix("connect") })
    #expect(!FileManager.default.fileExists(atPath: home.path + "/aqi.gdbm"))
  }

  @Test func wssToAServerWithoutTLSSaysSo() throws {
    let home = TempHome()
    let plain = try FakeAPI()  // HTTP: it answers the ClientHello with a plain-text error
    let r = try home.run(["aqi", "watch", "wss://127.0.0.1:\(plain.port)/aqi", "--once"])
    #expect(r.status == 69 && r.stderr.contains("TLS failed: the server does not speak TLS"), "\(r)")
  }
}
