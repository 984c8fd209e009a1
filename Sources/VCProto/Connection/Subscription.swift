/// The client's view of one subscribed session.
struct Subscription: Sendable, Hashable {
  /// What the client holds (what the next `subscribe` resumes from). A 0.5.0 cursor's `signature` is
  /// always `nil` here: the last signature seen is kept as ``signature``, in fixed size.
  var cursor: SubscriptionCursor?
  /// The last `file_signature` seen (received, or given with the application's cursor), as a digest.
  var signature: SignatureDigest?
  /// Positions delivered: `seq` or `offset`, or for 0.2.0/0.3.0 ``PositionHash`` of the uuid (a collision could
  /// only turn an insert into a replace, which an upserting app applies the same way).
  var delivered: PositionWindow
  /// The `from_offset`/`last_seq` of the subscribe in flight, for continuation and client-ahead checks.
  var requestedFrom: Int?
  /// A continuation (0.4.0 `is_complete:false`, 0.5.0 `end_of_file:false`) is being fetched.
  var continuing = false

  init(cursor: SubscriptionCursor?, window: Int) {
    delivered = PositionWindow(capacity: window)
    resume(from: cursor)
  }

  /// Takes the application's cursor, keeping only a digest of its signature.
  mutating func resume(from cursor: SubscriptionCursor?) {
    if case .offset(let offset, let text?)? = cursor {
      self.cursor = .offset(offset, signature: nil)
      signature = SignatureDigest(text)
    } else {
      self.cursor = cursor
      signature = nil
    }
  }

  mutating func resetForReconnect() {
    requestedFrom = nil
    continuing = false
  }
}
