import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// Bounds on what the capture readers hold in memory, whatever the capture file contains.
///
/// The readers stream: they never load a capture whole. These limits bound the one piece each reader
/// must hold at once, so a hostile or broken capture yields a specific finding instead of unbounded
/// memory. A frame taken out of a capture is then checked against ``JSONLimits`` like any frame
/// (`frame_too_large` beyond 16 MiB, and so on), so these bounds only need to leave room for a
/// legitimate 16 MiB frame in its capture encoding. `vcproto validate` exposes the first two as
/// `--max-line-length` and `--max-har-message-size`.
public struct CaptureLimits: Sendable, Hashable {
  /// Longest JSON Lines line, in bytes. The reader holds one line at a time; this defends against a
  /// file without line breaks (or with one enormous line) being buffered whole. Default 32 MiB: a
  /// 16 MiB frame inside a record's `data` string, with the escaping that roughly doubles JSON text.
  /// A longer line is skipped to its end with finding `line_too_long`; reading goes on.
  public var maxLineBytes: Int
  /// Largest `_webSocketMessages` element of a HAR, in bytes of HAR text. The reader holds one
  /// element at a time; this defends against one element (a huge `data` string, or a never-closed
  /// object) exhausting memory. Default 64 MiB: a 16 MiB frame as base64 (4/3) or as an escaped JSON
  /// string with room to spare. A larger element is dropped with finding `frame_too_large`.
  public var maxHARMessageBytes: Int
  /// Deepest nesting of arrays and objects in a HAR, anywhere in the file. The HAR scanner keeps one
  /// small entry per open level; this defends against a file of `[[[[…` growing that stack without
  /// bound (30 MB of `[` would otherwise take about 56 MB). Default 1024: a real HAR nests a message
  /// about 5 levels deep, and the message itself is limited to ``JSONLimits/maxDepth`` (128) when
  /// parsed. Deeper nesting stops the scan with finding `nesting_too_deep`.
  public var maxHARDepth: Int
  /// Largest single-frame input (`--input frame`), in bytes. Defends against reading an unbounded
  /// input into memory. Default ``JSONLimits/maxFrameBytes`` (16 MiB), the frame limit itself.
  /// Finding `frame_too_large`.
  public var maxSingleFrameBytes: Int

  /// Creates limits; every parameter defaults to the documented default.
  public init(
    maxLineBytes: Int = 32 * 1024 * 1024, maxHARMessageBytes: Int = 64 * 1024 * 1024, maxHARDepth: Int = 1024,
    maxSingleFrameBytes: Int = JSONLimits.default.maxFrameBytes
  ) {
    self.maxLineBytes = maxLineBytes
    self.maxHARMessageBytes = maxHARMessageBytes
    self.maxHARDepth = maxHARDepth
    self.maxSingleFrameBytes = maxSingleFrameBytes
  }

  /// The documented defaults.
  public static let `default` = CaptureLimits()
}
