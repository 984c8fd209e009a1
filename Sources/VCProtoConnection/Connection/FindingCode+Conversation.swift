import VCProtoCore
import VCProtoJSON

extension FindingCode {
  // Handshake: which version a connection speaks (``ConversationObserver/protocolVersion``).
  /// The handshake announces a protocol version vcproto does not know; frames are checked against
  /// the fallback version instead.
  public static let unknownProtocolVersion = FindingCode(rawValue: "unknown_protocol_version")
  /// The handshake contradicts negotiation as the engines run it: `connected` names a version no
  /// floor gives for the hello's ceiling and the client's announcement, or grants a capability the
  /// negotiation could not give (not offered by the `hello` or not asked for by the `connect`), or the
  /// server refused a client it accepts (or with the wrong `required`/`received`).
  public static let negotiationMismatch = FindingCode(rawValue: "negotiation_mismatch")

  // Conversation: a frame the engines' rules forbid (only once the handshake is in view).
  /// The client sent something other than `ping`/`connect` before authentication succeeded.
  public static let beforeAuthentication = FindingCode(rawValue: "before_authentication")
  /// `message_ack` for a `message_id` the server never sent on this connection (a warning: an ack
  /// may follow a reconnect, for a frame the previous connection carried).
  public static let unknownMessageID = FindingCode(rawValue: "unknown_message_id")
  /// The server sent a frame other than `hello`, `pong`, `auth_error`, `error` to a client that had
  /// not sent `connect` (or whose `connect` was refused).
  public static let serverFrameBeforeAuthentication = FindingCode(rawValue: "server_frame_before_authentication")
  /// A client `subscribe` did not resume where the session's last `session_history` said to: at
  /// `next_offset` after `end_of_file: false` (0.5.0), at offset 0 after `file_replaced: true`
  /// (0.5.0), at the reply's `last_seq` after `is_complete: false` (0.4.0). A warning.
  public static let continuationMismatch = FindingCode(rawValue: "continuation_mismatch")
  /// With `heartbeat` negotiated, the server was silent longer than the client's heartbeat timeout.
  public static let heartbeatGap = FindingCode(rawValue: "heartbeat_gap")
  /// A server frame that only ever answers a request (``ClientEngine/answerTypes``) arrived with no
  /// such request waiting on this connection. A warning.
  public static let unsolicitedAnswer = FindingCode(rawValue: "unsolicited_answer")
  /// 0.5.0 and later: a `session_history` for a session the client never subscribed to on this
  /// connection (the server sends session data only to subscribers).
  public static let unsubscribedSessionData = FindingCode(rawValue: "unsubscribed_session_data")

  /// With `authenticated_frames` granted by `connected`, a later frame that is not a well-formed
  /// authenticated frame: a plain one (injected, or a peer that does not seal) or an `authenticated`
  /// wrapper that breaks the format, or one whose `frame` holds no JSON object. The receiving engine
  /// closes the connection (`not_authenticated`, `malformed`). An observer has no key: MACs are not
  /// checked.
  public static let unauthenticatedFrame = FindingCode(rawValue: "unauthenticated_frame")
  /// With authenticated frames, a `seq` other than the next of its direction (each counts from 0): a
  /// replayed frame (below), or reordered or dropped frames (above). The receiver closes the
  /// connection (`replayed`, `sequence_gap`).
  public static let frameSequence = FindingCode(rawValue: "frame_sequence")

  /// Every code ``ConversationObserver`` reports, in documentation order.
  public static let conversationCodes: [FindingCode] = [
    .unknownProtocolVersion, .negotiationMismatch, .beforeAuthentication, .serverFrameBeforeAuthentication,
    .extensionNotNegotiated, .unknownMessageID, .continuationMismatch, .heartbeatGap, .unsolicitedAnswer,
    .unsubscribedSessionData, .unauthenticatedFrame, .frameSequence,
  ]
}
