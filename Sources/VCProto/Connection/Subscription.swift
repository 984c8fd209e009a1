/// The client's view of one subscribed session.
struct Subscription: Sendable, Hashable {
  /// What the client holds (what the next `subscribe` resumes from).
  var cursor: SubscriptionCursor?
  /// Positions delivered: `seq` or `offset`, or for 0.2.0/0.3.0 ``PositionHash`` of the uuid (a collision could
  /// only turn an insert into a replace, which an upserting app applies the same way).
  var delivered: BoundedSet<Int>
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
