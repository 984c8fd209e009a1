import VCProtoCore
import VCProtoJSON

extension ClientEngine {
  /// An engine already `ready` on `version`, with no capability, for a ``ConversationObserver``: the
  /// observer sees the handshake on the wire but cannot verify its credentials, so it starts the
  /// engine where the handshake left the client. Its subscriptions, continuations and waiting
  /// requests then follow the observed frames through the ordinary events (`subscribe`,
  /// `unsubscribe`, `send`, `frameReceived`); the frames it asks to send are the observer's
  /// expectations, never sent. At most `tracked` subscriptions and `tracked` waiting requests are
  /// kept, and one delivered position per session (the observer does not deduplicate).
  init(observing version: ProtocolVersion, tracked: Int, now: Int64) {
    self.init(
      ClientConfiguration(
        apiKey: "", minimumVersion: version, maximumVersion: version, maxPendingRequests: tracked,
        maxSubscriptions: tracked, dedupWindow: 1))
    var ignored = ClientActions(capacity: 4)
    becomeReady(version: version, capabilities: [], now: now, &ignored)
  }

  /// Where the next `subscribe` for `sessionId` must resume, when the engine is fetching a
  /// continuation of it (`nil` otherwise).
  func continuationCursor(of sessionId: String) -> SubscriptionCursor? {
    guard let subscription = subscriptions[SessionKey(sessionId)], subscription.continuing else { return nil }
    return subscription.cursor
  }
}
