import VCProto

extension FindingCode {
  // Capture level: problems with the capture file rather than with a frame.
  /// A JSON Lines line longer than the reader's bound; the rest of the line is skipped.
  public static let lineTooLong = FindingCode(rawValue: "line_too_long")
  /// The capture ends in the middle of its structure (a cut-off HAR); what was read is still reported.
  public static let truncatedInput = FindingCode(rawValue: "truncated_input")
  /// A binary frame's `data` is not valid base64.
  public static let invalidBase64 = FindingCode(rawValue: "invalid_base64")
  /// A capture record (JSON Lines record or HAR message) is malformed: no `data`, a bad `direction`.
  public static let invalidRecord = FindingCode(rawValue: "invalid_record")
  /// The HAR's structure is broken (mismatched brackets); reading stopped there.
  public static let invalidCapture = FindingCode(rawValue: "invalid_capture")
  /// The capture holds no WebSocket frames.
  public static let noFrames = FindingCode(rawValue: "no_frames")
  /// A binary frame that is not a compression envelope (JSON travels in text frames).
  public static let unexpectedBinaryFrame = FindingCode(rawValue: "unexpected_binary_frame")
  /// An envelope was found but no envelope opener is available.
  public static let envelopeUnsupported = FindingCode(rawValue: "envelope_unsupported")
  /// The capture announces a protocol version vcproto does not know; checks fall back to `--protocol`.
  public static let unknownProtocolVersion = FindingCode(rawValue: "unknown_protocol_version")
  /// The handshake contradicts the real backend's negotiation: `connected` names a version no floor
  /// gives for the hello's ceiling and the client's announcement, or the server refused a client it
  /// accepts (or with the wrong `required`/`received`).
  public static let negotiationMismatch = FindingCode(rawValue: "negotiation_mismatch")

  // Conversation level: only when the capture contains the handshake.
  /// The client sent something other than `ping`/`connect` before authentication succeeded.
  public static let beforeAuthentication = FindingCode(rawValue: "before_authentication")
  /// `message_ack` for a `message_id` this capture never showed from the server (a warning: an ack
  /// may follow a reconnect, for a frame the previous connection carried).
  public static let unknownMessageID = FindingCode(rawValue: "unknown_message_id")
  /// The server sent a frame other than `hello`, `pong`, `auth_error`, `error` to a client that had
  /// not sent `connect` (or whose `connect` was refused).
  public static let serverFrameBeforeAuthentication = FindingCode(rawValue: "server_frame_before_authentication")
  /// After a `session_history` with `end_of_file: false`, the client's next `subscribe` for that
  /// session did not resume at its `next_offset`.
  public static let continuationMismatch = FindingCode(rawValue: "continuation_mismatch")
  /// With `heartbeat` negotiated, the server was silent longer than the heartbeat timeout.
  public static let heartbeatGap = FindingCode(rawValue: "heartbeat_gap")
}
