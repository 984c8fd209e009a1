import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import VCProto

/// Opens client WebSocket connections over plain TCP (`ws://`), with a deadline on the connect and
/// the upgrade together: as a value, the ``WebSocketConnector`` a `ClientHost` opens each connection
/// with (``connect(to:)``, every one with the same headers and limits); or once, with
/// ``connect(to:headers:limits:group:)``.
public struct WebSocketClient: WebSocketConnector {
  /// Headers added to every upgrade request (a `Sec-WebSocket-Protocol` among them offers
  /// subprotocols).
  public var headers: [(String, String)]
  /// The limits of every connection (and the connect deadline).
  public var limits: WebSocketLimits
  /// The event loops the connections run on.
  public var group: any EventLoopGroup

  /// A connector adding `headers` to each upgrade, with `limits`, on `group`.
  public init(
    headers: [(String, String)] = [], limits: WebSocketLimits = .default,
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
  ) {
    self.headers = headers
    self.limits = limits
    self.group = group
  }

  /// Opens a connection to `url` (`ws://` only: ``WebSocketError/invalidURL(_:)`` otherwise), as
  /// ``connect(to:headers:limits:group:)`` does with this connector's headers and limits.
  public func connect(to url: URL) async throws -> any WebSocketTransport {
    guard let target = WebSocketURL(url.absoluteString) else { throw WebSocketError.invalidURL(url.absoluteString) }
    return try await Self.connect(to: target, headers: headers, limits: limits, group: group)
  }

  /// Connects to `url` and upgrades; `headers` are added to the upgrade request (a
  /// `Sec-WebSocket-Protocol` among them offers subprotocols). Throws ``WebSocketError`` (or the
  /// socket's error) when the server cannot be reached, refuses the upgrade, or the deadline
  /// (``WebSocketLimits/connectTimeoutMilliseconds``) passes; throws `CancellationError` when the
  /// task is cancelled first (the socket opened for it is closed).
  public static func connect(
    to url: WebSocketURL, headers: [(String, String)] = [], limits: WebSocketLimits = .default,
    group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
  ) async throws -> WebSocketConnection {
    var httpHeaders = HTTPHeaders()
    for (name, value) in headers { httpHeaders.add(name: name, value: value) }
    let target = url.target
    let promise = startUpgrade(to: url, headers: httpHeaders, limits: limits, eventLoop: group.next()) {
      channel, response in
      let handler = WebSocketMessageHandler(isClient: true, limits: limits)
      return channel.eventLoop.makeCompletedFuture {
        try channel.pipeline.syncOperations.addHandler(handler)
        return WebSocketConnection(
          channel: channel, handler: handler, requestTarget: target,
          subprotocol: response.headers.first(name: "Sec-WebSocket-Protocol"))
      }
    }
    return try await withTaskCancellationHandler {
      try await promise.futureResult.get()
    } onCancel: {
      promise.fail(CancellationError())
    }
  }

  /// The building block under ``connect(to:headers:limits:group:)``: connects on `eventLoop`,
  /// sends the upgrade request for `url` with `headers` (and `Host`, unless given), and once the
  /// server answered 101 calls `install` with the channel (its WebSocket frame encoder and decoder
  /// in place, frames up to ``WebSocketLimits/maxFrameBytes``) and the server's response. The
  /// channel is configured with the limits' write-buffer watermarks.
  public static func upgrade<Result: Sendable>(
    to url: WebSocketURL, headers: HTTPHeaders, limits: WebSocketLimits, eventLoop: EventLoop,
    install: @escaping @Sendable (Channel, HTTPResponseHead) -> EventLoopFuture<Result>
  ) -> EventLoopFuture<Result> {
    startUpgrade(to: url, headers: headers, limits: limits, eventLoop: eventLoop, install: install).futureResult
  }

  /// ``upgrade(to:headers:limits:eventLoop:install:)``, its promise given out so that the caller can
  /// fail it (a cancelled connect): failing it closes the socket.
  static func startUpgrade<Result: Sendable>(
    to url: WebSocketURL, headers: HTTPHeaders, limits: WebSocketLimits, eventLoop: EventLoop,
    install: @escaping @Sendable (Channel, HTTPResponseHead) -> EventLoopFuture<Result>
  ) -> EventLoopPromise<Result> {
    let promise = eventLoop.makePromise(of: Result.self)
    var headers = headers
    if !headers.contains(name: "Host") { headers.add(name: "Host", value: url.hostHeader) }
    let requestHeaders = headers
    let bootstrap = ClientBootstrap(group: eventLoop)
      .connectTimeout(.milliseconds(limits.connectTimeoutMilliseconds))
      .channelOption(
        ChannelOptions.writeBufferWaterMark,
        value:
          ChannelOptions.Types.WriteBufferWaterMark(low: limits.writeBufferLowWater, high: limits.writeBufferHighWater)
      )
      .channelInitializer { channel in
        let requestHandler = UpgradeRequestHandler(target: url.target, headers: requestHeaders, promise: promise)
        let upgrader = NIOWebSocketClientUpgrader(
          maxFrameSize: limits.maxFrameBytes, automaticErrorHandling: true
        ) { channel, response in
          install(channel, response).map { result in promise.succeed(result) }
        }
        let loopBoundHandler = NIOLoopBound(requestHandler, eventLoop: channel.eventLoop)
        let configuration: NIOHTTPClientUpgradeConfiguration = (
          upgraders: [upgrader],
          completionHandler: { context in
            context.pipeline.syncOperations.removeHandler(loopBoundHandler.value, promise: nil)
          }
        )
        return channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHTTPClientHandlers(
            leftOverBytesStrategy: .forwardBytes, withClientUpgrade: configuration)
          try channel.pipeline.syncOperations.addHandler(requestHandler)
        }
      }
    let connected = bootstrap.connect(host: url.host, port: url.port)
    let deadline = eventLoop.scheduleTask(in: .milliseconds(limits.connectTimeoutMilliseconds)) {
      promise.fail(WebSocketError.connectTimedOut(milliseconds: limits.connectTimeoutMilliseconds))
      connected.whenSuccess { $0.close(promise: nil) }
    }
    connected.whenFailure { promise.fail($0) }
    promise.futureResult.whenComplete { result in
      deadline.cancel()
      if case .failure = result { connected.whenSuccess { $0.close(promise: nil) } }
    }
    return promise
  }
}

/// Sends the upgrade request once connected; a response that reaches it was not an upgrade.
private final class UpgradeRequestHandler<Result: Sendable>: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPClientResponsePart
  typealias OutboundOut = HTTPClientRequestPart

  let target: String
  let headers: HTTPHeaders
  let promise: EventLoopPromise<Result>

  init(target: String, headers: HTTPHeaders, promise: EventLoopPromise<Result>) {
    self.target = target
    self.headers = headers
    self.promise = promise
  }

  func channelActive(context: ChannelHandlerContext) {
    let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .head(let head) = unwrapInboundIn(data) {
      promise.fail(WebSocketError.upgradeRefused("HTTP \(head.status.code) \(head.status.reasonPhrase)"))
      context.close(promise: nil)
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    promise.fail(WebSocketError.upgradeRefused("\(error)"))
    context.close(promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    promise.fail(WebSocketError.upgradeRefused("the connection closed before the upgrade"))
    context.fireChannelInactive()
  }
}
