import Foundation
import VCProto
import VCProtoCapture
import VCProtoNIO

/// Checks and captures what the tap forwards: each message gets its capture record and line
/// (``TapCapture``) and is checked by `vcproto validate`'s code (``LiveValidation``), one
/// conversation per connection, its findings printed as it crosses.
final class LiveTapObserver: TapObserver {
  let capture: TapCapture
  let validation: LiveValidation
  let errors: OutputSink
  private let checks = LockedBox<[Int: LiveConnectionCheck]>([:])

  init(options: TapOptions, io: TapIO) throws {
    capture = try TapCapture(path: options.capture)
    errors = io.standardError
    validation = LiveValidation(
      source: options.capture ?? "tap", format: options.json ? .json : .text, strict: options.strict,
      output: io.standardOutput, color: io.usesColor)
  }

  func observe(_ message: WebSocketMessage, direction: MessageDirection, connection: Int) {
    let time = Date().timeIntervalSince1970
    let record: [UInt8]
    switch message {
    case .text(let bytes):
      record = LiveValidation.record(connection: connection, direction: direction, time: time, text: bytes)
    case .binary(let bytes):
      record = LiveValidation.record(connection: connection, direction: direction, time: time, binary: bytes)
    }
    let line = capture.append(record)
    // Only this connection's event loop uses its check: take it out, use it, put it back.
    var check = checks.withLock { $0.removeValue(forKey: connection) } ?? validation.connection()
    check.check(record: record, line: line)
    checks.withLock { $0[connection] = check }
  }

  func ended(connection: Int) {
    checks.withLock { $0[connection] = nil }
  }

  /// Flushes the capture and prints validate's summary of the run (and, on standard error, why
  /// the capture stopped, if a write failed).
  func finish() {
    capture.flush()
    if let failure = capture.failure {
      errors.line("vcproto-tap: the capture stopped early, a write failed: \(failure)")
    }
    validation.finish()
  }
}
