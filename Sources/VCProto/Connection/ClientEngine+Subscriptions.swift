extension ClientEngine {
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
    emit(Self.subscribeFrame(id, request), &out)
  }

  /// Adds a subscription to `key`'s session (not yet subscribed), last in the order; returns its
  /// position in ``subscriptions``.
  @discardableResult
  mutating func addSubscription(_ key: consuming SessionKey, cursor: SubscriptionCursor?) -> Int {
    let serial = nextSubscriptionSerial
    nextSubscriptionSerial += 1
    return subscriptions.append(key, Subscription(cursor: cursor, window: configuration.dedupWindow, serial: serial))
  }

  /// The `subscribe` frame for `id`, asking for `request` (``Subscription/beginRequest(_:)``): `type`,
  /// `session_id`, then the resume member, if any (one allocation of the right size: appending to a
  /// two-member literal would grow it).
  static func subscribeFrame(_ id: String, _ request: Subscription.Request) -> JSONObject {
    let type = JSONObject.Member(key: "type", value: "subscribe")
    let session = JSONObject.Member(key: "session_id", value: .string(id))
    let resume: JSONObject.Member
    switch request {
    case .everything: return JSONObject([type, session])
    case .lastMessageId(let last): resume = JSONObject.Member(key: "last_message_id", value: .string(last))
    case .lastSeq(let last): resume = JSONObject.Member(key: "last_seq", value: JSONValue(integerLiteral: last))
    case .fromOffset(let from): resume = JSONObject.Member(key: "from_offset", value: JSONValue(integerLiteral: from))
    }
    return JSONObject([type, session, resume])
  }

  /// The subscribed session ids in the order they were subscribed to.
  func subscriptionIdsInOrder() -> [String] {
    var order: [(serial: Int, id: String)] = []
    order.reserveCapacity(subscriptions.count)
    for index in subscriptions.indices { order.append((subscriptions[index].serial, subscriptions.id(at: index))) }
    return order.sorted { $0.serial < $1.serial }.map(\.id)
  }

  mutating func unsubscribe(_ id: String, _ out: inout [ClientAction]) {
    guard subscriptions.remove(SessionKey(id)) else { return }
    cancel(.continuation(sessionId: id), &out)
    if state == .ready { emit(.frame("unsubscribe", "session_id", .string(id)), &out) }
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
  mutating func sendSubscribe(
    _ id: String, at index: Int, _ out: inout [ClientAction]
  ) {
    guard negotiatedVersion != nil else { return }
    // Changed in place: reading the subscription out would copy all of it.
    let request = subscriptions[index].beginRequest(family)
    cancel(.continuation(sessionId: id), &out)
    emit(Self.subscribeFrame(id, request), &out)
  }

  /// A `session_history` (or 0.2.0/0.3.0 `session_updated`): `true` when it was handled: a subscribed
  /// session's became a ``SessionUpdate``; a `session_history` of a session not subscribed is
  /// dropped and reported (``FindingCode/unsubscribedSessionData``), never delivered.
  mutating func onHistory(
    _ frame: JSONObject, typed: ServerMessage, now: Int64, _ out: inout [ClientAction]
  ) -> Bool {
    let fields = HistoryFrame(frame)
    guard negotiatedVersion != nil, let id = fields[fields.sessionId]?.stringValue,
      let messages = fields[fields.messages]?.arrayValue, let typedMessages = SessionMessages(of: typed)
    else { return false }
    guard let index = subscriptions.index(of: SessionKey(id)) else {
      guard case .sessionHistory = typed else { return false }
      let finding = Finding(
        .error, .unsubscribedSessionData, pointer: "/session_id", messageType: "session_history",
        message: "session_history for a session the client is not subscribed to")
      violation([finding], type: "session_history", now: now, &out)
      return true
    }
    // The subscription is changed in place (one hash lookup, no copy of its tables); the timers and
    // the follow-up `subscribe` come after, once that access has ended. The update is built here and
    // filled in place (returning it would copy it).
    // (`apply` sets the update's cursor.)
    var update = SessionUpdate(
      sessionId: id, messages: typedMessages, insertIndices: [], replaceIndices: [], cursor: nil)
    if case .sessionHistory(.v0_4_0(let history)) = typed { update.gap = history.gap }
    let next = Self.apply(fields, messages: messages, to: &subscriptions[index], update: &update, family: family)
    if next == .retryLater {
      // A half-written last line: nothing advanced. Ask again shortly instead of looping or giving up.
      arm(.continuation(sessionId: id), at: now.addingSaturating(configuration.timing.continuationRetryMs), &out)
    }
    // The update moves into its action (`consume`: no copy of its members, no reference counts).
    out.append(.deliver(.sessionUpdate(consume update)))
    if next == .continueNow { sendSubscribe(id, at: index, &out) }
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

  /// Fills `update` (made with the frame's session and typed messages) with what a history frame
  /// changes, the cursor included, and says what follows; `sub` is updated (cursor, delivered
  /// positions, continuation state). `messages` is the frame's `messages` array.
  static func apply(
    _ frame: HistoryFrame, messages: [JSONValue], to sub: inout Subscription, update: inout SessionUpdate,
    family: VersionFamily
  ) -> HistoryFollowUp {
    let id = update.sessionId
    var next = HistoryFollowUp.done
    // 0.5.0: the frame's `file_signature` (read once; the update's cursor carries it).
    var signature: String?
    switch family {
    case .messageId:
      classify(messages, family: family, session: id, into: &update, sub: &sub)
      let newest =
        frame[frame.newestMessageId]?.stringValue
        ?? update.insertIndices.last.flatMap { messages[$0]["uuid"]?.stringValue }
      // A server picks the id's length; one over the cap is not kept (a full reload is always right).
      if let newest { sub.cursor = newest.utf8.count <= maxCursorIdBytes ? .lastMessageId(newest) : nil }
      update.isComplete = frame[frame.isComplete]?.boolValue ?? true
    case .seq:
      var last = 0
      if case .lastSeq(let n)? = sub.cursor { last = n }
      if let gap = frame[frame.gap]?.objectValue {
        // seq is 1-based: a `next_seq` below 1 is not trusted (no purge, the cursor stays; the
        // validator reports it), and `next - 1` cannot overflow.
        if gap["reason"]?.stringValue == "client_ahead", let next = frame[frame.nextSeq]?.intValue, next >= 1 {
          update.purge = .from(next)
          sub.delivered.removeAll { $0 >= next }
          last = next - 1
        }
      }
      classify(messages, family: family, session: id, into: &update, sub: &sub)
      if let l = frame[frame.lastSeq]?.intValue { last = max(last, l) }
      sub.cursor = .lastSeq(last)
      let complete = frame[frame.isComplete]?.boolValue ?? true
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
      let received = frame[frame.fileSignature]?.stringValue
      signature = received
      let receivedDigest = received.map(SignatureDigest.init)
      let replaced: Bool
      if frame[frame.fileReplaced]?.boolValue == true {
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
        update.cursor = .offset(0, signature: received)
        update.isComplete = false
        return .continueNow
      }
      // A negative `next_offset` is not trusted (no purge from it, no negative cursor): as if absent.
      let nextOffset = frame[frame.nextOffset]?.intValue.flatMap { $0 >= 0 ? $0 : nil } ?? held
      if nextOffset < held {
        update.purge = .from(nextOffset)
        sub.delivered.removeAll { $0 >= nextOffset }
        held = nextOffset
      }
      classify(messages, family: family, session: id, into: &update, sub: &sub)
      held = max(held, nextOffset)
      sub.cursor = .offset(held, signature: nil)
      let endOfFile = frame[frame.endOfFile]?.boolValue ?? true
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
      let signature = family == .offset ? signature : frame[frame.fileSignature]?.stringValue
      update.cursor = .offset(offset, signature: signature)
    }
    return next
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
      guard case .object(let message) = messages[index] else {
        update.dropped += 1
        continue
      }
      record(message.uuidPosition, at: index, into: &update, sub: &sub)
    }
  }

  /// ``classify(_:family:session:into:sub:)`` for 0.4.0 and later: by the integer member `name`,
  /// dropping messages whose `session_id` names another session or whose position is negative.
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
      // A negative seq or offset is no position (never trusted; the validator reports it).
      if let found = position, found < 0 { position = nil }
      record(position, at: index, into: &update, sub: &sub)
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

  /// The position `classifyByInteger` takes when reading in place cannot decide: the integer member
  /// `name`, or `nil` when there is none or the message's `session_id` is another session's.
  @inline(never)
  static func plainPosition(of message: JSONValue, named name: String, session: String) -> Int? {
    guard let message = message.objectValue, let position = message[name]?.intValue else { return nil }
    if let owner = message["session_id"]?.stringValue, owner != session { return nil }
    return position
  }
}
