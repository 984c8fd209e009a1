import VCProto

/// Where a frame sits in its capture: a 1-based line (JSON Lines) or a 0-based frame index (HAR and
/// single-frame inputs).
enum FramePosition: Hashable, Sendable {
  case line(Int)
  case entry(Int)
}

/// The bytes of one WebSocket message and how they travelled.
enum FramePayload: Hashable, Sendable {
  /// A text message: UTF-8 JSON (or a text envelope).
  case text([UInt8])
  /// A binary message (an envelope when it starts with the `VC` magic).
  case binary([UInt8])
}

/// One item a capture reader yields: normally a frame, sometimes only a reader-level problem
/// (an over-long line, bad base64, a truncated HAR).
public struct CapturedFrame: Sendable {
  /// Where it is.
  var position: FramePosition
  /// The direction the capture records, if any.
  var direction: MessageDirection?
  /// When the capture says it travelled, in seconds since 1970, if known.
  var time: Double?
  /// The message bytes; `nil` when they could not be read (the findings say why).
  var payload: FramePayload?
  /// Problems found while reading (before the frame itself is validated).
  var findings: [Finding] = []
  /// Which connection of the capture it belongs to (HAR: one per entry with messages; JSON Lines:
  /// the record's `connection` member, else 0).
  var connection: Int = 0
  /// Whether the capture names the connection (a JSON Lines record's `connection` member, as
  /// `vcproto-tap` writes): findings then name it too.
  var namesConnection = false
  /// `false` for items that are not a frame at all (e.g. "the HAR ends early").
  var isFrame: Bool = true
}

/// A streaming source of captured frames.
public protocol CaptureReader: AnyObject {
  /// The next item, or `nil` at the end of the capture.
  func next() throws -> CapturedFrame?
  /// Bytes consumed so far, for progress.
  var bytesRead: Int { get }
}
