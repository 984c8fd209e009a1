import Foundation
import VCProto

/// Streams a JSON Lines capture: one frame per line, either the bare message or a record
/// `{"direction": ..., "time": ..., "data": "<frame text>"}` (with `"connection": N` when the
/// capture interleaves connections, as `vcproto-tap` writes it). Blank lines are skipped. Memory is
/// bounded by one line (``CaptureLimits/maxLineBytes``) plus one chunk.
public final class JSONLinesReader: CaptureReader {
  let lines: LineSplitter
  private let recordLimits: JSONLimits

  /// Reads `source` in chunks of `chunkSize` bytes; a line longer than `maxLineLength` bytes is skipped
  /// with `line_too_long` (see ``CaptureLimits/maxLineBytes``).
  public init(
    source: ByteSource, chunkSize: Int = 64 * 1024, maxLineLength: Int = CaptureLimits.default.maxLineBytes
  ) {
    lines = LineSplitter(source: source, chunkSize: chunkSize, maxLineLength: maxLineLength)
    var limits = JSONLimits.default
    limits.maxFrameBytes = maxLineLength
    limits.maxStringBytes = maxLineLength
    recordLimits = limits
  }

  public var bytesRead: Int { lines.bytesRead }

  public func next() throws -> CapturedFrame? {
    while let line = try lines.next() {
      switch line {
      case .tooLong(let number, let length):
        return CapturedFrame(
          position: .line(number), payload: nil,
          findings: [
            Finding(
              .error, .lineTooLong, pointer: "",
              message: "line is longer than \(lines.maxLineLength) bytes (at least \(length)); skipped")
          ])
      case .line(let number, let bytes):
        guard bytes.contains(where: { !isSpace($0) }) else { continue }
        return frame(number: number, bytes: Array(bytes))
      }
    }
    return nil
  }

  /// A record when the line is an object with `data` and no `type` (or a HAR-style `type` of `send` /
  /// `receive`); otherwise the line is the frame. Member names are compared decoded (the reader's
  /// object), so `"d\u0061ta"` is `data`; lines with neither `"data"` nor a `\u` escape cannot hold
  /// one and are not parsed here at all.
  private func frame(number: Int, bytes: [UInt8]) -> CapturedFrame {
    var frame = CapturedFrame(position: .line(number), payload: .text(bytes))
    guard bytes.first(where: { !isSpace($0) }) == UInt8(ascii: "{"), !Self.startsAsMessage(bytes),
      mentionsData(bytes) || mentionsUnicodeEscape(bytes),
      case .object(let object)? = try? JSONReader(limits: recordLimits).parse(bytes), object["data"] != nil
    else { return frame }
    let directionKey: String
    switch object["type"]?.stringValue {
    case nil where object["type"] == nil: directionKey = "direction"
    case "send"?, "receive"?: directionKey = "type"
    default: return frame
    }
    frame.payload = nil
    CaptureRecord.fill(&frame, from: object, directionKey: directionKey)
    CaptureRecord.fillConnection(&frame, from: object)
    return frame
  }

  /// Whether the line starts `{"type":"X"` with `X` written without escapes and neither `send` nor
  /// `receive`: then it is not a record (a record has no `type` or one of those two, and a second
  /// `type` member makes the line unreadable as a record), and the scans below are skipped. Almost
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

  /// Whether the line contains `"data"` (only such lines can be records): `memchr` to each quote, then
  /// a comparison of the five bytes after it.
  private func mentionsData(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw -> Bool in
      guard let base = raw.baseAddress, raw.count >= 6 else { return false }
      var offset = 0
      let last = raw.count - 6
      while offset <= last {
        guard let hit = memchr(base + offset, 0x22, last - offset + 1) else { return false }
        let at = base.distance(to: UnsafeRawPointer(hit))
        if raw[at + 1] == UInt8(ascii: "d"), raw[at + 2] == UInt8(ascii: "a"), raw[at + 3] == UInt8(ascii: "t"),
          raw[at + 4] == UInt8(ascii: "a"), raw[at + 5] == UInt8(ascii: "\"")
        {
          return true
        }
        offset = at + 1
      }
      return false
    }
  }

  /// Whether the line contains a `\u` escape (the only way to write `data` other than plainly).
  private func mentionsUnicodeEscape(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw -> Bool in
      guard let base = raw.baseAddress, raw.count >= 2 else { return false }
      var offset = 0
      while offset < raw.count - 1 {
        guard let hit = memchr(base + offset, 0x5C, raw.count - 1 - offset) else { return false }
        let at = base.distance(to: UnsafeRawPointer(hit))
        if raw[at + 1] == UInt8(ascii: "u") { return true }
        offset = at + 2
      }
      return false
    }
  }

  private func isSpace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A
  }
}
