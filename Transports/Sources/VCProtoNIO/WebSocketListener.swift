import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import VCProto

/// A server socket that accepts WebSocket connections (`ws://`): ``bind(host:port:limits:backlog:group:)``,
/// then the ``WebSocketTransportListener`` a `ServerHost` serves (``accept()``), or
/// ``acceptConnection()`` each ``WebSocketConnection`` yourself; or, for full control of each upgrade,
/// ``bind(host:port:limits:group:makeDelegate:)`` with a ``WebSocketUpgradeDelegate``.
///
/// Each accepted connection decodes frames up to ``WebSocketLimits/maxFrameBytes`` and has the
/// limits' write-buffer watermarks. A request that is not a WebSocket upgrade gets a plain HTTP
/// answer and is closed.
public final class WebSocketListener: WebSocketTransportListener {
  /// The listening channel.
  public let channel: Channel
  private let accepted: AsyncStream<WebSocketConnection>?

  private init(channel: Channel, accepted: AsyncStream<WebSocketConnection>?) {
    self.channel = channel
    self.accepted = accepted
  }

  /// The port it listens on (the one the system chose when bound to port 0).
  public var port: Int { channel.localAddress?.port ?? 0 }

  /// Listens on `host:port` and accepts every WebSocket upgrade; the connections are handed out by
  /// ``accept()`` (or ``acceptConnection()``). At most `backlog` accepted connections wait for ``accept()``; more are closed
  /// at once with 1013 (try again later).
  public static func bind(
    host: String, port: Int, limits: WebSocketLimits = .default, backlog: Int = 64,
    group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
  ) async throws -> WebSocketListener {
    let (stream, continuation) = AsyncStream.makeStream(
      of: WebSocketConnection.self, bufferingPolicy: .bufferingOldest(max(backlog, 1)))
    let channel = try await serverChannel(host: host, port: port, limits: limits, group: group) { _ in
      AcceptingDelegate(limits: limits, continuation: continuation)
    }
    channel.closeFuture.whenComplete { _ in continuation.finish() }
    return WebSocketListener(channel: channel, accepted: stream)
  }

  /// Listens on `host:port` and lets a delegate made for each accepted TCP connection decide its
  /// upgrade. ``accept()`` and ``acceptConnection()`` return `nil` on such a listener.
  public static func bind(
    host: String, port: Int, limits: WebSocketLimits = .default,
    group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
    makeDelegate: @escaping @Sendable (Channel) -> any WebSocketUpgradeDelegate
  ) async throws -> WebSocketListener {
    let channel = try await serverChannel(
      host: host, port: port, limits: limits, group: group, makeDelegate: makeDelegate)
    return WebSocketListener(channel: channel, accepted: nil)
  }

  /// The next accepted connection, or `nil` once the listener is closed (and no accepted
  /// connection waits).
  public func acceptConnection() async -> WebSocketConnection? {
    guard let accepted else { return nil }
    var iterator = accepted.makeAsyncIterator()
    return await iterator.next()
  }

  /// ``acceptConnection()`` as a ``WebSocketTransport``: what a `ServerHost` calls.
  public func accept() async -> (any WebSocketTransport)? {
    await acceptConnection()
  }

  /// Stops listening (open connections stay open); a pending ``accept()`` returns `nil`.
  public func close() async {
    try? await channel.close()
  }

  private static func serverChannel(
    host: String, port: Int, limits: WebSocketLimits, group: EventLoopGroup,
    makeDelegate: @escaping @Sendable (Channel) -> any WebSocketUpgradeDelegate
  ) async throws -> Channel {
    try await ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.backlog, value: 256)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(
        ChannelOptions.writeBufferWaterMark,
        value:
          ChannelOptions.Types.WriteBufferWaterMark(low: limits.writeBufferLowWater, high: limits.writeBufferHighWater)
      )
      .childChannelInitializer { channel in
        let delegate = NIOLoopBound(makeDelegate(channel), eventLoop: channel.eventLoop)
        let upgrader = NIOWebSocketServerUpgrader(
          maxFrameSize: limits.maxFrameBytes, automaticErrorHandling: true,
          shouldUpgrade: { channel, head in delegate.value.shouldUpgrade(channel: channel, request: head) },
          upgradePipelineHandler: { channel, head in delegate.value.upgraded(channel: channel, request: head) })
        let refusal = RefusalHandler(delegate: delegate.value)
        let boundRefusal = NIOLoopBound(refusal, eventLoop: channel.eventLoop)
        return channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (
              upgraders: [upgrader],
              completionHandler: { context in
                context.pipeline.syncOperations.removeHandler(boundRefusal.value, promise: nil)
              }
            ))
          try channel.pipeline.syncOperations.addHandler(refusal)
        }
      }
      .bind(host: host, port: port).get()
  }
}

/// Answers a request that was not upgraded, then closes.
private final class RefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  let delegate: any WebSocketUpgradeDelegate

  init(delegate: any WebSocketUpgradeDelegate) {
    self.delegate = delegate
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .head(let request) = unwrapInboundIn(data) else { return }
    let (status, text) = delegate.refusal(for: request)
    var body = context.channel.allocator.buffer(capacity: text.utf8.count + 1)
    body.writeString(text + "\n")
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
    headers.add(name: "Content-Length", value: String(body.readableBytes))
    headers.add(name: "Connection", value: "close")
    context.write(
      wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
    context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
  }
}

/// Accepts every upgrade and hands the connection to ``WebSocketListener/accept()``.
private final class AcceptingDelegate: WebSocketUpgradeDelegate {
  let limits: WebSocketLimits
  let continuation: AsyncStream<WebSocketConnection>.Continuation

  init(limits: WebSocketLimits, continuation: AsyncStream<WebSocketConnection>.Continuation) {
    self.limits = limits
    self.continuation = continuation
  }

  func shouldUpgrade(channel: Channel, request: HTTPRequestHead) -> EventLoopFuture<HTTPHeaders?> {
    var headers = HTTPHeaders()
    // The first subprotocol offered is accepted.
    if let offered = request.headers.first(name: "Sec-WebSocket-Protocol")?.split(separator: ",").first {
      headers.add(name: "Sec-WebSocket-Protocol", value: offered.trimmingCharacters(in: .whitespaces))
    }
    return channel.eventLoop.makeSucceededFuture(headers)
  }

  func upgraded(channel: Channel, request: HTTPRequestHead) -> EventLoopFuture<Void> {
    let handler = WebSocketMessageHandler(isClient: false, limits: limits)
    let subprotocol = request.headers.first(name: "Sec-WebSocket-Protocol")?.split(separator: ",").first
      .map { $0.trimmingCharacters(in: .whitespaces) }
    return channel.eventLoop.makeCompletedFuture {
      try channel.pipeline.syncOperations.addHandler(handler)
      let connection = WebSocketConnection(
        channel: channel, handler: handler, requestTarget: request.uri, subprotocol: subprotocol)
      if case .dropped(let refused) = continuation.yield(connection) {
        handler.close(code: WebSocketCloseCode(rawValue: 1013), reason: "too many connections waiting")
        _ = refused
      }
    }
  }

  func refusal(for request: HTTPRequestHead) -> (HTTPResponseStatus, String) {
    (.badRequest, "expected a WebSocket upgrade request")
  }
}
