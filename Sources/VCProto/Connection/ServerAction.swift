/// What a ``ServerEngine`` asks its host to do, in order.
public enum ServerAction: Sendable, Hashable {
  /// Send this frame.
  case send(JSONObject)
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
  /// Any other request, for the application to answer.
  case request(JSONObject)
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
