import VCProtoCore
import VCProtoJSON

extension ClientEngine {
  /// How full the engine's bounded tables are (for monitoring, tests and fuzzing). Every figure stays
  /// within its configured bound whatever the server sends.
  public struct Occupancy: Sendable, Hashable {
    /// Requests waiting for an answer, tracked or not (≤ ``ClientConfiguration/maxPendingRequests``).
    public var pendingRequests: Int
    /// Sessions subscribed (≤ ``ClientConfiguration/maxSubscriptions``).
    public var subscriptions: Int
    /// The most positions remembered for one session (≤ ``ClientConfiguration/dedupWindow``).
    public var largestDedupWindow: Int
    /// `message_id`s remembered for replay deduplication (≤ ``ClientConfiguration/dedupWindow``).
    public var messageIds: Int
    /// Sessions created by a prompt and not yet announced (≤ 16).
    public var pendingNewSessions: Int
    /// Timers armed (at most 6 plus one continuation per subscription).
    public var armedTimers: Int
    /// Requests in the outbox, made while not ready (≤ ``ClientConfiguration/outboxCapacity``).
    public var outbox: Int
  }

  /// The current occupancy.
  public var occupancy: Occupancy {
    Occupancy(
      pendingRequests: pending.count, subscriptions: subscriptions.count,
      largestDedupWindow: subscriptions.entries.map(\.value.delivered.count).max() ?? 0,
      messageIds: seenMessageIds.count,
      pendingNewSessions: pendingNewSessions.count, armedTimers: armed.count, outbox: outbox.count)
  }

  /// The cursor the engine holds for a subscribed session, or `nil`. A 0.5.0 cursor's `signature` is
  /// `nil`: the engine keeps only a fixed-size digest of the last `file_signature` (a server's
  /// signature costs no memory whatever its length); to persist it, take the cursor of the last
  /// ``SessionUpdate``, which carries the frame's signature.
  public func cursor(for sessionId: String) -> SubscriptionCursor? { subscriptions[SessionKey(sessionId)]?.cursor }
}
