import NIOCore
import NIOWebSocket
import VCProto

/// One open WebSocket connection, client or server side: the ``WebSocketTransport`` a `ClientHost`
/// or `ServerHost` sits on. Open it with ``WebSocketClient/connect(to:headers:limits:group:)`` (or a
/// ``WebSocketClient`` as the host's connector) or accept it from a ``WebSocketListener``; then
/// ``send(_:)`` text or binary messages, ``receive()`` them and the close, and ``close(code:reason:)``.
///
/// Pings are answered, the close handshake is RFC 6455's (the peer's code is kept in
/// ``peerCloseCode()``), every size is bounded by its ``WebSocketLimits``, and it has backpressure
/// both ways: ``send(_:)`` returns when the message was written to the socket, and messages not yet
/// taken by ``receive()`` stop the reading once ``WebSocketLimits/receiveQueueLength`` are waiting.
public final class WebSocketConnection: WebSocketTransport {
  /// The channel the connection runs on (for hosts that want NIO's own API).
  public let channel: Channel
  /// The request target (path and query) of the upgrade request.
  public let requestTarget: String
  /// The subprotocol the server chose (`Sec-WebSocket-Protocol`), if any.
  public let subprotocol: String?
  private let handler: NIOLoopBound<WebSocketMessageHandler>

  init(channel: Channel, handler: WebSocketMessageHandler, requestTarget: String, subprotocol: String?) {
    self.channel = channel
    self.handler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
    self.requestTarget = requestTarget
    self.subprotocol = subprotocol
  }

  /// Sends one message (as one frame); returns once it was written to the socket. Throws
  /// ``WebSocketError/closed`` once the connection is closing or closed.
  public func send(_ message: WebSocketMessage) async throws {
    let handler = self.handler
    let loop = channel.eventLoop
    try await loop.flatSubmit { handler.value.send(message, on: loop) }.get()
  }

  /// The next message; once the connection is closed and every message received was taken, how it
  /// ended, on this and every later call: the peer's close frame (its code and reason; code 1005
  /// when it had none), else the close this side failed it with (1002 for a protocol error, 1009
  /// for a message over ``WebSocketLimits/maxMessageBytes``), else ``WebSocketClose/abnormal``
  /// (1006: the socket went without a close frame). Never throws; ``close(code:reason:)`` ends a
  /// pending receive.
  public func receive() async -> WebSocketReceived {
    let handler = self.handler
    let loop = channel.eventLoop
    return (try? await loop.flatSubmit { handler.value.next(on: loop) }.get()) ?? .closed(.abnormal)
  }

  /// Starts the close handshake with `code` (default 1000) and `reason` (cut to 123 bytes) and waits
  /// until the connection is closed (at most ``WebSocketLimits/closeTimeoutMilliseconds`` after).
  /// Does nothing more when it is already closing or closed.
  public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
    let handler = self.handler
    channel.eventLoop.execute { handler.value.close(code: code, reason: reason) }
    try? await channel.closeFuture.get()
  }

  /// The code of the peer's close frame (1005 when it had none), or `nil` when none arrived
  /// (yet, or ever: 1006 in RFC 6455's terms once ``closed()`` returned).
  public func peerCloseCode() async -> WebSocketCloseCode? {
    let handler = self.handler
    return try? await channel.eventLoop.submit { handler.value.peerCloseCode }.get()
  }

  /// Waits until the connection is closed.
  public func closed() async {
    try? await channel.closeFuture.get()
  }
}
