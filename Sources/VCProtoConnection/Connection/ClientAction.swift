import VCProtoCore
import VCProtoJSON

/// What a ``ClientEngine`` asks its host to do, in order.
public enum ClientAction: Sendable, Hashable {
  /// Open a WebSocket to the server, then report ``ClientEvent/transportOpened(_:clientNonce:)`` with
  /// this id, or ``ClientEvent/transportClosed(_:detail:)`` with this id if it fails or, later, closes by
  /// itself.
  case openTransport(TransportID)
  /// Send this WebSocket message as it is (the engine encoded it, and sealed it when authenticated
  /// frames are in force).
  case send(WebSocketMessage)
  /// Close this socket (it may still be opening: then abandon it). The engine is done with it: no
  /// ``ClientEvent/transportClosed(_:detail:)`` is needed afterwards, and one for this id is ignored.
  case closeTransport(TransportID, CloseReason)
  /// Fire ``ClientEvent/timerFired(_:)`` at `at` (milliseconds, the host's clock), replacing any
  /// earlier deadline of the same timer.
  case armTimer(ConnectionTimer, at: Int64)
  /// Forget this timer.
  case cancelTimer(ConnectionTimer)
  /// Tell the application.
  case deliver(ClientApplicationEvent)
}
