import VCProtoCore
import VCProtoJSON

/// What a ``ServerEngine`` asks its host to do, in order.
public enum ServerAction: Sendable, Hashable {
  /// Send this WebSocket message (a text message: the frame as the engine encoded it, sealed when
  /// authenticated frames are in force).
  case send(WebSocketMessage)
  /// Close the socket (after the frames before it).
  case closeTransport(CloseReason)
  /// Fire ``ServerEvent/timerFired(_:)`` at `at`, replacing an earlier deadline of the same timer.
  case armTimer(ConnectionTimer, at: Int64)
  /// Forget this timer.
  case cancelTimer(ConnectionTimer)
  /// Tell the application.
  case deliver(ServerApplicationEvent)
}

/// What a ``ServerEngine`` tells the application.
public enum ServerApplicationEvent: Sendable, Hashable {
  /// The client authenticated: send it the lists (`session_list`, `recent_sessions`, ...).
  /// `sessionId` is its `connect.session_id`; `recentSessionsLimit` its `recent_sessions_limit` (default 5).
  case authenticated(NegotiationOutcome, sessionId: String?, recentSessionsLimit: Int)
  /// A valid `subscribe`: reply with `session_history` from `cursor` (`nil`: from the start).
  case subscribe(sessionId: String, cursor: SubscriptionCursor?)
  /// `unsubscribe`.
  case unsubscribe(sessionId: String)
  /// Any other request, validated and typed, for the application to answer. A type this version
  /// does not define (a newer client's) arrives as ``ClientMessage/unknown(_:)``, kept whole.
  case request(ClientMessage)
  /// The client sent a frame that broke the protocol: it was not delivered. The findings say why,
  /// the disposition what the engine did (STANDARDS.md#server-boundary): dropped with the
  /// real server's `error` answer, the connection staying open; or, during the handshake, in
  /// authentication or in a sealed frame, refused and closed.
  case violation(ProtocolViolation)
  /// A `prompt` repeated an `idempotency_key` already seen: it was answered from the window and
  /// must not run again.
  case duplicatePrompt(idempotencyKey: String)
  /// `message_ack` for an id the replay buffer does not hold (already acknowledged, evicted, or
  /// acknowledged after a reconnect to another server): a warning, not an error.
  case unknownAcknowledgement(messageId: String)
  /// The replay buffer was full: this unacknowledged frame was dropped.
  case replayEvicted(messageId: String)
  /// The client said it is leaving on purpose (`disconnect`).
  case clientDisconnecting(reason: String)
  /// The connection is closed; keep ``ServerEngine/memory`` for the client's next connection.
  case closed(CloseReason)
}
