import VCProtoCore
import VCProtoJSON

/// Why an ``AuthenticatedChannel`` refused a frame. Every case is fatal: the channel refuses every
/// later frame too (``channelClosed``) and the connection must be closed. No case carries bytes of the
/// frame, so logging one never leaks content or key material.
public enum AuthenticatedFrameError: Error, Sendable, Hashable {
  /// A plain frame (not `{"type":"authenticated",...}`) after `connected`: injected, or a peer that
  /// does not authenticate its frames.
  case notAuthenticated
  /// An authenticated frame that breaks the format (the reason names the member or rule).
  case malformed(reason: String)
  /// The MAC does not match: the frame was altered, forged without the key, or sent in the other
  /// direction (reflected).
  case macMismatch(sequence: UInt64)
  /// A genuine frame whose sequence number was already received: a replay.
  case replayed(sequence: UInt64, expected: UInt64)
  /// A genuine frame from further ahead: the frames in between were dropped, or frames were reordered.
  case sequenceGap(sequence: UInt64, expected: UInt64)
  /// An earlier frame failed; the channel accepts nothing more.
  case channelClosed
  /// The sender used every sequence number (2^53); the connection must be re-established.
  case sequenceExhausted
  /// The sender was given a frame that is not UTF-8 (a frame is JSON text).
  case frameNotUTF8
}
