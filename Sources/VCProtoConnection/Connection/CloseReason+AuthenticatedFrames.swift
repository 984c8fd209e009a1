import VCProtoCore
import VCProtoJSON

extension CloseReason {
  /// Why an engine closed a connection with `authenticated_frames` in force (STANDARDS.md#authenticated-frames):
  /// the code is the check that failed, `not_authenticated` (a plain frame), `malformed`,
  /// `mac_mismatch`, `replayed`, `sequence_gap`, or `sequence_exhausted` (this side used every
  /// sequence number). The detail names sequence numbers and rules only, never bytes of the frame.
  public static func authenticatedFrame(_ error: AuthenticatedFrameError) -> CloseReason {
    switch error {
    case .notAuthenticated:
      return CloseReason(code: "not_authenticated", detail: "a plain frame where an authenticated one was due")
    case .malformed(let reason): return CloseReason(code: "malformed", detail: reason)
    case .macMismatch(let sequence): return CloseReason(code: "mac_mismatch", detail: "seq \(sequence)")
    case .replayed(let sequence, let expected):
      return CloseReason(code: "replayed", detail: "seq \(sequence), expected \(expected)")
    case .sequenceGap(let sequence, let expected):
      return CloseReason(code: "sequence_gap", detail: "seq \(sequence), expected \(expected)")
    case .channelClosed: return CloseReason(code: "channel_closed")
    case .sequenceExhausted: return CloseReason(code: "sequence_exhausted")
    case .frameNotUTF8: return CloseReason(code: "malformed", detail: "a frame that is not UTF-8")
    }
  }
}
