import VCProtoCore
import VCProtoJSON

/// What ``WebSocketTransport/receive()`` returns: the next data message, or the close that ended the
/// connection.
public enum WebSocketReceived: Sendable, Hashable {
  /// A data message, in the order the peer sent it.
  case message(WebSocketMessage)
  /// The connection is closed: the peer's close frame (its code and reason), or
  /// ``WebSocketClose/abnormal`` when it ended without one. Every later receive returns it again.
  case closed(WebSocketClose)
}
