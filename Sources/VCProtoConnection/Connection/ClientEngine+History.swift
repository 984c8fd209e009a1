import VCProtoCore
import VCProtoJSON

/// The history path: a `session_history` (or 0.2.0/0.3.0 `session_updated`) of a subscribed session
/// becomes one ``SessionUpdate``.
///
/// Shaped for the instruction cache. Every history frame runs this right after the decoder, whose
/// own code on a history frame (about 28 KiB) nearly fills a 32 KiB first-level instruction cache:
/// each 64-byte line of code run here evicts one of the decoder's, which the next frame fetches
/// again (Benchmarks/RESULTS.md, "[client41]": the engines' wall-time cost was these misses, not
/// their instructions). So each version family has one compact step that reads its typed message
/// where it is (no intermediate copy of the frame's members, no second switch on the family), the
/// part every family shares (the subscription, the delivery, what follows) is written once, and
/// what is rare (a session not subscribed, a replaced file, a retry) is out of line, where it costs
/// no line of the common path.
extension ClientEngine {
  /// What follows a history frame.
  enum HistoryFollowUp {
    /// Nothing: the session is complete.
    case done
    /// Arm the continuation retry timer (the continuation did not advance).
    case retryLater
    /// Ask for the rest now.
    case continueNow
  }

  /// A `session_history` (`typed`, moved here whole: binding its payload on the way copied it): a
  /// subscribed session's becomes a ``SessionUpdate``; one of a session not subscribed is dropped
  /// and reported (``FindingCode/unsubscribedSessionData``), never delivered.
  ///
  /// The decoder is the negotiated version's, and it types a `session_history` as its own version's
  /// payload: the payload's case is the connection's family.
  mutating func onHistory(_ typed: consuming ServerMessage, now: Int64, _ out: inout ClientActions) {
    switch consume typed {
    case .sessionHistory(.v0_5_0(let h)):
      historyStep(h.sessionId, .v0_5_0(h.messages), now: now, &out) { Self.applyOffset(h, to: &$0, update: &$1) }
    case .sessionHistory(.v0_4_0(let h)):
      historyStep(h.sessionId, .v0_4_0(h.messages), now: now, &out) { Self.applySeq(h, to: &$0, update: &$1) }
    case .sessionHistory(.v0_2_0(let h)):
      historyStep(h.sessionId, .v0_2_0(h.messages), now: now, &out) {
        Self.applyMessageId(
          .v0_2_0(h.messages), session: h.sessionId, newest: h.newestMessageId, isComplete: h.isComplete,
          signature: Self.undeclaredSignature(in: h.additionalMembers), to: &$0, update: &$1)
      }
    case .sessionHistory(.v0_3_0(let h)):
      historyStep(h.sessionId, .v0_3_0(h.messages), now: now, &out) {
        Self.applyMessageId(
          .v0_3_0(h.messages), session: h.sessionId, newest: h.newestMessageId, isComplete: h.isComplete,
          signature: Self.undeclaredSignature(in: h.additionalMembers), to: &$0, update: &$1)
      }
    default:
      assertionFailure("not a session_history")
    }
  }

  /// A 0.2.0/0.3.0 `session_updated` on a message-id connection (``onReady(_:now:_:)``; from 0.4.0 on
  /// it is not history): `true` when it was a subscribed session's and became a ``SessionUpdate``;
  /// one of a session not subscribed is left to be delivered as received.
  mutating func onUpdated(_ updated: SessionUpdatedMessage, now: Int64, _ out: inout ClientActions) -> Bool {
    switch updated {
    case .v0_2_0(let u):
      return historyStep(u.sessionId, .v0_2_0(u.messages), isHistory: false, now: now, &out) {
        Self.applyMessageId(
          .v0_2_0(u.messages), session: u.sessionId, newest: nil, isComplete: nil,
          signature: Self.undeclaredSignature(in: u.additionalMembers), to: &$0, update: &$1)
      }
    case .v0_3_0(let u):
      return historyStep(u.sessionId, .v0_3_0Updated(u.messages), isHistory: false, now: now, &out) {
        Self.applyMessageId(
          .v0_3_0Updated(u.messages), session: u.sessionId, newest: nil, isComplete: nil,
          signature: Self.undeclaredSignature(in: u.additionalMembers), to: &$0, update: &$1)
      }
    }
  }

  /// The part of every history frame that does not depend on its family: the subscription found
  /// (one hash lookup), the update built and filled in place by `step` (a family's step, changing the
  /// subscription in place: no copy of its tables), delivered, then what follows. `isHistory`:
  /// a `session_history` (of a session not subscribed: reported), else a `session_updated` (left to
  /// be delivered as received).
  @inline(__always) @discardableResult
  mutating func historyStep(
    _ id: String, _ messages: SessionMessages, isHistory: Bool = true, now: Int64, _ out: inout ClientActions,
    step: (inout Subscription, inout SessionUpdate) -> HistoryFollowUp
  ) -> Bool {
    guard let index = subscriptions.index(ofId: id) else {
      guard isHistory else { return false }
      unsubscribedHistory(now: now, &out)
      return true
    }
    var update = SessionUpdate(sessionId: id, messages: messages, insertIndices: [], replaceIndices: [], cursor: nil)
    let next = step(&subscriptions[index], &update)
    // The timer is armed before the update is delivered, the `subscribe` for the rest sent after it.
    if next == .retryLater { armContinuationRetry(id, now: now, &out) }
    // The update moves into its action (`consume`: no copy of its members, no reference counts).
    out.append(.deliver(.sessionUpdate(consume update)))
    if next == .continueNow { sendSubscribe(id, at: index, &out) }
    return true
  }

  /// A continuation that did not advance (a half-written last line): nothing advanced; ask again
  /// shortly instead of looping or giving up (out of line: rare).
  @inline(never)
  mutating func armContinuationRetry(_ id: String, now: Int64, _ out: inout ClientActions) {
    arm(.continuation(sessionId: id), at: now.addingSaturating(configuration.timing.continuationRetryMs), &out)
  }

  /// Reports a `session_history` of a session not subscribed (out of line: rare).
  @inline(never)
  mutating func unsubscribedHistory(now: Int64, _ out: inout ClientActions) {
    let finding = Finding(
      .error, .unsubscribedSessionData, pointer: "/session_id", messageType: "session_history",
      message: "session_history for a session the client is not subscribed to")
    violation([finding], type: "session_history", now: now, &out)
  }

  /// An undeclared `file_signature` string among a frame's other members (a frame of a version before
  /// 0.5.0 that carries one), else `nil`: an offset cursor the application kept from a 0.5.0
  /// connection takes it all the same (``deliveredCursor(_:signature:)``).
  /// (The emptiness check reads the members in line: the common frame has none. The lookup is out
  /// of line.)
  @inline(__always)
  static func undeclaredSignature(in additional: JSONObject) -> String? {
    additional.members.isEmpty ? nil : signatureMember(of: additional)
  }

  /// The `file_signature` string member of `additional`, if any (out of line: rare).
  @inline(never)
  static func signatureMember(of additional: JSONObject) -> String? {
    additional["file_signature"]?.stringValue
  }

  /// The cursor an update carries: the subscription's, and an offset cursor with the frame's
  /// signature (on another family the cursor can still be an offset, the application's, kept from a
  /// 0.5.0 connection, and takes the frame's signature all the same).
  static func deliveredCursor(_ held: SubscriptionCursor?, signature: String?) -> SubscriptionCursor? {
    if case .offset(let offset, _)? = held { return .offset(offset, signature: signature) }
    return held
  }

  // MARK: the families' steps

  /// The message-id family's step (0.2.0/0.3.0): `messages` (the update's, of `session`) classified,
  /// the cursor moved to the newest id (the frame's, else the last inserted message's), complete
  /// unless the frame says not; nothing follows.
  static func applyMessageId(
    _ messages: SessionMessages, session: String, newest: String?, isComplete: Bool?, signature: String?,
    to sub: inout Subscription, update: inout SessionUpdate
  ) -> HistoryFollowUp {
    classify(messages, session: session, into: &update, sub: &sub)
    update.isComplete = isComplete ?? true
    guard let newest = newest ?? update.insertIndices.last.flatMap({ messages.uuid(at: $0) }) else {
      update.cursor = deliveredCursor(sub.cursor, signature: signature)
      return .done
    }
    // A server picks the id's length; one over the cap is not kept (a full reload is always right).
    // The update carries the new cursor (a message id: ``deliveredCursor(_:signature:)`` is the
    // cursor itself), made twice rather than copied: a copy of a cursor went through its
    // out-of-line copy of every case.
    if newest.utf8.count <= maxCursorIdBytes {
      sub.cursor = .lastMessageId(newest)
      update.cursor = .lastMessageId(newest)
    } else {
      sub.cursor = nil
    }
    return .done
  }

  /// The `seq` family's step (0.4.0): a client-ahead `gap` purges from `next_seq`; the cursor moves
  /// to `last_seq`; an incomplete reply (`is_complete: false`) is continued, or retried when the
  /// continuation did not advance past what was asked.
  static func applySeq(
    _ h: SessionHistoryMessageV0_4_0, to sub: inout Subscription, update: inout SessionUpdate
  ) -> HistoryFollowUp {
    var last = 0
    if case .lastSeq(let n)? = sub.cursor { last = n }
    update.gap = h.gap
    if h.gap?.reason == .clientAhead, h.nextSeq >= 1 {
      // seq is 1-based: a `next_seq` below 1 is not trusted (no purge, the cursor stays), and
      // `next_seq - 1` cannot overflow.
      purge(from: h.nextSeq, sub: &sub, update: &update)
      last = h.nextSeq - 1
    }
    classify(h.messages, session: h.sessionId, into: &update, sub: &sub)
    if let l = h.lastSeq { last = max(last, l) }
    sub.cursor = .lastSeq(last)
    update.cursor = sub.cursor
    sub.continuing = !h.isComplete
    var next = HistoryFollowUp.done
    if !h.isComplete {
      if let asked = sub.requestedFrom, last <= asked { next = .retryLater } else { next = .continueNow }
    }
    update.isComplete = next == .done
    return next
  }

  /// The `offset` family's step (0.5.0): a replaced file (`file_replaced`, or a signature showing
  /// another file) reloads the session from 0; a `next_offset` below the cursor (client ahead)
  /// purges from it; the cursor moves to `next_offset`; a reply short of the end of the file
  /// (`end_of_file: false`) is continued, or retried when the continuation did not advance past
  /// what was asked.
  static func applyOffset(
    _ h: SessionHistoryMessageV0_5_0, to sub: inout Subscription, update: inout SessionUpdate
  ) -> HistoryFollowUp {
    if fileReplaced(flagged: h.fileReplaced == true, signature: h.fileSignature, sub: &sub) {
      return reload(signature: h.fileSignature, sub: &sub, update: &update)
    }
    var held = 0
    if case .offset(let n, _)? = sub.cursor { held = n }
    // A negative `next_offset` is not trusted (no purge from it, no negative cursor): as if absent.
    let nextOffset = h.nextOffset >= 0 ? h.nextOffset : held
    if nextOffset < held {
      purge(from: nextOffset, sub: &sub, update: &update)
      held = nextOffset
    }
    classify(h.messages, session: h.sessionId, into: &update, sub: &sub)
    held = max(held, nextOffset)
    sub.cursor = .offset(held, signature: nil)
    // The update's cursor carries this frame's own signature text, for the application to persist.
    update.cursor = .offset(held, signature: h.fileSignature)
    sub.continuing = !h.endOfFile
    update.isComplete = h.endOfFile
    guard !h.endOfFile else { return .done }
    if let asked = sub.requestedFrom, nextOffset <= asked { return .retryLater }
    return .continueNow
  }

  /// Takes a 0.5.0 frame's `file_signature` (its digest replaces the one held: only a digest is kept,
  /// ``SignatureDigest``) and says whether the file was replaced: `flagged` (`file_replaced`), or a
  /// signature showing another file than the one seen (``FileSignature``).
  static func fileReplaced(flagged: Bool, signature: String?, sub: inout Subscription) -> Bool {
    guard let signature else { return flagged }
    let received = SignatureDigest(signature)
    let replaced = flagged || (sub.signature?.isReplaced(by: received) ?? false)
    sub.signature = received
    return replaced
  }

  /// A replaced file: nothing of this frame is delivered; the session is purged and fetched again
  /// from offset 0 (out of line: rare).
  @inline(never)
  static func reload(signature: String?, sub: inout Subscription, update: inout SessionUpdate) -> HistoryFollowUp {
    update.messages = update.messages.selecting([])
    update.purge = .all
    sub.delivered.removeAll()
    sub.cursor = .offset(0, signature: nil)
    sub.continuing = true
    update.cursor = .offset(0, signature: signature)
    update.isComplete = false
    return .continueNow
  }

  /// A client ahead of the server: every position from `position` on is forgotten and purged (out of
  /// line: rare).
  @inline(never)
  static func purge(from position: Int, sub: inout Subscription, update: inout SessionUpdate) {
    update.purge = .from(position)
    sub.delivered.removeAll { $0 >= position }
  }

  // MARK: classifying the messages

  /// Sorts `messages` into inserts and replaces by their position (indices into `messages`); drops
  /// those without one or (from 0.4.0, where messages carry `session_id`) of another session (an id
  /// of other bytes, as ``SessionKey`` compares ids). The position (``Subscription/delivered``) is
  /// ``PositionHash`` of the `uuid` (0.2.0/0.3.0), the `seq` (0.4.0) or the `offset` (0.5.0); a
  /// negative `seq` or `offset` is no position.
  ///
  /// Every message is read in place through its array's buffer, in every version: a copy of the
  /// message (`records[index].uuidPosition`) retained and released each member it holds, touching
  /// each member's heap header (a record's JSON text, far from anything the engine reads otherwise).
  /// Out of line: inlined into a family's step, the loop read each record through a copy again.
  @inline(never)
  static func classify(
    _ messages: SessionMessages, session: String, into update: inout SessionUpdate, sub: inout Subscription
  ) {
    switch messages {
    case .v0_2_0(let records):
      records.withUnsafeBufferPointer { records in
        record(records.count, unordered: true, into: &update, sub: &sub) { records[$0].uuidPosition }
      }
    case .v0_3_0(let canonical):
      canonical.withUnsafeBufferPointer { canonical in
        record(canonical.count, unordered: true, into: &update, sub: &sub) { PositionHash.of(canonical[$0].uuid) }
      }
    case .v0_3_0Updated(let either):
      either.withUnsafeBufferPointer { either in
        record(either.count, unordered: true, into: &update, sub: &sub) {
          switch either[$0] {
          case .historyMessage(let m): PositionHash.of(m.uuid)
          case .claudeRecord(let r): r.uuidPosition
          }
        }
      }
    case .v0_4_0(let positioned): classify(positioned, session: session, into: &update, sub: &sub)
    case .v0_5_0(let positioned): classify(positioned, session: session, into: &update, sub: &sub)
    }
  }

  /// ``classify(_:session:into:sub:)`` of 0.4.0 messages (by `seq`) or 0.5.0 ones (by `offset`):
  /// ``PositionedHistoryMessage``. Each member read in place through the buffer (a copy of the
  /// message would retain every member it holds, and even reading its `session_id` out retained and
  /// released it); the session compared by its exact bytes, as every session id is (``SessionKey``).
  /// Specialised for each of the two types, as if written twice.
  static func classify<Message: PositionedHistoryMessage>(
    _ messages: [Message], session: String, into update: inout SessionUpdate, sub: inout Subscription
  ) {
    SessionBytes.with(session) { session in
      messages.withUnsafeBufferPointer { messages in
        record(messages.count, into: &update, sub: &sub) { index in
          let position = messages[index].position
          return position >= 0 && SessionBytes.same(messages[index].sessionId, session) ? position : nil
        }
      }
    }
  }

  /// A frame's `count` messages, message `index` at `position(index)`, recorded in order: each is an
  /// insert (never delivered) or a replace; one without a position is dropped. Room for the inserts
  /// is made once, and the window takes the positions in one pass
  /// (``PositionWindow/insertEach(_:unordered:position:outcome:)``); `unordered`: uuid hashes, in no
  /// order.
  @inline(__always)
  static func record(
    _ count: Int, unordered: Bool = false, into update: inout SessionUpdate, sub: inout Subscription,
    position: (Int) -> Int?
  ) {
    update.insertIndices.reserveCapacity(count)
    sub.delivered.insertEach(count, unordered: unordered, position: position) { index, inserted in
      switch inserted {
      case true?: update.insertIndices.append(index)
      case false?: update.replaceIndices.append(index)
      case nil: update.dropped += 1
      }
    }
  }
}
