import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `vcproto validate` applied to traffic as it travels (`vcproto-tap`): each message becomes the
/// JSON Lines record validate reads (``record(connection:direction:time:text:)``), that record is
/// read back by validate's own reader and checked by the same code (one conversation per
/// connection), and each finding is printed at once as ``CaptureValidator`` prints it. So
/// `vcproto validate --max-findings unlimited` on a capture of those records prints the same
/// finding lines (connections' lines interleaved in another order only where two connections ran at
/// once) and, after ``finish()``, the same summary.
///
/// Thread-safe: each connection's ``LiveConnectionCheck`` is used by one thread at a time, the
/// output and the summary are shared under locks.
public final class LiveValidation: Sendable {
  /// The output format: validate's text lines or its JSON finding objects (with `"connection"`).
  public typealias Format = CaptureValidator.Format

  let source: String
  /// The checks and the output, shared with `vcproto validate` (no cap on the findings printed).
  let validator: CaptureValidator

  /// Reports findings on `output` under the name `source` (the capture's path as it will be given
  /// to `vcproto validate`); `strict` makes warnings errors, like `--strict`.
  public init(source: String, format: Format, strict: Bool, output: OutputSink, color: Bool = false) {
    self.source = source
    validator = CaptureValidator(format: format, output: output, color: color, strict: strict, maxFindings: nil)
    validator.add(source: source)
  }

  /// A new connection's checks.
  public func connection() -> LiveConnectionCheck {
    LiveConnectionCheck(
      validation: self,
      check: ConversationCheck(
        checker: validator.checker,
        observer: ConversationObserver(fallbackVersion: CaptureValidator.defaultProtocolVersion)))
  }

  /// The capture record of a text message (without the newline).
  public static func record(connection: Int, direction: MessageDirection, time: Double, text: [UInt8]) -> [UInt8] {
    JSONLinesCapture.line(.text(text), connection: connection, direction: direction, time: time)
  }

  /// The capture record of a binary message (without the newline).
  public static func record(connection: Int, direction: MessageDirection, time: Double, binary: [UInt8]) -> [UInt8] {
    JSONLinesCapture.line(.binary(binary), connection: connection, direction: direction, time: time)
  }

  /// Prints validate's summary of everything checked so far; returns validate's exit status for it
  /// (1 when there was an error, else 0).
  @discardableResult
  public func finish() -> Int32 {
    validator.finish()
  }

  func report(_ outcome: FrameOutcome) {
    validator.report(outcome, source: source)
  }
}

/// One live connection's conversation, for ``LiveValidation``.
public struct LiveConnectionCheck: Sendable {
  let validation: LiveValidation
  var check: ConversationCheck

  /// Checks the message whose capture record is `record` (from
  /// ``LiveValidation/record(connection:direction:time:text:)``), at line `line` of the capture,
  /// and prints its findings.
  public mutating func check(record: [UInt8], line: Int) {
    let reader = JSONLinesReader(source: ByteSource(bytes: record))
    while let frame = try? reader.next() {
      var frame = frame
      frame.position = .line(line)
      validation.report(check.check(frame))
    }
  }
}
