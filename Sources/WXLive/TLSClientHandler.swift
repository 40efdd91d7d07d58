import CTLS
import Glibc
import NIOCore

/// Why TLS failed, in words (no OpenSSL source paths, no library names).
package enum TLSFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// The client could not set TLS up (no trust store, no memory).
  case setup(String)
  /// The handshake failed: a certificate, a protocol, a server that speaks no TLS.
  case handshake(String)
  /// The server closed the connection before the handshake finished.
  case closedDuringHandshake
  /// A record after the handshake could not be read or written.
  case broken

  package var description: String {
    switch self {
    case .setup(let why): return "cannot set up TLS: \(why)"
    case .handshake(let why): return why
    case .closedDuringHandshake: return "the connection closed during the TLS handshake"
    case .broken: return "the TLS connection failed"
    }
  }
}

/// The system's OpenSSL client configuration, made once per client: TLS 1.2 or later, the
/// peer's certificate verified against the system's trust store (OpenSSL's default paths,
/// which `SSL_CERT_FILE` and `SSL_CERT_DIR` override).
package final class TLSContext: @unchecked Sendable {
  // Read-only once made: OpenSSL allows SSL_new from any thread on a configured SSL_CTX.
  let ctx: OpaquePointer

  package init() throws {
    guard let ctx = SSL_CTX_new(TLS_client_method()) else { throw TLSFailure.setup("out of memory") }
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
    wx_tls_refuse_renegotiation(ctx)
    guard wx_tls_require_tls12(ctx) == 1 else {
      SSL_CTX_free(ctx)
      throw TLSFailure.setup("TLS 1.2 is not available")
    }
    guard SSL_CTX_set_default_verify_paths(ctx) == 1 else {
      SSL_CTX_free(ctx)
      throw TLSFailure.setup("the system's trust store cannot be read")
    }
    self.ctx = ctx
  }

  deinit { SSL_CTX_free(ctx) }
}

/// A TLS client on a NIO channel: OpenSSL between two memory BIOs, the socket's bytes in one
/// and out of the other. Writes made before the handshake ends (the HTTP upgrade request)
/// wait for it. The certificate must name `host` (a DNS name, or an IP address literal) in its
/// subjectAltName: no partial wildcards (`f*.example.com`), no fallback to its common name.
/// Not removable: the stream is encrypted for the channel's life.
final class TLSClientHandler: ChannelDuplexHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private enum State { case idle, handshaking, open, closed }
  private var state = State.idle
  private let ssl: OpaquePointer
  private let fromNetwork: OpaquePointer
  private let toNetwork: OpaquePointer
  private var waiting: [(ByteBuffer, EventLoopPromise<Void>?)] = []

  init(context tls: TLSContext, host: String, isAddress: Bool) throws {
    guard let ssl = SSL_new(tls.ctx) else { throw TLSFailure.setup("out of memory") }
    guard let rbio = BIO_new(BIO_s_mem()) else {
      SSL_free(ssl)
      throw TLSFailure.setup("out of memory")
    }
    guard let wbio = BIO_new(BIO_s_mem()) else {
      BIO_free(rbio)
      SSL_free(ssl)
      throw TLSFailure.setup("out of memory")
    }
    _ = wx_tls_bio_retry_when_empty(rbio)
    _ = wx_tls_bio_retry_when_empty(wbio)
    SSL_set_bio(ssl, rbio, wbio)  // the SSL owns both from here
    SSL_set_connect_state(ssl)
    SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS | X509_CHECK_FLAG_NEVER_CHECK_SUBJECT))
    let named =
      isAddress
      ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1
      : wx_tls_set_server_name(ssl, host) == 1 && SSL_set1_host(ssl, host) == 1
    guard named else {
      SSL_free(ssl)
      throw TLSFailure.setup("the host name cannot be checked")
    }
    self.ssl = ssl
    fromNetwork = rbio
    toNetwork = wbio
  }

  deinit { SSL_free(ssl) }

  // MARK: The handshake

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { start(context) }
  }

  /// Passed on at once, as NIOSSL does: the upgrade handler writes its request now, and the
  /// request waits here for the handshake.
  func channelActive(context: ChannelHandlerContext) {
    start(context)
    context.fireChannelActive()
  }

  private func start(_ context: ChannelHandlerContext) {
    guard state == .idle else { return }
    state = .handshaking
    handshake(context)
  }

  private func handshake(_ context: ChannelHandlerContext) {
    ERR_clear_error()
    let rc = SSL_do_handshake(ssl)
    let status = rc == 1 ? SSL_ERROR_NONE : SSL_get_error(ssl, rc)
    let failure = status == SSL_ERROR_NONE || status == SSL_ERROR_WANT_READ ? nil : handshakeFailure()
    send(context, promise: nil)
    context.flush()
    // A failed flush closes the channel at once (channelInactive, re-entered): it stays closed.
    guard state == .handshaking else { return }
    switch status {
    case SSL_ERROR_NONE:
      state = .open
      let writes = waiting
      waiting = []
      for (buffer, promise) in writes {
        guard state == .open else {
          promise?.fail(ChannelError.ioOnClosedChannel)
          continue
        }
        encrypt(context, buffer, promise: promise)
      }
      context.flush()
    case SSL_ERROR_WANT_READ:
      break
    default:
      fail(context, .handshake(failure ?? "the TLS handshake failed"))
    }
  }

  /// What went wrong, from the certificate check first, then the error queue's reason.
  private func handshakeFailure() -> String {
    let verified = Int32(truncatingIfNeeded: SSL_get_verify_result(ssl))
    if verified == X509_V_ERR_HOSTNAME_MISMATCH || verified == X509_V_ERR_IP_ADDRESS_MISMATCH {
      return "the server's certificate is not for this host"
    }
    if verified != X509_V_OK {
      // OpenSSL's own fixed text ("certificate has expired"), not the server's.
      return "the server's certificate could not be verified ("
        + String(cString: X509_verify_cert_error_string(Int(verified))) + ")"
    }
    let last = ERR_peek_last_error()
    guard ERR_GET_LIB(last) == ERR_LIB_SSL else { return "the TLS handshake failed" }
    switch ERR_GET_REASON(last) {
    case SSL_R_WRONG_VERSION_NUMBER, SSL_R_PACKET_LENGTH_TOO_LONG:
      return "the server does not speak TLS"
    case SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_TLSV1_ALERT_PROTOCOL_VERSION:
      return "the server speaks no TLS version from 1.2 on"
    default:
      return "the TLS handshake failed"
    }
  }

  // MARK: Reading

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let buffer = unwrapInboundIn(data)
    guard state == .handshaking || state == .open else { return }
    let taken = buffer.withUnsafeReadableBytes { bytes in
      bytes.isEmpty ? 0 : Int(BIO_write(fromNetwork, bytes.baseAddress, Int32(bytes.count)))
    }
    guard taken == buffer.readableBytes else { return fail(context, .broken) }
    if state == .handshaking { handshake(context) }
    if state == .open { decrypt(context) }
  }

  private func decrypt(_ context: ChannelHandlerContext) {
    while state == .open {
      var plain = context.channel.allocator.buffer(capacity: 16_384)
      var rc: Int32 = 0
      plain.writeWithUnsafeMutableBytes(minimumWritableBytes: 16_384) { space in
        ERR_clear_error()
        rc = SSL_read(ssl, space.baseAddress, Int32(min(space.count, 1 << 20)))
        return rc > 0 ? Int(rc) : 0
      }
      if rc > 0 {
        context.fireChannelRead(wrapInboundOut(plain))
        continue
      }
      let status = SSL_get_error(ssl, rc)
      send(context, promise: nil)  // a key update or session ticket may answer
      switch status {
      case SSL_ERROR_WANT_READ:
        context.flush()
        return
      case SSL_ERROR_ZERO_RETURN:  // the server's close_notify
        state = .closed
        context.close(promise: nil)
      default:
        fail(context, .broken)
      }
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    if state == .handshaking { context.fireErrorCaught(TLSFailure.closedDuringHandshake) }
    state = .closed
    failWaiting(ChannelError.ioOnClosedChannel)
    context.fireChannelInactive()
  }

  // MARK: Writing

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    let buffer = unwrapOutboundIn(data)
    switch state {
    case .idle, .handshaking: waiting.append((buffer, promise))
    case .open: encrypt(context, buffer, promise: promise)
    case .closed: promise?.fail(ChannelError.ioOnClosedChannel)
    }
  }

  func flush(context: ChannelHandlerContext) {
    if state == .open { context.flush() }  // else the handshake flushes what waited
  }

  private func encrypt(_ context: ChannelHandlerContext, _ buffer: ByteBuffer, promise: EventLoopPromise<Void>?) {
    let written = buffer.withUnsafeReadableBytes { bytes -> Bool in
      if bytes.isEmpty { return true }
      ERR_clear_error()
      // A memory BIO grows: SSL_write takes the whole buffer or fails.
      return SSL_write(ssl, bytes.baseAddress, Int32(bytes.count)) == Int32(bytes.count)
    }
    guard written else {
      promise?.fail(TLSFailure.broken)
      return fail(context, .broken)
    }
    send(context, promise: promise)
  }

  /// Writes what OpenSSL has for the network (not flushed); `promise` follows that write.
  private func send(_ context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
    let pending = Int(BIO_ctrl_pending(toNetwork))
    guard pending > 0 else {
      promise?.succeed(())
      return
    }
    var out = context.channel.allocator.buffer(capacity: pending)
    out.writeWithUnsafeMutableBytes(minimumWritableBytes: pending) { space in
      max(0, Int(BIO_read(toNetwork, space.baseAddress, Int32(pending))))
    }
    context.write(wrapOutboundOut(out), promise: promise)
  }

  // MARK: Closing

  /// Says close_notify when the session is open, then closes the socket without waiting for
  /// the server's (a client that is done may, RFC 8446 6.1). A half-close sends none: the
  /// session may still read.
  func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
    if mode == .all && state == .open {
      ERR_clear_error()
      _ = SSL_shutdown(ssl)
      send(context, promise: nil)
      context.flush()
    }
    if mode == .all {
      state = .closed
      failWaiting(ChannelError.ioOnClosedChannel)
    }
    context.close(mode: mode, promise: promise)
  }

  private func fail(_ context: ChannelHandlerContext, _ failure: TLSFailure) {
    guard state != .closed else { return }
    state = .closed
    failWaiting(failure)
    context.fireErrorCaught(failure)
    context.close(promise: nil)
  }

  private func failWaiting(_ error: any Error) {
    let writes = waiting
    waiting = []
    for (_, promise) in writes { promise?.fail(error) }
  }
}
