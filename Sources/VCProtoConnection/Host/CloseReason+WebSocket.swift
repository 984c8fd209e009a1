import VCProtoCore
import VCProtoJSON

extension CloseReason {
  /// The WebSocket close a host sends for this reason: 1000 (normal closure) when a side ends the
  /// conversation on purpose (`client_disconnect`, `server_close`, `draining`), 1008 (policy
  /// violation) when the peer broke the protocol or failed to authenticate in time, 1001 (going away)
  /// otherwise (a deadline passed, the transport failed). The reason text is the stable ``code``,
  /// never the detail (which may quote the peer).
  var webSocketClose: WebSocketClose {
    switch code {
    case CloseReason.clientDisconnect.code, CloseReason.serverClose.code, CloseReason.draining.code:
      return WebSocketClose(code: .normalClosure, reason: code)
    case CloseReason.pongTimeout.code, CloseReason.heartbeatTimeout.code, CloseReason.handshakeTimeout.code,
      CloseReason.connectTimeout.code, CloseReason.transportClosed.code:
      return WebSocketClose(code: .goingAway, reason: code)
    default:
      return WebSocketClose(code: .policyViolation, reason: code)
    }
  }
}
