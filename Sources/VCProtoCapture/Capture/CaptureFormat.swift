import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// The kinds of capture `validate` reads.
public enum CaptureFormat: String, CaseIterable, Sendable {
  /// JSON Lines: one frame (or capture record) per line.
  case jsonl
  /// A HAR export with `_webSocketMessages`.
  case har
  /// The whole input is one frame.
  case frame

  /// Detects the format from the file name, else from the first bytes: `{"log"` (the name decoded) is a HAR; a first
  /// line that is complete JSON is JSON Lines; otherwise a `.json` file is one (pretty-printed) frame.
  public static func detect(path: String?, prefix: [UInt8]) -> CaptureFormat {
    let lower = path?.lowercased() ?? ""
    if lower.hasSuffix(".har") { return .har }
    if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") { return .jsonl }
    let text = prefix.drop {
      $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF
    }
    if text.first == UInt8(ascii: "V"), text.dropFirst().first == UInt8(ascii: "C") { return .frame }
    if text.first == UInt8(ascii: "{") {
      let afterBrace = text.dropFirst().drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
      // The first member name, escapes decoded (`{"l\u006fg"` is a HAR as much as `{"log"`).
      if afterBrace.first == UInt8(ascii: "\""),
        TolerantJSONString.decode(Array(afterBrace.prefix(64)), from: 0).value == "log"
      {
        return .har
      }
    }
    let firstLine = text.prefix { $0 != 0x0A }
    let firstLineParses = (try? JSONReader().parse(Array(firstLine))) != nil
    if firstLineParses { return .jsonl }
    if lower.hasSuffix(".json") { return .frame }
    // Not one complete JSON value per line: if there is only one line, it is a single (broken) frame;
    // several lines that do not parse are reported line by line.
    return .jsonl
  }

  /// Opens a streaming reader of this format, bounded by `limits`.
  public func reader(for source: ByteSource, limits: CaptureLimits = .default) -> CaptureReader {
    switch self {
    case .jsonl: return JSONLinesReader(source: source, maxLineLength: limits.maxLineBytes)
    case .har:
      return HARReader(source: source, maxMessageBytes: limits.maxHARMessageBytes, maxDepth: limits.maxHARDepth)
    case .frame: return SingleFrameReader(source: source, maxBytes: limits.maxSingleFrameBytes)
    }
  }
}
