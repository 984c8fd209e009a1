import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `Validator.validate(envelopedFrame:codec:)`: a host app validates what it received, enveloped
/// or not, and gets findings against the inner message.
@Suite struct EnvelopedValidationTests {
  private let sender = EnvelopeCodec(configuration: .init(threshold: 0))
  private let history = sampleHistory()

  private func sealed(_ frame: [UInt8], _ form: EnvelopeForm) throws -> WebSocketMessage {
    let bytes = try #require(try sender.seal(frame, form: form))
    return form == .binary ? .binary(bytes) : .text(bytes)
  }

  @Test func validInnerMessageInBothForms() throws {
    for form in EnvelopeForm.allCases {
      let result = Validator(options: ValidationOptions(version: .v0_2_0)).validate(
        envelopedFrame: try sealed(history, form))
      #expect(result.envelope == form)
      #expect(result.findings == [], "\(form)")
      #expect(result.isValid)
      #expect(result.frame == history)
      #expect(result.report.messageType == "session_history")
      #expect(result.report.direction == .serverToClient)
      #expect(result.report.value?["session_id"]?.stringValue == "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11")
    }
  }

  @Test func findingsPointIntoTheInnerMessage() throws {
    // Inner session_history without session_id and with a wrong total_count type.
    var object = try #require(try JSONReader().parse(history).objectValue)
    object["session_id"] = nil
    object["total_count"] = .string("2")
    var writer = JSONWriter()
    writer.write(.object(object))
    let inner = writer.bytes
    let plain = Validator(options: ValidationOptions(version: .v0_2_0)).validate(inner)
    #expect(!plain.isValid)
    for form in EnvelopeForm.allCases {
      let result = Validator(options: ValidationOptions(version: .v0_2_0)).validate(
        envelopedFrame: try sealed(inner, form))
      #expect(result.envelope == form)
      #expect(result.findings == plain.findings, "\(form): the same findings as the plain frame")
      #expect(
        Set(result.findings.map { "\($0.code.rawValue) \($0.pointer)" }) == [
          "missing_field /session_id", "wrong_type /total_count",
        ])
      #expect(result.report.messageType == "session_history")
    }
  }

  @Test func directionAndStrictnessApplyToTheInnerMessage() throws {
    let validator = Validator(options: .init(direction: .clientToServer, version: .v0_2_0))
    let result = validator.validate(envelopedFrame: try sealed(history, .binary))
    #expect(result.findings.map(\.code) == [.wrongDirection])
    let unknown = Array(#"{"type":"not_a_message","x":1}"#.utf8)
    #expect(
      Validator(options: ValidationOptions(version: .v0_2_0)).validate(envelopedFrame: try sealed(unknown, .text))
        .findings.map(\.severity) == [.warning])
    #expect(
      Validator(options: .init(version: .v0_2_0, strict: true)).validate(envelopedFrame: try sealed(unknown, .text))
        .findings
        .map(\.severity) == [.error])
  }

  @Test func envelopeErrorsAreTheirOwnFindings() throws {
    var corrupt = try #require(try sender.seal(history, form: .binary))
    corrupt[corrupt.count - 1] ^= 0xFF
    let binary = Validator(options: ValidationOptions(version: .v0_2_0)).validate(envelopedFrame: .binary(corrupt))
    #expect(binary.envelope == .binary)
    #expect(binary.findings.map(\.code) == [FindingCode(EnvelopeError.corrupt)])
    #expect(binary.findings.first?.code.rawValue == "envelope_corrupt")
    #expect(binary.findings.first?.severity == .error)
    #expect(binary.findings.first?.pointer == "")
    #expect(binary.frame == nil)
    #expect(binary.report.value == nil)
    #expect(binary.report.messageType == nil)

    let text = Validator(options: ValidationOptions(version: .v0_2_0)).validate(
      envelopedFrame: .text(Array(#"{"type":"compressed","encoding":"zlib","length":2}"#.utf8)))
    #expect(text.envelope == .text)
    #expect(text.findings.map(\.code.rawValue) == ["envelope_malformed"])
    #expect(text.report.messageType == "compressed")
    #expect(text.findings.first?.messageType == "compressed")
  }

  @Test func inflationIsBoundedByTheCodecsLimits() throws {
    let big = sampleFrame(byteCount: 5000)
    let frame = try sealed(big, .binary)
    let tight = EnvelopeCodec(limits: .init(maxInflatedSize: 4999))
    #expect(
      Validator(options: ValidationOptions(version: .v0_2_0)).validate(envelopedFrame: frame, codec: tight).findings
        .map(\.code.rawValue) == ["envelope_too_large"])
    #expect(Validator(options: ValidationOptions(version: .v0_2_0)).validate(envelopedFrame: frame).frame != nil)
  }

  @Test func plainTextFramesAreValidatedAsBefore() {
    for text in [
      #"{"type":"ping"}"#, #"{"type":"ping","extra":1}"#, #"{"type":"connect"}"#, #"{"type":"ping""#,
      #"[1,2]"#, "{\"type\":\"ping\",\"type\":\"ping\"}",
    ] {
      let bytes = Array(text.utf8)
      let plain = Validator(options: ValidationOptions(version: .v0_2_0)).validate(bytes)
      let result = Validator(options: ValidationOptions(version: .v0_2_0)).validate(envelopedFrame: .text(bytes))
      #expect(result.envelope == nil, "\(text)")
      #expect(result.findings == plain.findings, "\(text)")
      #expect(result.report.messageType == plain.messageType, "\(text)")
      #expect(result.frame == bytes)
    }
  }

  @Test func binaryFramesMustBeEnvelopes() {
    let result = Validator(options: ValidationOptions(version: .v0_2_0)).validate(
      envelopedFrame: .binary(Array(#"{"type":"ping"}"#.utf8)))
    #expect(result.envelope == .binary)
    #expect(result.findings.map(\.code.rawValue) == ["envelope_bad_magic"])
  }

  @Test func negotiation() throws {
    for form in EnvelopeForm.allCases {
      let capability = form == .binary ? Capability.compressionBinary : Capability.compressionText
      let other = form == .binary ? Capability.compressionText : Capability.compressionBinary
      let frame = try sealed(history, form)
      let granted = Validator(options: .init(version: .v0_2_0, negotiatedCapabilities: [capability]))
      #expect(granted.validate(envelopedFrame: frame).findings == [], "\(form)")
      let refused = Validator(options: .init(version: .v0_2_0, negotiatedCapabilities: [other]))
      let findings = refused.validate(envelopedFrame: frame).findings
      #expect(findings.map(\.code) == [.extensionNotNegotiated], "\(form)")
      #expect(findings.first?.messageType == "session_history")
      // Unknown negotiation state (nil): not checked.
      #expect(Validator(options: ValidationOptions(version: .v0_2_0)).validate(envelopedFrame: frame).findings == [])
    }
  }

  /// The envelope's `extension_not_negotiated` counts against the frame's findings cap: an enveloped
  /// frame never reports more findings than the same frame sent plain.
  @Test func theEnvelopeFindingCountsAgainstTheCap() throws {
    let nulls = Array(repeating: "null", count: 500).joined(separator: ",")
    let frame = Array(#"{"type":"session_list","sessions":[\#(nulls)],"total_count":500}"#.utf8)
    for form in EnvelopeForm.allCases {
      let other = form == .binary ? Capability.compressionText : Capability.compressionBinary
      let options = ValidationOptions(version: .v0_2_0, negotiatedCapabilities: [other], maxFindings: 10)
      let plain = Validator(options: options).validate(frame).findings
      let enveloped = Validator(options: options).validate(envelopedFrame: try sealed(frame, form)).findings
      #expect(plain.count == 11, "\(form)")  // 10 and the summary
      #expect(enveloped.count == plain.count, "\(form)")
      #expect(enveloped.first?.code == .extensionNotNegotiated)
      #expect(enveloped.last?.code == .findingsSuppressed)
    }
  }

  @Test func envelopesDoNotNest() throws {
    let inner = try #require(try sender.seal(history, form: .text))
    let result = Validator(options: .init(version: .v0_2_0, strict: true)).validate(
      envelopedFrame: try sealed(inner, .binary))
    #expect(result.frame == inner, "opened once")
    #expect(result.findings.map(\.code) == [.unknownType])
    #expect(!result.isValid)
  }

  @Test func envelopeFindingCodes() {
    #expect(FindingCode.envelopeCodes.map(\.rawValue) == EnvelopeError.allCases.map(\.code))
    #expect(FindingCode(.trailingData).rawValue == "envelope_trailing_data")
  }

  @Test func envelopeFindingsAreLogged() throws {
    let lines = LockedLines()
    let logger = ProtocolLogger(minimumLevel: .debug) { lines.append($0.message) }
    var corrupt = try #require(try sender.seal(history, form: .binary))
    corrupt[corrupt.count - 1] ^= 0xFF
    _ = Validator(options: ValidationOptions(version: .v0_2_0), logger: logger).validate(
      envelopedFrame: .binary(corrupt))
    #expect(lines.all.count == 1)
    #expect(lines.all.first?.contains("envelope_corrupt") ?? false, "\(lines.all)")
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
