import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

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
}
