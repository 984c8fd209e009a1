import Foundation
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// Streams a JSON Lines capture: one frame per line, either the bare message or a record
/// `{"direction": ..., "time": ..., "data": "<frame text>"}` (with `"connection": N` when the
/// capture interleaves connections, as `vcproto-tap` writes it). Blank lines are skipped. Memory is
/// bounded by one line (``CaptureLimits/maxLineBytes``) plus one chunk.
public final class JSONLinesReader: CaptureReader {
  let lines: LineSplitter
  /// How each line becomes a frame: the part of reading that needs no other line (``CaptureValidation``
  /// does it on the threads that check the frames).
  let framing: JSONLinesFraming

  /// Reads `source` in chunks of `chunkSize` bytes; a line longer than `maxLineLength` bytes is skipped
  /// with `line_too_long` (see ``CaptureLimits/maxLineBytes``).
  public init(
    source: ByteSource, chunkSize: Int = 64 * 1024, maxLineLength: Int = CaptureLimits.default.maxLineBytes
  ) {
    lines = LineSplitter(source: source, chunkSize: chunkSize, maxLineLength: maxLineLength)
    var limits = JSONLimits.default
    limits.maxFrameBytes = maxLineLength
    limits.maxStringBytes = maxLineLength
    framing = JSONLinesFraming(maxLineLength: maxLineLength, recordLimits: limits)
  }

  public var bytesRead: Int { lines.bytesRead }

  public func next() throws -> CapturedFrame? {
    while let line = try lines.next() {
      if let frame = framing.frame(line) { return frame }
    }
    return nil
  }
}

extension JSONLinesReader {
  /// Whether the line starts `{"type":"X"` with `X` written without escapes and neither `send` nor
  /// `receive`: then it is not a record (a record has no `type` or one of those two, and a second
  /// `type` member makes the line unreadable as a record), and ``JSONLinesFraming``'s scans are skipped. Almost
  /// every bare frame starts so; the scans cost a tenth of `vcproto validate` on large frames.
  static func startsAsMessage(_ bytes: [UInt8]) -> Bool {
    let prefix = #"{"type":""#.utf8
    guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return false }
    var end = prefix.count
    while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
    guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return false }
    let value = bytes[prefix.count..<end]
    return !value.elementsEqual("send".utf8) && !value.elementsEqual("receive".utf8)
  }
}
