extension ClientEngine {
  mutating func subscribe(_ id: String, cursor: SubscriptionCursor?, now: Int64, _ out: inout [ClientAction]) {
    if subscriptions[id] == nil {
      guard subscriptionOrder.count < configuration.maxSubscriptions else { return }
      subscriptionOrder.append(id)
      subscriptions[id] = Subscription(cursor: cursor, window: configuration.dedupWindow)
    } else if let cursor {
      subscriptions[id]?.cursor = cursor
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
    guard let id = frame["session_id"]?.stringValue, subscriptions[id] != nil, negotiatedVersion != nil,
      let messages = frame["messages"]?.arrayValue
    else { return false }
    // Taken out of the dictionary while it changes, so its tables are not copied on write; every path
    // below puts it back (before any `sendSubscribe`, which reads it).
    var sub = subscriptions.removeValue(forKey: id)!
    var update = SessionUpdate(sessionId: id, cursor: sub.cursor ?? .lastSeq(0))
    switch family {
    case .messageId:
      classify(messages, family: family, session: id, into: &update, sub: &sub)
      let newest = frame["newest_message_id"]?.stringValue ?? update.insert.last?["uuid"]?.stringValue
      if let newest { sub.cursor = .lastMessageId(newest) }
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
      sub.continuing = false
      if !complete {
        if let asked = sub.requestedFrom, last <= asked {
          sub.continuing = true
          arm(.continuation(sessionId: id), at: now + configuration.timing.continuationRetryMs, &out)
        } else {
          sub.continuing = true
          subscriptions[id] = sub
          update.cursor = .lastSeq(last)
          update.isComplete = false
          out.append(.deliver(.sessionUpdate(update)))
          sendSubscribe(id, &out)
          return true
        }
      }
      update.isComplete = complete
    case .offset:
      var held = 0
      var signature: String?
      if case .offset(let n, let s)? = sub.cursor { (held, signature) = (n, s) }
      let received = frame["file_signature"]?.stringValue
      let replaced =
        frame["file_replaced"]?.boolValue == true
        || (signature != nil && received != nil && FileSignature.isReplacement(seen: signature!, current: received!))
      if replaced {
        update.purge = .all
        sub.delivered.removeAll()
        sub.cursor = .offset(0, signature: received)
        sub.continuing = true
        subscriptions[id] = sub
        update.cursor = .offset(0, signature: received)
        update.isComplete = false
        out.append(.deliver(.sessionUpdate(update)))
        sendSubscribe(id, &out)
        return true
      }
      let next = frame["next_offset"]?.intValue ?? held
      if next < held {
        update.purge = .from(next)
        sub.delivered.removeAll { $0 >= next }
        held = next
      }
      classify(messages, family: family, session: id, into: &update, sub: &sub)
      held = max(held, next)
      sub.cursor = .offset(held, signature: received ?? signature)
      let endOfFile = frame["end_of_file"]?.boolValue ?? true
      sub.continuing = !endOfFile
      if !endOfFile {
        if let asked = sub.requestedFrom, next <= asked {
          // A half-written last line: nothing advanced. Ask again shortly instead of looping or giving up.
          arm(.continuation(sessionId: id), at: now + configuration.timing.continuationRetryMs, &out)
        } else {
          subscriptions[id] = sub
          update.cursor = sub.cursor!
          update.isComplete = false
          out.append(.deliver(.sessionUpdate(update)))
          sendSubscribe(id, &out)
          return true
        }
      }
      update.isComplete = endOfFile
    }
    update.cursor = sub.cursor ?? update.cursor
    subscriptions[id] = sub
    out.append(.deliver(.sessionUpdate(update)))
    return true
  }

  /// Sorts `messages` into inserts and replaces by their position; drops those without one or (from
  /// 0.4.0, where messages carry `session_id`) of another session.
  func classify(
    _ messages: [JSONValue], family: VersionFamily, session: String, into update: inout SessionUpdate,
    sub: inout Subscription
  ) {
    update.insert.reserveCapacity(messages.count)
    for value in messages {
      guard let message = value.objectValue else {
        update.dropped += 1
        continue
      }
      let position: Int?
      switch family {
      case .messageId: position = message["uuid"]?.stringValue?.hashValue
      case .seq: position = message["seq"]?.intValue
      case .offset: position = message["offset"]?.intValue
      }
      guard let position else {
        update.dropped += 1
        continue
      }
      if family != .messageId, let owner = message["session_id"]?.stringValue, owner != session {
        update.dropped += 1
        continue
      }
      if sub.delivered.insert(position) {
        update.insert.append(message)
      } else {
        update.replace.append(message)
      }
    }
  }
}
