import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Frames on which `fuzz-frame` found the decoder and the validator disagreeing, inline. Each must be
/// refused by both, or accepted by both.
@Suite struct DecoderAgreementRegressionTests {
  /// fuzz-frame, 2026-11-23 (crash-9ef5d331…, the first run over every version): in 0.3.0 each
  /// `session_updated.messages[]` is a HistoryMessage or a raw Claude record, then kept as plain JSON
  /// by the model, whose check looked only at the JSON type (an object; now the elements are typed,
  /// `HistoryMessageOrClaudeRecord`, and the case is chosen by the validator's own rule). A raw record whose `message`
  /// is `null` (not nullable, STANDARDS.md#findings, ClaudeRecord) decoded although the validator
  /// refused it.
  @Test(arguments: [
    #"{"type":"user","uuid":"1f0e2d3c","message":null}"#,
    #"{"type":"user","message":{"content":[null]}}"#,
    #"{"uuid":"u","role":"robot","text":"t","timestamp":null,"provider":"claude"}"#,
    #"{}"#,
  ])
  func alternativeShapesAreCheckedWhole(_ element: String) {
    let frame = #"{"type":"session_updated","session_id":"s","messages":[\#(element)]}"#
    let options = ValidationOptions(version: .v0_3_0)
    #expect(!Validator(options: options).validate(frame).isValid)
    for decoder in [
      MessageDecoder(options: options),
      MessageDecoder(options: options, logger: ProtocolLogger(minimumLevel: .info) { _ in }),
    ] {
      #expect(throws: DecodingFailure.self) { try decoder.decode(frame) }
    }
  }

  /// The same member with a valid element of each alternative still decodes.
  @Test func validAlternativesStillDecode() throws {
    let history = #"{"uuid":"u","role":"user","text":"t","timestamp":null,"provider":"claude"}"#
    let record = #"{"type":"user","message":{"content":"hi"}}"#
    let frame = #"{"type":"session_updated","session_id":"s","messages":[\#(history),\#(record)]}"#
    let options = ValidationOptions(version: .v0_3_0)
    #expect(Validator(options: options).validate(frame).isValid)
    let message = try MessageDecoder(options: options).decode(frame)
    guard case .server(.sessionUpdated(.v0_3_0(let updated))) = message else {
      Issue.record("decoded as \(message)")
      return
    }
    guard updated.messages.count == 2, case .historyMessage(let first) = updated.messages[0],
      case .claudeRecord(let second) = updated.messages[1]
    else {
      Issue.record("elements decoded as \(updated.messages)")
      return
    }
    #expect(first.role == .user && second.text == "hi")
  }
}
