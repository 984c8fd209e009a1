/// Exactly what to change in the application's copy of one session, from one `session_history` (or
/// 0.2.0/0.3.0 `session_updated`) frame. Apply in order: ``purge``, then ``insert`` and ``replace``.
///
/// Positions are the version's message key: `uuid` (0.2.0/0.3.0), `seq` (0.4.0), `offset` (0.5.0).
/// ``insert`` holds messages at positions this engine never delivered; ``replace`` holds messages at
/// positions already delivered on this engine's watch (a duplicate from a re-subscribe, a concurrent
/// push or a chain step): the app overwrites its row (an upsert by `(session_id, position)`). A
/// message the window (``ClientConfiguration/dedupWindow``) forgot is reported as an insert, which is
/// still correct for an app that upserts.
public struct SessionUpdate: Sendable, Hashable {
  /// What to delete first.
  public enum Purge: Sendable, Hashable {
    /// Everything of the session (0.5.0 `file_replaced`, or a signature showing a new file).
    case all
    /// Every message at position ≥ this (0.5.0 client ahead: `next_offset` below the cursor; 0.4.0
    /// `gap.reason` `client_ahead`: `seq` ≥ `next_seq`).
    case from(Int)
  }

  /// The session.
  public var sessionId: String
  /// What to delete before inserting, or `nil`.
  public var purge: Purge?
  /// New messages, in frame order.
  public var insert: [JSONObject]
  /// Messages to overwrite, in frame order.
  public var replace: [JSONObject]
  /// The cursor after this frame (what to persist for a later ``ClientEvent/subscribe(sessionId:cursor:)``).
  public var cursor: SubscriptionCursor
  /// `false` while the engine is still fetching the rest (a continuation is pending or retrying).
  public var isComplete: Bool
  /// 0.4.0 `gap` object as received, or `nil`.
  public var gap: JSONObject?
  /// Messages dropped: no position, or another session's `session_id`.
  public var dropped: Int

  /// Creates an update.
  public init(
    sessionId: String, purge: Purge? = nil, insert: [JSONObject] = [], replace: [JSONObject] = [],
    cursor: SubscriptionCursor, isComplete: Bool = true, gap: JSONObject? = nil, dropped: Int = 0
  ) {
    self.sessionId = sessionId
    self.purge = purge
    self.insert = insert
    self.replace = replace
    self.cursor = cursor
    self.isComplete = isComplete
    self.gap = gap
    self.dropped = dropped
  }
}
