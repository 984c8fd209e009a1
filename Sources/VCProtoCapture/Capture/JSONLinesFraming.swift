import Foundation
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// Makes one JSON Lines line into a frame (``JSONLinesReader``): a value, so the lines of a window
/// can be made into frames on several threads at once.
struct JSONLinesFraming: Sendable {
  /// The longest line (for the `line_too_long` message).
  let maxLineLength: Int
  /// The bounds on a line read as a capture record.
  let recordLimits: JSONLimits

  /// The frame of a line; `nil` for a blank line (skipped).
  func frame(_ line: LineSplitter.Line) -> CapturedFrame? {
    switch line {
    case .tooLong(let number, let length):
      return CapturedFrame(
        position: .line(number), payload: nil,
        findings: [
          Finding(
            .error, .lineTooLong, pointer: "",
            message: "line is longer than \(maxLineLength) bytes (at least \(length)); skipped")
        ])
    case .line(let number, let bytes):
      guard bytes.contains(where: { !isSpace($0) }) else { return nil }
      return frame(number: number, bytes: Array(bytes))
    }
  }

  /// A record when the line is an object with `data` and no `type` (or a HAR-style `type` of `send` /
  /// `receive`); otherwise the line is the frame. Member names are compared decoded (the reader's
  /// object), so `"d\u0061ta"` is `data`; lines with neither `"data"` nor a `\u` escape cannot hold
  /// one and are not parsed here at all.
  private func frame(number: Int, bytes: [UInt8]) -> CapturedFrame {
    var frame = CapturedFrame(position: .line(number), payload: .text(bytes))
    guard bytes.first(where: { !isSpace($0) }) == UInt8(ascii: "{"), !JSONLinesReader.startsAsMessage(bytes),
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
