import VCProtoCore
import VCProtoJSON

/// Where a subscription resumes, per protocol version: what the client holds of a session.
public enum SubscriptionCursor: Sendable, Hashable {
  /// 0.2.0/0.3.0: the newest message id held (`subscribe.last_message_id`).
  case lastMessageId(String)
  /// 0.4.0: the highest `seq` held (`subscribe.last_seq`).
  case lastSeq(Int)
  /// 0.5.0: the next line offset to read (`subscribe.from_offset`) and the last `file_signature` seen.
  case offset(Int, signature: String?)
}

/// How a protocol version identifies messages of a session.
enum VersionFamily: Sendable, Hashable {
  /// 0.2.0, 0.3.0: by message id (`uuid`).
  case messageId
  /// 0.4.0: by `seq`.
  case seq
  /// 0.5.0 and later: by line `offset`.
  case offset

  init(_ version: ProtocolVersion) {
    switch version {
    case .v0_2_0, .v0_3_0: self = .messageId
    case .v0_4_0: self = .seq
    case .v0_5_0: self = .offset
    }
  }

  /// The first version of the `seq` family, for ordering a version a peer announced.
  static let seqFrom = ProtocolVersion.v0_4_0.number
}
