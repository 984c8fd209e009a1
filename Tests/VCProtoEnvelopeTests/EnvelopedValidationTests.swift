import XCTest

@testable import VCProto

/// `Validator.validate(envelopedFrame:codec:)`: a host app validates what it received, enveloped
/// or not, and gets findings against the inner message.
final class EnvelopedValidationTests: XCTestCase {
  private let sender = EnvelopeCodec(configuration: .init(threshold: 0))
  private let history = sampleHistory()

  private func sealed(_ frame: [UInt8], _ form: EnvelopeForm) throws -> ReceivedFrame {
    let bytes = try XCTUnwrap(try sender.seal(frame, form: form))
    return form == .binary ? .binary(bytes) : .text(bytes)
  }

  func testValidInnerMessageInBothForms() throws {
    for form in EnvelopeForm.allCases {
      let result = Validator().validate(envelopedFrame: try sealed(history, form))
      XCTAssertEqual(result.envelope, form)
      XCTAssertEqual(result.findings, [], "\(form)")
      XCTAssertTrue(result.isValid)
      XCTAssertEqual(result.frame, history)
      XCTAssertEqual(result.report.messageType, "session_history")
      XCTAssertEqual(result.report.direction, .serverToClient)
      XCTAssertEqual(result.report.value?["session_id"]?.stringValue, "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11")
    }
  }

  func testFindingsPointIntoTheInnerMessage() throws {
    // Inner session_history without session_id and with a wrong total_count type.
    var object = try XCTUnwrap(try JSONReader().parse(history).objectValue)
    object["session_id"] = nil
    object["total_count"] = .string("2")
    var writer = JSONWriter()
    writer.write(.object(object))
    let inner = writer.bytes
    let plain = Validator().validate(inner)
    XCTAssertFalse(plain.isValid)
    for form in EnvelopeForm.allCases {
      let result = Validator().validate(envelopedFrame: try sealed(inner, form))
      XCTAssertEqual(result.envelope, form)
      XCTAssertEqual(result.findings, plain.findings, "\(form): the same findings as the plain frame")
      XCTAssertEqual(
        Set(result.findings.map { "\($0.code.rawValue) \($0.pointer)" }),
        ["missing_field /session_id", "wrong_type /total_count"])
      XCTAssertEqual(result.report.messageType, "session_history")
    }
  }

  func testDirectionAndStrictnessApplyToTheInnerMessage() throws {
    let validator = Validator(options: .init(direction: .clientToServer))
    let result = validator.validate(envelopedFrame: try sealed(history, .binary))
    XCTAssertEqual(result.findings.map(\.code), [.wrongDirection])
    let unknown = Array(#"{"type":"not_a_message","x":1}"#.utf8)
    XCTAssertEqual(
      Validator().validate(envelopedFrame: try sealed(unknown, .text)).findings.map(\.severity), [.warning])
    XCTAssertEqual(
      Validator(options: .init(strict: true)).validate(envelopedFrame: try sealed(unknown, .text)).findings
        .map(\.severity), [.error])
  }

  func testEnvelopeErrorsAreTheirOwnFindings() throws {
    var corrupt = try XCTUnwrap(try sender.seal(history, form: .binary))
    corrupt[corrupt.count - 1] ^= 0xFF
    let binary = Validator().validate(envelopedFrame: .binary(corrupt))
    XCTAssertEqual(binary.envelope, .binary)
    XCTAssertEqual(binary.findings.map(\.code), [FindingCode(EnvelopeError.corrupt)])
    XCTAssertEqual(binary.findings.first?.code.rawValue, "envelope_corrupt")
    XCTAssertEqual(binary.findings.first?.severity, .error)
    XCTAssertEqual(binary.findings.first?.pointer, "")
    XCTAssertNil(binary.frame)
    XCTAssertNil(binary.report.value)
    XCTAssertNil(binary.report.messageType)

    let text = Validator().validate(
      envelopedFrame: .text(Array(#"{"type":"compressed","encoding":"zlib","length":2}"#.utf8)))
    XCTAssertEqual(text.envelope, .text)
    XCTAssertEqual(text.findings.map(\.code.rawValue), ["envelope_malformed"])
    XCTAssertEqual(text.report.messageType, "compressed")
    XCTAssertEqual(text.findings.first?.messageType, "compressed")
  }

  func testInflationIsBoundedByTheCodecsLimits() throws {
    let big = sampleFrame(byteCount: 5000)
    let frame = try sealed(big, .binary)
    let tight = EnvelopeCodec(limits: .init(maxInflatedSize: 4999))
    XCTAssertEqual(
      Validator().validate(envelopedFrame: frame, codec: tight).findings.map(\.code.rawValue),
      ["envelope_too_large"])
    XCTAssertNotNil(Validator().validate(envelopedFrame: frame).frame)
  }

  func testPlainTextFramesAreValidatedAsBefore() {
    for text in [
      #"{"type":"ping"}"#, #"{"type":"ping","extra":1}"#, #"{"type":"connect"}"#, #"{"type":"ping""#,
      #"[1,2]"#, "{\"type\":\"ping\",\"type\":\"ping\"}",
    ] {
      let bytes = Array(text.utf8)
      let plain = Validator().validate(bytes)
      let result = Validator().validate(envelopedFrame: .text(bytes))
      XCTAssertNil(result.envelope, text)
      XCTAssertEqual(result.findings, plain.findings, text)
      XCTAssertEqual(result.report.messageType, plain.messageType, text)
      XCTAssertEqual(result.frame, bytes)
    }
  }

  func testBinaryFramesMustBeEnvelopes() {
    let result = Validator().validate(envelopedFrame: .binary(Array(#"{"type":"ping"}"#.utf8)))
    XCTAssertEqual(result.envelope, .binary)
    XCTAssertEqual(result.findings.map(\.code.rawValue), ["envelope_bad_magic"])
  }

  func testNegotiation() throws {
    for form in EnvelopeForm.allCases {
      let capability = form == .binary ? Capability.compressionBinary : Capability.compressionText
      let other = form == .binary ? Capability.compressionText : Capability.compressionBinary
      let frame = try sealed(history, form)
      let granted = Validator(options: .init(negotiatedCapabilities: [capability]))
      XCTAssertEqual(granted.validate(envelopedFrame: frame).findings, [], "\(form)")
      let refused = Validator(options: .init(negotiatedCapabilities: [other]))
      let findings = refused.validate(envelopedFrame: frame).findings
      XCTAssertEqual(findings.map(\.code), [.extensionNotNegotiated], "\(form)")
      XCTAssertEqual(findings.first?.messageType, "session_history")
      // Unknown negotiation state (nil): not checked.
      XCTAssertEqual(Validator().validate(envelopedFrame: frame).findings, [])
    }
  }

  /// The envelope's `extension_not_negotiated` counts against the frame's findings cap: an enveloped
  /// frame never reports more findings than the same frame sent plain.
  func testTheEnvelopeFindingCountsAgainstTheCap() throws {
    let nulls = Array(repeating: "null", count: 500).joined(separator: ",")
    let frame = Array(#"{"type":"session_list","sessions":[\#(nulls)],"total_count":500}"#.utf8)
    for form in EnvelopeForm.allCases {
      let other = form == .binary ? Capability.compressionText : Capability.compressionBinary
      let options = ValidationOptions(negotiatedCapabilities: [other], maxFindings: 10)
      let plain = Validator(options: options).validate(frame).findings
      let enveloped = Validator(options: options).validate(envelopedFrame: try sealed(frame, form)).findings
      XCTAssertEqual(plain.count, 11, "\(form)")  // 10 and the summary
      XCTAssertEqual(enveloped.count, plain.count, "\(form)")
      XCTAssertEqual(enveloped.first?.code, .extensionNotNegotiated)
      XCTAssertEqual(enveloped.last?.code, .findingsSuppressed)
    }
  }

  func testEnvelopesDoNotNest() throws {
    let inner = try XCTUnwrap(try sender.seal(history, form: .text))
    let result = Validator(options: .init(strict: true)).validate(envelopedFrame: try sealed(inner, .binary))
    XCTAssertEqual(result.frame, inner, "opened once")
    XCTAssertEqual(result.findings.map(\.code), [.unknownType])
    XCTAssertFalse(result.isValid)
  }

  func testEnvelopeFindingCodes() {
    XCTAssertEqual(FindingCode.envelopeCodes.map(\.rawValue), EnvelopeError.allCases.map(\.code))
    XCTAssertEqual(FindingCode(.trailingData).rawValue, "envelope_trailing_data")
  }

  func testEnvelopeFindingsAreLogged() throws {
    let lines = LockedLines()
    let logger = ProtocolLogger(minimumLevel: .debug) { lines.append($0.message) }
    var corrupt = try XCTUnwrap(try sender.seal(history, form: .binary))
    corrupt[corrupt.count - 1] ^= 0xFF
    _ = Validator(logger: logger).validate(envelopedFrame: .binary(corrupt))
    XCTAssertEqual(lines.all.count, 1)
    XCTAssertTrue(lines.all.first?.contains("envelope_corrupt") ?? false, "\(lines.all)")
  }
}

/// A thread-safe list of log lines.
private final class LockedLines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) {
    lock.lock()
    lines.append(line)
    lock.unlock()
  }
  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return lines
  }
}
