import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import VCProto

/// Opens client WebSocket connections over plain TCP (`ws://`), with a deadline on the connect and
/// the upgrade together.
public enum WebSocketClient {
  /// Connects to `url` and upgrades; `headers` are added to the upgrade request (a
  /// `Sec-WebSocket-Protocol` among them offers subprotocols). Throws ``WebSocketError`` (or the
  /// socket's error) when the server cannot be reached, refuses the upgrade, or the deadline
  /// (``WebSocketLimits/connectTimeoutMilliseconds``) passes.
  public static func connect(
    to url: WebSocketURL, headers: [(String, String)] = [], limits: WebSocketLimits = .default,
    group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
  ) async throws -> WebSocketConnection {
    var httpHeaders = HTTPHeaders()
    for (name, value) in headers { httpHeaders.add(name: name, value: value) }
    let target = url.target
    return try await upgrade(to: url, headers: httpHeaders, limits: limits, eventLoop: group.next()) {
      channel, response in
      let handler = WebSocketMessageHandler(isClient: true, limits: limits)
      return channel.eventLoop.makeCompletedFuture {
        try channel.pipeline.syncOperations.addHandler(handler)
        return WebSocketConnection(
          channel: channel, handler: handler, requestTarget: target,
          subprotocol: response.headers.first(name: "Sec-WebSocket-Protocol"))
      }
    }.get()
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
    return promise.futureResult
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
