import VCProtoJSON

/// How a message type stands in the real system, per protocol version.
public enum MessageStatus: String, Sendable, Hashable, CaseIterable {
  /// Sent and handled by the real peers.
  case implemented
  /// Specified and handled by clients, but the real backend never sends it (e.g. `response`, `replay`,
  /// and `connected` in 0.2.0). Valid on the wire; a peer must not depend on receiving it.
  case documentedNotImplemented = "documented_not_implemented"
  /// Sent by clients, but the real backend does not dispatch it (`message_ack`: the backend listens
  /// for `message-ack`). Valid; vcproto's extension gives it a working meaning.
  case unhandled
  /// Listed in the review but never existed in any code (`recipe_step_complete`). Not in the model;
  /// the validator treats it as an unknown type with an explanatory message.
  case nonexistent
  /// A vcproto extension: sent only after both peers negotiated its capability.
  case `extension`
}
