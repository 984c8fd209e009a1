import Foundation
import VCProtoJSON

/// vcproto's explicit logging: a sink the host app plugs in (no logging package needed), silent by default.
///
/// What it logs: one line for every missing field (naming the message type and the member), one line
/// for malformed JSON (the offset and an excerpt of at most 200 characters, secrets masked), and one
/// line the first time each unknown message type is seen (types told apart as ``Finding/messageType``
/// holds them, so two types longer than 64 scalars that share the kept prefix and their length count
/// as one). Other findings are logged at `debug`.
///
/// Bounded: at most ``maxRecordsPerFrame`` records per frame (a frame's findings are already capped
/// by ``ValidationOptions/maxFindings``), the last one saying how many more were dropped, and at most
/// ``maxRememberedUnknownTypes`` unknown types remembered. Every record of a finding is bounded too:
/// its message type is the finding's (at most ``Finding/maxMessageTypeLength`` scalars), and its
/// pointer, in ``LogRecord/pointer`` and in the line, is cut to ``Finding/maxDescribedPointerLength``
/// scalars and marked with its length (`/MMMM… (1000001 bytes)`), since a member name in a pointer
/// can be megabytes long; the finding's own pointer stays exact.
public final class ProtocolLogger: Sendable {
  /// A logger that drops everything (the library default).
  public static let silent = ProtocolLogger(minimumLevel: .error) { _ in }

  /// Records below this level are dropped.
  public let minimumLevel: LogLevel
  /// Most records logged for one frame (default 20); past it one record, with the code
  /// `findings_suppressed`, says how many more were dropped.
  public let maxRecordsPerFrame: Int
  private let sink: @Sendable (LogRecord) -> Void
  /// Unknown types already logged, as 64-bit hashes (`Hasher`, keyed per process), so a type of any
  /// length costs 8 bytes.
  private let seenUnknownTypes = Locked<Set<Int>>([])
  /// Bounds the memory spent remembering unknown types (a hostile peer could send millions).
  public static let maxRememberedUnknownTypes = 1024

  /// Whether a record of `level` reaches the sink.
  public func records(_ level: LogLevel) -> Bool { level >= minimumLevel }

  /// The most verbose level at which a warning finding of a decoded frame is logged (an unknown type
  /// is `info`, other warnings `debug`): a logger recording it needs every frame validated.
  static let warningFindingLevel = LogLevel.info

  /// Creates a logger that passes records at or above `minimumLevel` to `sink`.
  public init(
    minimumLevel: LogLevel = .info, maxRecordsPerFrame: Int = 20, sink: @escaping @Sendable (LogRecord) -> Void
  ) {
    self.minimumLevel = minimumLevel
    self.maxRecordsPerFrame = max(0, maxRecordsPerFrame)
    self.sink = sink
  }

  /// Emits one record if its level passes.
  public func log(_ record: LogRecord) {
    guard record.level >= minimumLevel else { return }
    sink(record)
  }

  /// Logs the findings of one frame according to the rules above, at most ``maxRecordsPerFrame``
  /// records.
  public func log(findings: [Finding]) {
    var logged = 0
    var dropped = 0
    func log(_ record: LogRecord) {
      guard record.level >= minimumLevel else { return }
      guard logged < maxRecordsPerFrame else {
        dropped += 1
        return
      }
      logged += 1
      sink(record)
    }
    defer {
      if dropped > 0 {
        sink(
          LogRecord(
            level: .warning, code: .findingsSuppressed, pointer: "",
            message:
              "\(dropped) more log records for this frame dropped (limit maxRecordsPerFrame \(maxRecordsPerFrame))"))
      }
    }
    for f in findings {
      let pointer = Finding.shownPointer(f.pointer)
      switch f.code {
      case .missingField:
        log(
          LogRecord(
            level: .warning, code: f.code, messageType: f.messageType, pointer: pointer,
            message: "\(f.messageType ?? "?"): missing field \(pointer)"))
      case .unknownType:
        guard minimumLevel <= .info, let type = f.messageType, firstSighting(of: type) else { continue }
        log(
          LogRecord(
            level: .info, code: f.code, messageType: type, pointer: pointer,
            message: "unknown message type \"\(type)\" (logged once per type)"))
      default:
        log(
          LogRecord(
            level: f.severity == .error ? .warning : .debug, code: f.code, messageType: f.messageType,
            pointer: pointer, message: "\(f.messageType ?? "?"): \(f.code.rawValue) \(pointer): \(f.message)"))
      }
    }
  }

  /// Logs a frame that is not acceptable JSON: the offset and a bounded, redacted excerpt.
  func logMalformed(_ finding: Finding, frame: [UInt8]) {
    guard minimumLevel <= .warning else { return }
    let excerpt = Redaction.excerpt(of: frame, around: finding.offset ?? 0, limit: 200)
    log(
      LogRecord(
        level: .warning, code: finding.code, pointer: "",
        message:
          "malformed frame (\(finding.code.rawValue)) at byte \(finding.offset ?? 0): \(finding.message); excerpt: \(excerpt)"
      ))
  }

  private func firstSighting(of type: String) -> Bool {
    let hash = type.hashValue
    return seenUnknownTypes.withLock { seen in
      if seen.contains(hash) || seen.count >= Self.maxRememberedUnknownTypes { return false }
      seen.insert(hash)
      return true
    }
  }
}
