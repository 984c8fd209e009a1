import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// Where a frame sits in its capture: a 1-based line (JSON Lines) or a 0-based frame index (HAR and
/// single-frame inputs).
public enum FramePosition: Hashable, Sendable {
  /// A line of a JSON Lines capture, from 1.
  case line(Int)
  /// A frame of a HAR or single-frame input, from 0.
  case entry(Int)
}

/// The bytes of one WebSocket message and how they travelled.
public enum FramePayload: Hashable, Sendable {
  /// A text message: UTF-8 JSON (or a text envelope).
  case text([UInt8])
  /// A binary message (an envelope when it starts with the `VC` magic).
  case binary([UInt8])
}

/// One item a capture reader yields: normally a frame, sometimes only a reader-level problem
/// (an over-long line, bad base64, a truncated HAR).
public struct CapturedFrame: Sendable {
  /// Where it is.
  public internal(set) var position: FramePosition
  /// The direction the capture records, if any.
  public internal(set) var direction: MessageDirection?
  /// When the capture says it travelled, in seconds since 1970, if known.
  public internal(set) var time: Double?
  /// The message bytes; `nil` when they could not be read (the findings say why).
  public internal(set) var payload: FramePayload?
  /// Problems found while reading (before the frame itself is validated).
  public internal(set) var findings: [Finding] = []
  /// Which connection of the capture it belongs to (HAR: one per entry with messages; JSON Lines:
  /// the record's `connection` member, else 0).
  public internal(set) var connection: Int = 0
  /// Whether the capture names the connection (a JSON Lines record's `connection` member, as
  /// `vcproto-tap` writes): findings then name it too.
  public internal(set) var namesConnection = false
  /// `false` for items that are not a frame at all (e.g. "the HAR ends early").
  public internal(set) var isFrame: Bool = true
}

/// A streaming source of captured frames.
public protocol CaptureReader: AnyObject {
  /// The next item, or `nil` at the end of the capture.
  func next() throws -> CapturedFrame?
  /// Bytes consumed so far, for progress.
  var bytesRead: Int { get }
}
