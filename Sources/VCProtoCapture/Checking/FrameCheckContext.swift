import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// What checking a frame on its own (``FrameChecker/check(_:protocolVersion:needsMessage:)``) depends
/// on besides the frame: the version its connection has reached and whether the conversation needs
/// its parsed message. Equal contexts give equal outcomes for the same frame.
struct FrameCheckContext: Hashable, Sendable {
  /// The version the frame is checked against.
  var version: ProtocolVersion
  /// Whether the outcome must carry the parsed message (the conversation's checks are active).
  var needsMessage: Bool
}

/// A frame's own check made ahead of its turn (on another core), with the context it was made in:
/// ``ConversationCheck`` uses it only if the frame's turn comes in that same context.
struct PrecheckedFrame: Sendable {
  /// The context the check assumed.
  var context: FrameCheckContext
  /// What it gave.
  var outcome: FrameOutcome
}
