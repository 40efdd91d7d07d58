import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import WXFeed

/// A complete message from the server: a text message's UTF-8 bytes (fragments joined),
/// or the size of a binary one.
package enum WebSocketMessage: Equatable, Sendable {
  case text([UInt8])
  case binary(Int)
}

/// How a connection ended.
package enum WebSocketEnd: Equatable, Sendable, CustomStringConvertible {
  /// The server sent a close frame (code, reason); it was answered.
  case closed(code: Int?, reason: String)
  /// The connection ended without a close frame.
  case dropped

  package var description: String {
    switch self {
    case .closed(let code, let reason):
      var s = "closed by the server"
      if let code { s += ", code \(code)" }
      if !reason.isEmpty { s += ": " + reason }
      return s
    case .dropped:
      return "the connection dropped"
    }
  }
}

/// Why a connection could not be opened.
package enum WebSocketError: Error, Equatable, Sendable, CustomStringConvertible {
  /// TCP (or DNS) failed: refused, unreachable, unknown host…
  case unreachable(String)
  /// TCP or TLS connected but the handshake did not finish in time.
  case timedOut(Double)
  /// The server answered the HTTP request without switching to WebSocket.
  case notUpgraded
  /// TLS failed (certificate, protocol).
  case tls(String)
  /// The connection failed some other way.
  case failed(String)

  package var description: String {
    switch self {
    case .unreachable(let why): return why
    case .timedOut(let s): return "no WebSocket handshake within \(Self.seconds(s))"
    case .notUpgraded: return "the server did not accept the WebSocket upgrade"
    case .tls(let why): return "TLS failed: \(why)"
    case .failed(let why): return why
    }
  }

  static func seconds(_ s: Double) -> String {
    s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
  }

  /// A one-line description of whatever NIO threw.
  package static func describe(_ error: any Error, url: WebSocketURL) -> String {
    switch error {
    case let e as WebSocketError:
      return e.description
    case let e as NIOConnectionError:
      if e.dnsAError != nil || e.dnsAAAAError != nil {
        return "cannot resolve \(url.host)"
      }
      if let first = e.connectionErrors.first {
        return "cannot connect to \(url.hostHeader): " + describe(first.error, url: url)
      }
      return "cannot connect to \(url.hostHeader)"
    case let e as IOError:
      return String(cString: strerror(e.errnoCode)).lowercased()
    case let e as ChannelError:
      switch e {
      case .connectTimeout: return "timed out connecting to \(url.hostHeader)"
      case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed: return "the connection dropped"
      default: return "the connection failed"
      }
    case let e as TLSFailure:
      return "TLS failed: \(e)"
    case is NIOWebSocketFrameAggregator.Error:
      return "a WebSocket message too large or wrongly fragmented"
    case is NIOWebSocketError:
      return "a malformed WebSocket frame"
    case let e as NIOHTTPClientUpgradeError:
      // NIO's names (`upgraderDeniedUpgrade`…) are not words for people.
      switch e {
      case .upgraderDeniedUpgrade: return "the server's WebSocket handshake is wrong (its Sec-WebSocket-Accept does not match)"
      default: return "the server did not accept the WebSocket upgrade"
      }
    default:
      // Whatever else NIO throws is not printed as it is (its type names are not words).
      return "the connection failed"
    }
  }
}

/// A WebSocket client (RFC 6455) for `ws://` and `wss://` feeds, on SwiftNIO.
///
/// `connect()` opens TCP (and TLS for `wss://`, verified against the system's trust roots),
/// sends the HTTP/1.1 upgrade and checks `Sec-WebSocket-Accept`. The connection then
/// delivers complete messages (fragmented ones are reassembled), answers pings with pongs,
/// and answers a close frame with a close frame.
package struct WebSocketClient: Sendable {
  package let url: WebSocketURL
  /// Seconds allowed for TCP connect plus TLS and the upgrade handshake.
  package let timeout: Double
  /// Largest single frame and largest reassembled message accepted.
  package let maxFrameBytes: Int
  package let maxMessageBytes: Int
  let tls: TLSContext?
  let group: any EventLoopGroup

  package init(url: WebSocketURL, timeout: Double = 30, maxFrameBytes: Int = 1 << 20, maxMessageBytes: Int = 4 << 20)
    throws
  {
    self.url = url
    self.timeout = max(0.001, timeout)
    self.maxFrameBytes = maxFrameBytes
    self.maxMessageBytes = maxMessageBytes
    if url.secure {
      do {
        tls = try TLSContext()
      } catch {
        throw WebSocketError.tls("\(error)")
      }
    } else {
      tls = nil
    }
    group = MultiThreadedEventLoopGroup.singleton
  }

  enum Upgrade: Sendable {
    case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
    case notUpgraded
  }

  /// Opens a connection and completes the WebSocket handshake.
  package func connect() async throws -> WebSocketConnection {
    let url = self.url
    let tls = self.tls
    let timeout = TimeAmount.nanoseconds(Int64(min(timeout, 3600) * 1e9))
    let maxFrame = maxFrameBytes
    let maxMessage = maxMessageBytes
    let isAddress = Self.isAddress(url.host)
    let upgrade: EventLoopFuture<Upgrade>
    let started = NIODeadline.now()
    do {
      upgrade = try await ClientBootstrap(group: group)
        .connectTimeout(timeout)
        .connect(host: url.host, port: url.port) { channel in
          channel.eventLoop.makeCompletedFuture {
            if let tls {
              try channel.pipeline.syncOperations.addHandler(
                TLSClientHandler(context: tls, host: url.host, isAddress: isAddress))
            }
            let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
              maxFrameSize: maxFrame,
              upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                  try channel.pipeline.syncOperations.addHandler(UnmaskedFramesOnly())
                  try channel.pipeline.syncOperations.addHandler(
                    NIOWebSocketFrameAggregator(
                      minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 4096,
                      maxAccumulatedFrameSize: maxMessage))
                  return Upgrade.websocket(
                    try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
                }
              })
            var headers = HTTPHeaders()
            headers.add(name: "Host", value: url.hostHeader)
            headers.add(name: "User-Agent", value: "wx/1.0")
            headers.add(name: "Content-Length", value: "0")
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: url.target, headers: headers)
            let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
              upgradeRequestHead: head, upgraders: [upgrader],
              notUpgradingCompletionHandler: { channel in
                channel.close(promise: nil)
                return channel.eventLoop.makeCompletedFuture { Upgrade.notUpgraded }
              })
            // Frames the server sends right behind its 101 response arrive in the same read
            // as the response: the HTTP decoder must hand those bytes on, not drop them.
            var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
            pipeline.leftOverBytesStrategy = .forwardBytes
            let result = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
              configuration: pipeline)
            // The whole handshake (TLS included) gets the same deadline as the TCP connect.
            let deadline = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
            result.whenComplete { outcome in
              deadline.cancel()
              if case .failure = outcome { channel.close(promise: nil) }  // no socket left behind
            }
            return result
          }
        }
    } catch {
      throw WebSocketError.unreachable(WebSocketError.describe(error, url: url))
    }
    do {
      switch try await upgrade.get() {
      case .websocket(let channel):
        return WebSocketConnection(channel: channel)
      case .notUpgraded:
        throw WebSocketError.notUpgraded
      }
    } catch let e as WebSocketError {
      throw e
    } catch {
      // The deadline closed the channel (it was set once the channel existed, after `started`).
      if NIODeadline.now() - started >= timeout { throw WebSocketError.timedOut(self.timeout) }
      if let failure = error as? TLSFailure { throw WebSocketError.tls(failure.description) }
      if case ChannelError.inappropriateOperationForState = error {
        throw WebSocketError.failed("the connection closed during the WebSocket handshake")
      }
      throw WebSocketError.failed(WebSocketError.describe(error, url: url))
    }
  }

  static func isAddress(_ host: String) -> Bool {
    if host.contains(":") { return true }
    var addr = in_addr()
    return inet_pton(AF_INET, host, &addr) == 1
  }
}

/// An open WebSocket connection.
package struct WebSocketConnection: Sendable {
  let channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>

  /// Calls `onMessage` for each complete message until the connection ends; answers pings
  /// and close frames. Returns how it ended; throws on network or protocol errors. When the
  /// calling task is cancelled it sends a close frame (1001, going away) and returns
  /// ``WebSocketEnd/dropped``. The connection is closed when this returns, whichever way.
  package func run(_ onMessage: (WebSocketMessage) async throws -> Void) async throws -> WebSocketEnd {
    try await channel.executeThenClose { inbound, outbound in
      do {
        for try await frame in inbound {
          switch frame.opcode {
          case .text:
            let data = frame.unmaskedData
            try await onMessage(.text(Array(data.readableBytesView)))
          case .binary:
            try await onMessage(.binary(frame.length))
          case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            try await outbound.write(pong)
          case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readInteger(as: UInt16.self)
            let reason = data.readString(length: data.readableBytes) ?? ""
            var reply = ByteBuffer()
            if let code { reply.writeInteger(code) }
            try? await outbound.write(Self.close(reply))
            return WebSocketEnd.closed(code: code.map(Int.init), reason: reason)
          default:
            break  // pongs and reserved opcodes
          }
        }
      } catch {
        if !Task.isCancelled { throw error }
      }
      if Task.isCancelled {
        // The async writer refuses a cancelled task; the channel itself still takes the frame.
        var goingAway = ByteBuffer()
        goingAway.writeInteger(UInt16(1001))
        try? await channel.channel.writeAndFlush(Self.close(goingAway)).get()
      }
      return WebSocketEnd.dropped
    }
  }

  static func close(_ payload: ByteBuffer) -> WebSocketFrame {
    WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload)
  }
}

/// RFC 6455 5.1: a server must not mask its frames, and a client that receives a masked one
/// closes the connection (1002, protocol error). Sits before the aggregator, which would
/// unmask fragments as it joins them.
final class UnmaskedFramesOnly: ChannelInboundHandler {
  typealias InboundIn = WebSocketFrame
  typealias InboundOut = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard unwrapInboundIn(data).maskKey != nil else {
      context.fireChannelRead(data)
      return
    }
    var code = context.channel.allocator.buffer(capacity: 2)
    code.writeInteger(UInt16(1002))
    let close = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: code)
    context.fireErrorCaught(WebSocketError.failed("the server sent a masked frame, which servers must not"))
    let channel = context.channel  // Sendable, unlike the context
    context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in channel.close(promise: nil) }
  }
}
