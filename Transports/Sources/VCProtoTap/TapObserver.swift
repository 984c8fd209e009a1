import VCProto
import VCProtoNIO

/// Sees every message a tap forwards, on the connection's event loop, in the order they crossed.
protocol TapObserver: Sendable {
  /// A whole message crossed (after it was forwarded).
  func observe(_ message: WebSocketMessage, direction: MessageDirection, connection: Int)
  /// Both sockets of the connection are closed.
  func ended(connection: Int)
}
