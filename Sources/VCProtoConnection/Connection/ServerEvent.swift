import VCProtoCore
import VCProtoJSON

/// What the host feeds a ``ServerEngine``.
public enum ServerEvent: Sendable, Hashable {
  /// Transport: the socket is open. `challenge`: 256 fresh random bits, lowercase hex, when auth v2
  /// is offered (else `nil`). `connectionId`: the host's name for this connection, sent as
  /// `connected.session_id` only on a 0.2.0 connection whose `connect` carries none (0.2.0's
  /// `connected` requires a string there, so a host serving 0.2.0 gives one); from 0.3.0 on the
  /// member is the `connect`'s `session_id` or `null`, as the real server sends it.
  case transportOpened(challenge: String?, connectionId: String? = nil)
  /// Transport: one WebSocket data message from the client, exactly as it arrived. The engine opens
  /// a compression envelope when one was negotiated, opens the sealed frame when authenticated
  /// frames are in force, and decodes the frame once with the connection's version (the handshake
  /// types before negotiation). A frame that fails is reported as
  /// ``ServerApplicationEvent/violation(_:)``, never delivered (STANDARDS.md#state-machine).
  case received(WebSocketMessage)
  /// Transport: the socket closed.
  case transportClosed
  /// A timer the engine armed has expired.
  case timerFired(ConnectionTimer)
  /// Application: send this message to the client (only once authenticated). The engine encodes it
  /// once and returns it as ``ServerAction/send(_:)``.
  case send(ServerMessage)
  /// Application: the server is shutting down; clients should come back after `retryAfterMs`.
  case drain(retryAfterMs: Int, message: String)
  /// Application: close this connection.
  case close

  /// The name used in errors and vectors (the kind's raw value).
  public var name: String { kind.rawValue }

  /// The event's kind: its column in `ServerTransitions.table`.
  public var kind: ServerEventKind {
    switch self {
    case .transportOpened: return .transportOpened
    case .received: return .received
    case .transportClosed: return .transportClosed
    case .timerFired: return .timer
    case .send: return .send
    case .drain: return .drain
    case .close: return .close
    }
  }
}
