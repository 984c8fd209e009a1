import VCProtoCore
import VCProtoJSON

/// Exactly what to change in the application's copy of one session, from one `session_history` (or
/// 0.2.0/0.3.0 `session_updated`) frame. Apply in order: ``purge``, then ``insert`` and ``replace``.
///
/// Positions are the version's message key: `uuid` (0.2.0/0.3.0), `seq` (0.4.0), `offset` (0.5.0).
/// ``insert`` holds messages at positions this engine never delivered; ``replace`` holds messages at
/// positions already delivered on this engine's watch (a duplicate from a re-subscribe, a concurrent
/// push or a chain step): the app overwrites its row (an upsert by `(session_id, position)`). A
/// message the window (``ClientConfiguration/dedupWindow``) forgot is reported as an insert, which is
/// still correct for an app that upserts.
///
/// The messages are typed as the connection's version types them (``SessionMessages``: validated
/// with the rest of the frame, never a JSON tree). Storage: the frame's `messages` array once
/// (``messages``, shared with the decoded frame, not copied) and the indices of the messages to
/// insert (``insertIndices``) and to replace (``replaceIndices``), in frame order. ``insert`` and
/// ``replace`` are computed from them (they copy; a host that cares reads the indices). Two updates are equal when they say the same thing: same ``insert`` and ``replace``
/// messages and the same other members, however the messages are stored.
public struct SessionUpdate: Sendable, Hashable {
  /// What to delete first.
  public enum Purge: Sendable, Hashable {
    /// Everything of the session (0.5.0 `file_replaced`, or a signature showing a new file).
    case all
    /// Every message at position ≥ this (0.5.0 client ahead: `next_offset` below the cursor; 0.4.0
    /// `gap.reason` `client_ahead`: `seq` ≥ `next_seq`). Never negative: a negative `next_offset`
    /// or a `next_seq` below 1 purges nothing.
    case from(Int)
  }

  /// The session.
  public var sessionId: String
  /// What to delete before inserting, or `nil`.
  public var purge: Purge? {
    get { state.purge }
    _modify { yield &state.purge }
  }
  /// The messages the indices point into: the frame's `messages` array as decoded (elements that
  /// are neither inserted nor replaced were dropped, see ``dropped``).
  public var messages: SessionMessages
  /// Indices in ``messages`` of the new messages, ascending (frame order).
  public var insertIndices: [Int]
  /// Indices in ``messages`` of the messages to overwrite, ascending (frame order).
  public var replaceIndices: [Int]
  /// The cursor after this frame (what to persist for a later ``ClientEvent/subscribe(sessionId:cursor:)``),
  /// or `nil` when the engine holds no position for the session yet (a 0.2.0/0.3.0 session none of
  /// whose messages had a `uuid` and whose frame named no `newest_message_id`): keep what you had.
  /// A 0.5.0 cursor's `signature` is this frame's `file_signature` (`nil` when the frame has none:
  /// keep the previous one then); the engine itself keeps only a digest of it.
  public var cursor: SubscriptionCursor? {
    get { state.cursor }
    _modify { yield &state.cursor }
  }
  /// `false` while the engine is still fetching the rest (a continuation is pending or retrying).
  public var isComplete: Bool {
    get { state.isComplete }
    _modify { yield &state.isComplete }
  }
  /// 0.4.0 `gap`, or `nil`.
  public var gap: HistoryGap? {
    get { state.gap?.gap }
    set { state.gap = newValue.map(GapBox.init) }
  }
  /// Messages dropped: no position, a negative `seq` or `offset`, or another session's `session_id`.
  public var dropped: Int {
    get { state.dropped }
    _modify { yield &state.dropped }
  }

  /// Where ``purge``, ``cursor``, ``isComplete``, ``gap`` and ``dropped`` are stored. Stored in the
  /// update itself, the nine members made the optimizer give up on the initializer: every update the
  /// engine built was copied once and the copy destroyed (a retain and a release of each of its
  /// references, about three hundred instructions and ten atomic operations per `session_history`).
  /// Built with its memberwise initializer, the five are one value and the copy goes away. Their
  /// accessors change them in place (`_modify`), as stored properties are (but ``gap``, boxed);
  /// unlike stored properties, two of them cannot be passed `inout` to one call at once.
  struct State: Sendable {
    var purge: Purge?
    var cursor: SubscriptionCursor?
    var isComplete: Bool
    /// ``gap``, boxed (``GapBox``).
    var gap: GapBox?
    var dropped: Int
  }

  /// A 0.4.0 `gap` (``gap``), kept out of line. In line, its 32 bytes made an update 128 bytes, and
  /// with the case's tag a ``ClientAction`` delivering one took 129: every action was then copied on
  /// its way to the host (into its event, its action, the buffer, and out) by a call to `memcpy`,
  /// where copies of at most 128 bytes are a few moves in line, on every history frame. A `gap`
  /// is rare (a reply that could not start where the client asked).
  final class GapBox: Sendable {
    let gap: HistoryGap
    init(_ gap: HistoryGap) { self.gap = gap }
  }

  var state: State

  /// New messages, in frame order (computed from ``messages`` and ``insertIndices``).
  public var insert: SessionMessages { messages.selecting(insertIndices) }

  /// Messages to overwrite, in frame order (computed from ``messages`` and ``replaceIndices``).
  public var replace: SessionMessages { messages.selecting(replaceIndices) }

  /// Creates an update from the messages to insert and to replace (of one kind; `replace` is dropped
  /// when its kind differs from a non-empty `insert`'s).
  public init(
    sessionId: String, purge: Purge? = nil, insert: SessionMessages = .none, replace: SessionMessages = .none,
    cursor: SubscriptionCursor?, isComplete: Bool = true, gap: HistoryGap? = nil, dropped: Int = 0
  ) {
    let all = insert.appending(replace) ?? insert
    self.init(
      sessionId: sessionId, purge: purge, messages: all, insertIndices: Array(0..<insert.count),
      replaceIndices: Array(insert.count..<all.count), cursor: cursor, isComplete: isComplete, gap: gap,
      dropped: dropped)
  }

  /// Creates an update over a frame's `messages`. Every index must be within `messages`.
  public init(
    sessionId: String, purge: Purge? = nil, messages: SessionMessages, insertIndices: [Int], replaceIndices: [Int],
    cursor: SubscriptionCursor?, isComplete: Bool = true, gap: HistoryGap? = nil, dropped: Int = 0
  ) {
    self.sessionId = sessionId
    self.messages = messages
    self.insertIndices = insertIndices
    self.replaceIndices = replaceIndices
    state = State(purge: purge, cursor: cursor, isComplete: isComplete, gap: gap.map(GapBox.init), dropped: dropped)
  }

  /// Equal when they say the same thing (see the type's description).
  public static func == (l: SessionUpdate, r: SessionUpdate) -> Bool {
    l.sessionId == r.sessionId && l.purge == r.purge && l.cursor == r.cursor && l.isComplete == r.isComplete
      && l.gap == r.gap && l.dropped == r.dropped && l.insert == r.insert && l.replace == r.replace
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(sessionId)
    hasher.combine(purge)
    hasher.combine(cursor)
    hasher.combine(isComplete)
    hasher.combine(gap)
    hasher.combine(dropped)
    hasher.combine(insert)
    hasher.combine(replace)
  }
}
