/// The client's view of one subscribed session.
struct Subscription: Sendable, Hashable {
  /// What the client holds (what the next `subscribe` resumes from).
  var cursor: SubscriptionCursor?
  /// Positions delivered (uuid for 0.2.0/0.3.0, seq or offset as a decimal string otherwise).
  var delivered: BoundedSet<String>
  /// The `from_offset`/`last_seq` of the subscribe in flight, for continuation and client-ahead checks.
  var requestedFrom: Int?
  /// A continuation (0.4.0 `is_complete:false`, 0.5.0 `end_of_file:false`) is being fetched.
  var continuing = false

  init(cursor: SubscriptionCursor?, window: Int) {
    self.cursor = cursor
    delivered = BoundedSet(capacity: window)
  }

  mutating func resetForReconnect() {
    requestedFrom = nil
    continuing = false
  }
}
