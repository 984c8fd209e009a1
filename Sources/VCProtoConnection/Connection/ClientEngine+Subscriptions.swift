import VCProtoCore
import VCProtoJSON

extension ClientEngine {
  @inline(never)
  mutating func subscribe(_ id: String, cursor: SubscriptionCursor?, now: Int64, _ out: inout ClientActions) {
    let key = SessionKey(id)
    let ready = state == .ready && negotiatedVersion != nil
    let index: Int
    // One probe finds the subscription or where a new one goes.
    switch subscriptions.place(of: key) {
    case .held(let held):
      index = held
      if ready { cancel(.continuation(sessionId: id), &out) }
    case .free(let slot):
      // Full: only a subscription already held is resumed.
      guard subscriptions.count < configuration.maxSubscriptions else { return }
      // A new subscription has no continuation timer to cancel (`unsubscribe` cancelled any).
      assert(armed[.continuation(sessionId: id)] == nil, "a continuation timer without a subscription")
      let fresh = newSubscription(cursor: nil)
      index = subscriptions.add(key, fresh, at: slot)
    }
    // Changed in place: the cursor taken and, when ready, the request begun.
    if let cursor { subscriptions[index].resume(from: cursor) }
    guard ready else { return }
    let request = subscriptions[index].beginRequest(family)
    emitSubscribe(id, request, &out)
  }

  /// Adds a subscription to `key`'s session (not yet subscribed), last in the order; returns its
  /// position in ``subscriptions``.
  @discardableResult
  mutating func addSubscription(_ key: consuming SessionKey, cursor: SubscriptionCursor?) -> Int {
    subscriptions.append(key, newSubscription(cursor: cursor))
  }

  /// A subscription to a session not yet subscribed, next in the order (it takes the next
  /// ``Subscription/serial``).
  mutating func newSubscription(cursor: SubscriptionCursor?) -> Subscription {
    let serial = nextSubscriptionSerial
    nextSubscriptionSerial += 1
    return Subscription(cursor: cursor, window: configuration.dedupWindow, serial: serial)
  }

  /// The `subscribe` for `id` asking for `request` (``Subscription/beginRequest(_:)``), typed as
  /// `family`'s versions type it: `type`, `session_id`, then the resume member, if any (what
  /// ``emitSubscribe(_:_:_:)`` writes without building it).
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
  mutating func unsubscribe(_ id: String, _ out: inout ClientActions) {
    guard subscriptions.remove(id: id) else { return }
    cancel(.continuation(sessionId: id), &out)
    if state == .ready { emitUnsubscribe(id, &out) }
  }

  /// `subscribe` for `id` in the negotiated version's terms. 0.5.0 never sends
  /// `file_signature_seen`: the real server compares it byte for byte with a signature that changes
  /// on every append, so sending it turns every resume into a full reload (the engine detects a
  /// replaced file from the reply's signature instead; see ``FileSignature``).
  mutating func sendSubscribe(_ id: String, _ out: inout ClientActions) {
    guard let index = subscriptions.index(ofId: id) else { return }
    sendSubscribe(id, at: index, &out)
  }

  /// ``sendSubscribe(_:_:)`` for the subscription at `index` of ``subscriptions`` (changed in place).
  @inline(never)
  mutating func sendSubscribe(
    _ id: String, at index: Int, _ out: inout ClientActions
  ) {
    guard negotiatedVersion != nil else { return }
    // Changed in place: reading the subscription out would copy all of it.
    let request = subscriptions[index].beginRequest(family)
    cancel(.continuation(sessionId: id), &out)
    emitSubscribe(id, request, &out)
  }
}
