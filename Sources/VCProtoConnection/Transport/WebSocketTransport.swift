import VCProtoCore
import VCProtoJSON

/// One open WebSocket connection, client or server side: what `ClientHost` and `ServerHost` sit on.
/// A connection is opened by a ``WebSocketConnector`` (client) or handed out by a
/// ``WebSocketTransportListener`` (server); it is open when the host gets it.
///
/// The contract every conforming type keeps:
/// - **One reader, one writer.** One task at a time calls ``receive()`` and one at a time calls
///   ``send(_:)``; the two may run at once. ``close(code:reason:)`` may be called from any task, at
///   any time, any number of times.
/// - **Order.** Messages arrive in the order the peer sent them; a message sent before the peer's
///   close frame is received before the close.
/// - **Receive after close.** Once the connection is closed, by either side or by the network,
///   ``receive()`` returns every message already received, then ``WebSocketReceived/closed(_:)``,
///   and the same close on every later call. It never throws for a closed connection.
/// - **Who closes.** Either side calls ``close(code:reason:)``; the transport runs the close
///   handshake (RFC 6455 section 7) and a pending ``receive()`` then returns the close. When the
///   network fails or the peer closes, the transport closes itself. The host calls
///   ``close(code:reason:)`` in every case to release the connection (it is idempotent).
/// - **Cancellation.** ``receive()`` need not observe task cancellation: the way to end a pending
///   receive is ``close(code:reason:)``. ``send(_:)`` may throw `CancellationError` when its task is
///   cancelled; the connection is then in an unknown state and the host closes it.
public protocol WebSocketTransport: AnyObject, Sendable {
  /// Sends one message (one frame). Returns once the transport took it (written, or buffered within
  /// its limits); throws when the connection is closing or closed, or failed.
  func send(_ message: WebSocketMessage) async throws

  /// The next message, or the close once the connection is closed (see the contract above).
  func receive() async -> WebSocketReceived

  /// Closes the connection with `code` and `reason` (at most 123 bytes of UTF-8; longer is cut) and
  /// returns once it is closed (a transport bounds the wait for the peer's answer). Does nothing
  /// when it is already closed or closing.
  func close(code: WebSocketCloseCode, reason: String) async
}
