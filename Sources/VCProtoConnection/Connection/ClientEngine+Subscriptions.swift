import VCProtoCore
import VCProtoJSON

extension ClientEngine {
  @inline(never)
  mutating func subscribe(_ id: String, cursor: SubscriptionCursor?, now: Int64, _ out: inout [ClientAction]) {
    let key = SessionKey(id)
    let ready = state == .ready && negotiatedVersion != nil
    let index: Int
    if let held = subscriptions.index(of: key) {
      index = held
      if ready { cancel(.continuation(sessionId: id), &out) }
    } else {
      // Full: only a subscription already held is resumed.
      guard subscriptions.count < configuration.maxSubscriptions else { return }
      // A new subscription has no continuation timer to cancel (`unsubscribe` cancelled any).
      assert(armed[.continuation(sessionId: id)] == nil, "a continuation timer without a subscription")
      index = addSubscription(key, cursor: nil)
    }
    // Changed in place: the cursor taken and, when ready, the request begun.
    if let cursor { subscriptions[index].resume(from: cursor) }
    guard ready else { return }
    let request = subscriptions[index].beginRequest(family)
    emit(Self.subscribeMessage(id, request, family: family), &out)
  }

  /// Adds a subscription to `key`'s session (not yet subscribed), last in the order; returns its
  /// position in ``subscriptions``.
  @discardableResult
  mutating func addSubscription(_ key: consuming SessionKey, cursor: SubscriptionCursor?) -> Int {
    let serial = nextSubscriptionSerial
    nextSubscriptionSerial += 1
    return subscriptions.append(key, Subscription(cursor: cursor, window: configuration.dedupWindow, serial: serial))
  }

  /// The `subscribe` for `id` asking for `request` (``Subscription/beginRequest(_:)``), typed as
  /// `family`'s versions type it: `type`, `session_id`, then the resume member, if any (encoded once,
  /// by `emit(_:_:)` of a `ClientMessage`).
  static func subscribeMessage(_ id: String, _ request: Subscription.Request, family: VersionFamily) -> ClientMessage {
    switch request {
    case .lastMessageId(let last):
      return .subscribe(.v0_2_0(SubscribeMessageV0_2_0(sessionId: id, lastMessageId: last)))
    case .lastSeq(let last): return .subscribe(.v0_4_0(SubscribeMessageV0_4_0(sessionId: id, lastSeq: last)))
    case .fromOffset(let from): return .subscribe(.v0_5_0(SubscribeMessageV0_5_0(sessionId: id, fromOffset: from)))
    case .everything:
      switch family {
      case .messageId: return .subscribe(.v0_2_0(SubscribeMessageV0_2_0(sessionId: id)))
      case .seq: return .subscribe(.v0_4_0(SubscribeMessageV0_4_0(sessionId: id)))
      case .offset: return .subscribe(.v0_5_0(SubscribeMessageV0_5_0(sessionId: id)))
      }
    }
  }

  /// The subscribed session ids in the order they were subscribed to.
  func subscriptionIdsInOrder() -> [String] {
    var order: [(serial: Int, id: String)] = []
    order.reserveCapacity(subscriptions.count)
    for index in subscriptions.indices { order.append((subscriptions[index].serial, subscriptions.id(at: index))) }
    return order.sorted { $0.serial < $1.serial }.map(\.id)
  }

  @inline(never)
  mutating func unsubscribe(_ id: String, _ out: inout [ClientAction]) {
    guard subscriptions.remove(SessionKey(id)) else { return }
    cancel(.continuation(sessionId: id), &out)
    if state == .ready { emit(.unsubscribe(UnsubscribeMessage(sessionId: id)), &out) }
  }

  /// `subscribe` for `id` in the negotiated version's terms. 0.5.0 never sends
  /// `file_signature_seen`: the real server compares it byte for byte with a signature that changes
  /// on every append, so sending it turns every resume into a full reload (the engine detects a
  /// replaced file from the reply's signature instead; see ``FileSignature``).
  mutating func sendSubscribe(_ id: String, _ out: inout [ClientAction]) {
    guard let index = subscriptions.index(of: SessionKey(id)) else { return }
    sendSubscribe(id, at: index, &out)
  }

  /// ``sendSubscribe(_:_:)`` for the subscription at `index` of ``subscriptions`` (changed in place).
  @inline(never)
  mutating func sendSubscribe(
    _ id: String, at index: Int, _ out: inout [ClientAction]
  ) {
    guard negotiatedVersion != nil else { return }
    // Changed in place: reading the subscription out would copy all of it.
    let request = subscriptions[index].beginRequest(family)
    cancel(.continuation(sessionId: id), &out)
    emit(Self.subscribeMessage(id, request, family: family), &out)
  }

  /// A `session_history` (or 0.2.0/0.3.0 `session_updated`): `true` when it was handled: a subscribed
  /// session's became a ``SessionUpdate``; a `session_history` of a session not subscribed is
  /// dropped and reported (``FindingCode/unsubscribedSessionData``), never delivered.
  mutating func onHistory(_ typed: ServerMessage, now: Int64, _ out: inout [ClientAction]) -> Bool {
    guard negotiatedVersion != nil else { return false }
    // The common 0.2.0 `session_history` read where it is, without a ``HistoryFrame``: fewer functions
    // and copies a frame, so less of the decoder's code is evicted from the instruction cache.
    if family == .messageId, case .sessionHistory(.v0_2_0(let h)) = typed, h.additionalMembers.isEmpty {
      return onMessageIdHistory(
        h.sessionId, .v0_2_0(h.messages), newest: h.newestMessageId, isComplete: h.isComplete, now: now, &out)
    }
    guard let frame = HistoryFrame(typed) else { return false }
    let id = frame.sessionId
    guard let index = subscriptions.index(of: SessionKey(id)) else {
      guard case .sessionHistory = typed else { return false }
      unsubscribedHistory(now: now, &out)
      return true
    }
    // The subscription is changed in place (one hash lookup, no copy of its tables); the timers and
    // the follow-up `subscribe` come after, once that access has ended. The update is built here and
    // filled in place (returning it would copy it).
    // (`apply` sets the update's cursor.)
    var update = SessionUpdate(
      sessionId: id, messages: frame.messages, insertIndices: [], replaceIndices: [], cursor: nil)
    update.gap = frame.gap
    let next = Self.apply(frame, to: &subscriptions[index], update: &update, family: family)
    if next == .retryLater {
      // A half-written last line: nothing advanced. Ask again shortly instead of looping or giving up.
      arm(.continuation(sessionId: id), at: now.addingSaturating(configuration.timing.continuationRetryMs), &out)
    }
    // The update moves into its action (`consume`: no copy of its members, no reference counts).
    out.append(.deliver(.sessionUpdate(consume update)))
    if next == .continueNow { sendSubscribe(id, at: index, &out) }
    return true
  }

  /// Reports a `session_history` of a session not subscribed (out of line: rare).
  @inline(never)
  mutating func unsubscribedHistory(now: Int64, _ out: inout [ClientAction]) {
    let finding = Finding(
      .error, .unsubscribedSessionData, pointer: "/session_id", messageType: "session_history",
      message: "session_history for a session the client is not subscribed to")
    violation([finding], type: "session_history", now: now, &out)
  }

  /// A 0.2.0 `session_history` without undeclared members (no `file_signature`) on a message-id
  /// connection: what ``apply(_:to:update:family:)`` does for the `messageId` family, from the typed
  /// message's members (nothing follows such a frame).
  mutating func onMessageIdHistory(
    _ id: String, _ messages: SessionMessages, newest: String?, isComplete: Bool?, now: Int64,
    _ out: inout [ClientAction]
  ) -> Bool {
    guard let index = subscriptions.index(of: SessionKey(id)) else {
      unsubscribedHistory(now: now, &out)
      return true
    }
    var update = SessionUpdate(sessionId: id, messages: messages, insertIndices: [], replaceIndices: [], cursor: nil)
    Self.applyMessageId(
      messages, session: id, newest: newest, isComplete: isComplete, to: &subscriptions[index], update: &update)
    update.cursor = Self.deliveredCursor(subscriptions[index].cursor, signature: nil)
    out.append(.deliver(.sessionUpdate(consume update)))
    return true
  }

  /// The message-id family's step (0.2.0/0.3.0), shared by ``apply(_:to:update:family:)`` and
  /// ``onMessageIdHistory(_:_:newest:isComplete:now:_:)``: the messages classified, the cursor moved to
  /// the newest id (the frame's, else the last inserted message's), complete unless the frame says not.
  static func applyMessageId(
    _ messages: SessionMessages, session: String, newest: String?, isComplete: Bool?,
    to sub: inout Subscription, update: inout SessionUpdate
  ) {
    classify(messages, session: session, into: &update, sub: &sub)
    let newest = newest ?? update.insertIndices.last.flatMap { messages.uuid(at: $0) }
    // A server picks the id's length; one over the cap is not kept (a full reload is always right).
    if let newest { sub.cursor = newest.utf8.count <= maxCursorIdBytes ? .lastMessageId(newest) : nil }
    update.isComplete = isComplete ?? true
  }

  /// The cursor an update carries: the subscription's, and an offset cursor with the frame's
  /// signature (on another family the cursor can still be an offset, the application's, kept from a
  /// 0.5.0 connection, and takes the frame's signature all the same).
  static func deliveredCursor(_ held: SubscriptionCursor?, signature: String?) -> SubscriptionCursor? {
    if case .offset(let offset, _)? = held { return .offset(offset, signature: signature) }
    return held
  }

  /// What follows a history frame.
  enum HistoryFollowUp {
    /// Nothing: the session is complete.
    case done
    /// Arm the continuation retry timer (the continuation did not advance).
    case retryLater
    /// Ask for the rest now.
    case continueNow
  }

  /// Fills `update` (made with the frame's session and typed messages) with what a history frame
  /// changes, the cursor included, and says what follows; `sub` is updated (cursor, delivered
  /// positions, continuation state).
  static func apply(
    _ frame: HistoryFrame, to sub: inout Subscription, update: inout SessionUpdate, family: VersionFamily
  ) -> HistoryFollowUp {
    var next = HistoryFollowUp.done
    switch family {
    case .messageId:
      applyMessageId(
        frame.messages, session: frame.sessionId, newest: frame.newestMessageId, isComplete: frame.isComplete,
        to: &sub, update: &update)
    case .seq:
      var last = 0
      if case .lastSeq(let n)? = sub.cursor { last = n }
      if frame.gap?.reason == .clientAhead, let next = frame.nextSeq, next >= 1 {
        // seq is 1-based: a `next_seq` below 1 is not trusted (no purge, the cursor stays), and
        // `next - 1` cannot overflow.
        update.purge = .from(next)
        sub.delivered.removeAll { $0 >= next }
        last = next - 1
      }
      classify(frame.messages, session: frame.sessionId, into: &update, sub: &sub)
      if let l = frame.lastSeq { last = max(last, l) }
      sub.cursor = .lastSeq(last)
      let complete = frame.isComplete ?? true
      sub.continuing = !complete
      if !complete {
        if let asked = sub.requestedFrom, last <= asked { next = .retryLater } else { next = .continueNow }
      }
      update.isComplete = complete && next == .done
    case .offset:
      var held = 0
      if case .offset(let n, _)? = sub.cursor { held = n }
      // Only a digest of the signature is kept (``SignatureDigest``); the update's cursor carries
      // this frame's own signature text, for the application to persist.
      let receivedDigest = frame.fileSignature.map(SignatureDigest.init)
      let replaced: Bool
      if frame.fileReplaced == true {
        replaced = true
      } else if let seen = sub.signature, let receivedDigest {
        replaced = seen.isReplaced(by: receivedDigest)
      } else {
        replaced = false
      }
      if let receivedDigest { sub.signature = receivedDigest }
      if replaced {
        // Nothing of this frame is delivered: the whole file is fetched again from offset 0.
        update.messages = update.messages.selecting([])
        update.purge = .all
        sub.delivered.removeAll()
        sub.cursor = .offset(0, signature: nil)
        sub.continuing = true
        update.cursor = .offset(0, signature: frame.fileSignature)
        update.isComplete = false
        return .continueNow
      }
      // A negative `next_offset` is not trusted (no purge from it, no negative cursor): as if absent.
      let nextOffset = frame.nextOffset.flatMap { $0 >= 0 ? $0 : nil } ?? held
      if nextOffset < held {
        update.purge = .from(nextOffset)
        sub.delivered.removeAll { $0 >= nextOffset }
        held = nextOffset
      }
      classify(frame.messages, session: frame.sessionId, into: &update, sub: &sub)
      held = max(held, nextOffset)
      sub.cursor = .offset(held, signature: nil)
      let endOfFile = frame.endOfFile ?? true
      sub.continuing = !endOfFile
      if !endOfFile {
        if let asked = sub.requestedFrom, nextOffset <= asked { next = .retryLater } else { next = .continueNow }
      }
      update.isComplete = endOfFile
    }
    update.cursor = deliveredCursor(sub.cursor, signature: frame.fileSignature)
    return next
  }

  /// Sorts `messages` into inserts and replaces by their position (indices into `messages`); drops
  /// those without one or (from 0.4.0, where messages carry `session_id`) of another session (an id
  /// of other scalars, as ``SessionKey`` compares ids). The position (``Subscription/delivered``) is
  /// ``PositionHash`` of the `uuid` (0.2.0/0.3.0), the `seq` (0.4.0) or the `offset` (0.5.0); a
  /// negative `seq` or `offset` is no position.
  static func classify(
    _ messages: SessionMessages, session: String, into update: inout SessionUpdate, sub: inout Subscription
  ) {
    update.insertIndices.reserveCapacity(messages.count)
    sub.delivered.reserve(messages.count)
    // Every message is read in place through its array's buffer, in every version: a copy of the
    // message (`records[index].uuidPosition`) retained and released each member it holds, touching
    // each member's heap header (a record's JSON text, far from anything the engine reads otherwise).
    switch messages {
    case .v0_2_0(let records):
      records.withUnsafeBufferPointer { records in
        for index in records.indices { record(records[index].uuidPosition, at: index, into: &update, sub: &sub) }
      }
    case .v0_3_0(let canonical):
      canonical.withUnsafeBufferPointer { canonical in
        for index in canonical.indices {
          record(PositionHash.of(canonical[index].uuid), at: index, into: &update, sub: &sub)
        }
      }
    case .v0_3_0Updated(let either):
      either.withUnsafeBufferPointer { either in
        for index in either.indices {
          switch either[index] {
          case .historyMessage(let m): record(PositionHash.of(m.uuid), at: index, into: &update, sub: &sub)
          case .claudeRecord(let r): record(r.uuidPosition, at: index, into: &update, sub: &sub)
          }
        }
      }
    case .v0_4_0(let positioned):
      // Each member read in place through the buffer (a copy of the message would retain every
      // member it holds, and even reading its `session_id` out retained and released it); the
      // session compared by its exact bytes, as every session id is (``SessionKey``).
      SessionBytes.with(session) { session in
        positioned.withUnsafeBufferPointer { messages in
          for index in messages.indices {
            let seq = messages[index].seq
            let ours = seq >= 0 && SessionBytes.same(messages[index].sessionId, session)
            record(ours ? seq : nil, at: index, into: &update, sub: &sub)
          }
        }
      }
    case .v0_5_0(let positioned):
      SessionBytes.with(session) { session in
        positioned.withUnsafeBufferPointer { messages in
          for index in messages.indices {
            let offset = messages[index].offset
            let ours = offset >= 0 && SessionBytes.same(messages[index].sessionId, session)
            record(ours ? offset : nil, at: index, into: &update, sub: &sub)
          }
        }
      }
    }
  }

  /// Message `index` at `position` is an insert (never delivered) or a replace; without one it is dropped.
  @inline(__always)
  static func record(_ position: Int?, at index: Int, into update: inout SessionUpdate, sub: inout Subscription) {
    guard let position else {
      update.dropped += 1
      return
    }
    if sub.delivered.insert(position) {
      update.insertIndices.append(index)
    } else {
      update.replaceIndices.append(index)
    }
  }
}
