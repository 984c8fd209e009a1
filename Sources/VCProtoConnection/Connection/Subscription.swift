import VCProtoCore
import VCProtoJSON

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

  /// The order of subscribing (``ClientEngine/nextSubscriptionSerial`` when it was added): after a
  /// reconnect, `subscribe` frames go out in this order.
  let serial: Int

  init(cursor: SubscriptionCursor?, window: Int, serial: Int) {
    self.serial = serial
    delivered = PositionWindow(capacity: window)
    resume(from: cursor)
  }

  /// Takes the application's cursor, keeping only a digest of its signature; a negative position
  /// is none (the whole history), never sent.
  mutating func resume(from cursor: SubscriptionCursor?) {
    switch cursor {
    case .lastSeq(let n)? where n < 0, .offset(let n, _)? where n < 0:
      self.cursor = nil
      signature = nil
    case .offset(let offset, let text?)?:
      self.cursor = .offset(offset, signature: nil)
      signature = SignatureDigest(text)
    default:
      self.cursor = cursor
      signature = nil
    }
  }

  /// What a `subscribe` asks from, in the negotiated version's terms (``beginRequest(_:)``).
  ///
  /// An enum of plain values rather than the optional frame member it becomes: copying and destroying
  /// a `JSONObject.Member?` went through the runtime's generic `Optional` witnesses (type metadata
  /// looked up, about two hundred and fifty instructions a `subscribe`).
  enum Request: Sendable, Equatable {
    /// 0.2.0/0.3.0 without a `last_message_id` cursor: the whole history (no resume member).
    case everything
    /// 0.2.0/0.3.0 `last_message_id`.
    case lastMessageId(String)
    /// 0.4.0 `last_seq`.
    case lastSeq(Int)
    /// 0.5.0 `from_offset`.
    case fromOffset(Int)
  }

  /// Records the position a `subscribe` about to be sent asks from (``requestedFrom``) and returns
  /// what it asks for in `family`'s terms.
  mutating func beginRequest(_ family: VersionFamily) -> Request {
    switch family {
    case .messageId:
      requestedFrom = nil
      guard case .lastMessageId(let last)? = cursor else { return .everything }
      return .lastMessageId(last)
    case .seq:
      var last = 0
      if case .lastSeq(let n)? = cursor { last = n }
      requestedFrom = last
      return .lastSeq(last)
    case .offset:
      var from = 0
      if case .offset(let n, _)? = cursor { from = n }
      requestedFrom = from
      return .fromOffset(from)
    }
  }

  mutating func resetForReconnect() {
    requestedFrom = nil
    continuing = false
  }
}
