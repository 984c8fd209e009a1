/// What a ``ClientEngine`` asks its host to do, in order.
public enum ClientAction: Sendable, Hashable {
  /// Open a WebSocket to the server, then report ``ClientEvent/transportOpened(clientNonce:)`` or
  /// ``ClientEvent/transportClosed(detail:)``.
  case openTransport
  /// Send this frame (encode it as JSON text).
  case send(JSONObject)
  /// Close the socket. No ``ClientEvent/transportClosed(detail:)`` is needed afterwards.
  case closeTransport(CloseReason)
  /// Fire ``ClientEvent/timerFired(_:)`` at `at` (milliseconds, the host's clock), replacing any
  /// earlier deadline of the same timer.
  case armTimer(ConnectionTimer, at: Int64)
  /// Forget this timer.
  case cancelTimer(ConnectionTimer)
  /// Tell the application.
  case deliver(ClientApplicationEvent)
}
