extension ClientEngine {
  mutating func subscribe(_ id: String, cursor: SubscriptionCursor?, now: Int64, _ out: inout [ClientAction]) {
    if subscriptions[id] == nil {
      guard subscriptionOrder.count < configuration.maxSubscriptions else { return }
      subscriptionOrder.append(id)
      subscriptions[id] = Subscription(cursor: cursor, window: configuration.dedupWindow)
    } else if let cursor {
      subscriptions[id]?.resume(from: cursor)
    }
    if state == .ready { sendSubscribe(id, &out) }
  }

  mutating func unsubscribe(_ id: String, _ out: inout [ClientAction]) {
    guard subscriptions.removeValue(forKey: id) != nil else { return }
    subscriptionOrder.removeAll { $0 == id }
    cancel(.continuation(sessionId: id), &out)
    if state == .ready { out.append(.send(.frame("unsubscribe", ["session_id": .string(id)]))) }
  }

  /// `subscribe` for `id` in the negotiated version's terms. 0.5.0 never sends
  /// `file_signature_seen`: the real server compares it byte for byte with a signature that changes
  /// on every append, so sending it turns every resume into a full reload (the engine detects a
  /// replaced file from the reply's signature instead; see ``FileSignature``).
  mutating func sendSubscribe(_ id: String, _ out: inout [ClientAction]) {
    guard negotiatedVersion != nil, var sub = subscriptions[id] else { return }
    var frame = JSONObject.frame("subscribe", ["session_id": .string(id)])
    switch family {
    case .messageId:
      if case .lastMessageId(let last)? = sub.cursor { frame["last_message_id"] = .string(last) }
      sub.requestedFrom = nil
    case .seq:
      var last = 0
      if case .lastSeq(let n)? = sub.cursor { last = n }
      frame["last_seq"] = JSONValue(integerLiteral: last)
      sub.requestedFrom = last
    case .offset:
      var from = 0
      if case .offset(let n, _)? = sub.cursor { from = n }
      frame["from_offset"] = JSONValue(integerLiteral: from)
      sub.requestedFrom = from
    }
    cancel(.continuation(sessionId: id), &out)
    subscriptions[id] = sub
    out.append(.send(frame))
  }

  /// A `session_history` (or 0.2.0/0.3.0 `session_updated`): `true` when it was a subscribed session's
  /// and became a ``SessionUpdate``.
  mutating func onHistory(_ frame: JSONObject, now: Int64, _ out: inout [ClientAction]) -> Bool {
    guard negotiatedVersion != nil, let id = frame["session_id"]?.stringValue,
      let index = subscriptions.index(forKey: id), let messages = frame["messages"]?.arrayValue
    else { return false }
    // The subscription is changed in place (one hash lookup, no copy of its tables); the timers and
    // the follow-up `subscribe` come after, once that access has ended.
    let (update, next) = Self.apply(
      frame, messages: messages, to: &subscriptions.values[index], family: family, sessionId: id)
    // The update moves into the action (`consume`: no copy of its members, no reference counts).
    switch next {
    case .done:
      out.append(.deliver(.sessionUpdate(consume update)))
    case .retryLater:
      // A half-written last line: nothing advanced. Ask again shortly instead of looping or giving up.
      arm(.continuation(sessionId: id), at: now.addingSaturating(configuration.timing.continuationRetryMs), &out)
      out.append(.deliver(.sessionUpdate(consume update)))
    case .continueNow:
      out.append(.deliver(.sessionUpdate(consume update)))
      sendSubscribe(id, &out)
    }
    return true
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

  /// The update a history frame makes, and what follows it; `sub` is updated (cursor, delivered
  /// positions, continuation state).
  static func apply(
    _ frame: JSONObject, messages: [JSONValue], to sub: inout Subscription, family: VersionFamily,
    sessionId id: String
  ) -> (SessionUpdate, HistoryFollowUp) {
    var update = SessionUpdate(
      sessionId: id, messages: messages, insertIndices: [], replaceIndices: [], cursor: sub.cursor)
    var next = HistoryFollowUp.done
    // 0.5.0: the frame's `file_signature` (read once; the update's cursor carries it).
    var signature: String?
    switch family {
    case .messageId:
      classify(messages, family: family, session: id, into: &update, sub: &sub)
      let newest =
        frame["newest_message_id"]?.stringValue
        ?? update.insertIndices.last.flatMap { messages[$0]["uuid"]?.stringValue }
      // A server picks the id's length; one over the cap is not kept (a full reload is always right).
      if let newest { sub.cursor = newest.utf8.count <= maxCursorIdBytes ? .lastMessageId(newest) : nil }
      update.isComplete = frame["is_complete"]?.boolValue ?? true
    case .seq:
      var last = 0
      if case .lastSeq(let n)? = sub.cursor { last = n }
      if let gap = frame["gap"]?.objectValue {
        update.gap = gap
        if gap["reason"]?.stringValue == "client_ahead", let next = frame["next_seq"]?.intValue {
          update.purge = .from(next)
          sub.delivered.removeAll { $0 >= next }
          last = next - 1
        }
      }
      classify(messages, family: family, session: id, into: &update, sub: &sub)
      if let l = frame["last_seq"]?.intValue { last = max(last, l) }
      sub.cursor = .lastSeq(last)
      let complete = frame["is_complete"]?.boolValue ?? true
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
      let received = frame["file_signature"]?.stringValue
      signature = received
      let receivedDigest = received.map(SignatureDigest.init)
      let replaced: Bool
      if frame["file_replaced"]?.boolValue == true {
        replaced = true
      } else if let seen = sub.signature, let receivedDigest {
        replaced = seen.isReplaced(by: receivedDigest)
      } else {
        replaced = false
      }
      if let receivedDigest { sub.signature = receivedDigest }
      if replaced {
        // Nothing of this frame is delivered: the whole file is fetched again from offset 0.
        update.messages = []
        update.purge = .all
        sub.delivered.removeAll()
        sub.cursor = .offset(0, signature: nil)
        sub.continuing = true
        update.cursor = .offset(0, signature: received)
        update.isComplete = false
        return (update, .continueNow)
      }
      let nextOffset = frame["next_offset"]?.intValue ?? held
      if nextOffset < held {
        update.purge = .from(nextOffset)
        sub.delivered.removeAll { $0 >= nextOffset }
        held = nextOffset
      }
      classify(messages, family: family, session: id, into: &update, sub: &sub)
      held = max(held, nextOffset)
      sub.cursor = .offset(held, signature: nil)
      let endOfFile = frame["end_of_file"]?.boolValue ?? true
      sub.continuing = !endOfFile
      if !endOfFile {
        if let asked = sub.requestedFrom, nextOffset <= asked { next = .retryLater } else { next = .continueNow }
      }
      update.isComplete = endOfFile
    }
    update.cursor = sub.cursor
    if case .offset(let offset, _)? = update.cursor {
      // 0.5.0 read the frame's signature above; on another family the cursor can still be an offset
      // (the application's, kept from a 0.5.0 connection) and takes the frame's signature all the same.
      let signature = family == .offset ? signature : frame["file_signature"]?.stringValue
      update.cursor = .offset(offset, signature: signature)
    }
    return (update, next)
  }

  /// Sorts `messages` into inserts and replaces by their position (indices into `messages`); drops
  /// those without one or (from 0.4.0, where messages carry `session_id`) of another session.
  static func classify(
    _ messages: [JSONValue], family: VersionFamily, session: String, into update: inout SessionUpdate,
    sub: inout Subscription
  ) {
    update.insertIndices.reserveCapacity(messages.count)
    sub.delivered.reserve(messages.count)
    // One small loop per family: in one loop for all three the compiler stops inlining the readers
    // (the function grows too large), and every call left copies the message it borrows.
    switch family {
    case .messageId: classifyByUUID(messages, into: &update, sub: &sub)
    case .seq: classifyByInteger(messages, named: "seq", session: session, into: &update, sub: &sub)
    case .offset: classifyByInteger(messages, named: "offset", session: session, into: &update, sub: &sub)
    }
  }

  /// ``classify(_:family:session:into:sub:)`` for 0.2.0/0.3.0: by ``PositionHash`` of the `uuid`.
  @inline(never)
  static func classifyByUUID(_ messages: [JSONValue], into update: inout SessionUpdate, sub: inout Subscription) {
    for index in messages.indices {
      guard case .object(let message) = messages[index], let position = message.uuidPosition else {
        update.dropped += 1
        continue
      }
      if sub.delivered.insert(position) {
        update.insertIndices.append(index)
      } else {
        update.replaceIndices.append(index)
      }
    }
  }

  /// ``classify(_:family:session:into:sub:)`` for 0.4.0 and later: by the integer member `name`,
  /// dropping messages whose `session_id` names another session.
  @inline(never)
  static func classifyByInteger(
    _ messages: [JSONValue], named name: String, session: String, into update: inout SessionUpdate,
    sub: inout Subscription
  ) {
    for index in messages.indices {
      var position: Int?
      if case .object(let message) = messages[index] {
        switch message.inPlacePosition(named: name, session: session) {
        case .position(let found): position = found
        case .absent: position = nil
        case .undecided: position = plainPosition(of: messages[index], named: name, session: session)
        }
      }
      guard let position else {
        update.dropped += 1
        continue
      }
      if sub.delivered.insert(position) {
        update.insertIndices.append(index)
      } else {
        update.replaceIndices.append(index)
      }
    }
  }

  /// The position `classifyByInteger` takes when reading in place cannot decide: the integer member
  /// `name`, or `nil` when there is none or the message's `session_id` is another session's.
  @inline(never)
  static func plainPosition(of message: JSONValue, named name: String, session: String) -> Int? {
    guard let message = message.objectValue, let position = message[name]?.intValue else { return nil }
    if let owner = message["session_id"]?.stringValue, owner != session { return nil }
    return position
  }
}
