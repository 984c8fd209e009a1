import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// One test per finding code, with the exact pointer and severity, plus decode/validate agreement.
@Suite struct ValidatorCodeTests {
  func findings(_ frame: String, _ options: ValidationOptions = ValidationOptions(version: .v0_2_0)) -> [String] {
    Validator(options: options).validate(frame).findings.map {
      "\($0.severity.rawValue) \($0.code.rawValue) \($0.pointer)"
    }
  }

  @Test func frameLevelCodes() {
    #expect(findings("{\"type\":") == ["error invalid_json "])
    #expect(findings("[1]") == ["error not_an_object "])
    #expect(findings("{\"session_id\":\"x\"}") == ["error missing_type /type"])
    #expect(findings("{\"type\":7}") == ["error wrong_type /type"])
  }

  /// `invalid_json` carries the byte offset STANDARDS.md#findings defines: the 0-based index of the
  /// first byte at which the text stops being a prefix of JSON (the frame's length when it is cut
  /// short). Offsets counted by hand, in UTF-8 bytes.
  @Test func invalidJSONCarriesTheByteOffset() {
    func offset(_ frame: String) -> [Int?] {
      Validator(options: ValidationOptions(version: .v0_2_0)).validate(frame).findings.filter {
        $0.code == .invalidJSON
      }.map(\.offset)
    }
    #expect(offset("{\"type\":") == [8])  // cut short: the end of the frame
    #expect(offset("{\"type\":\"ping\"") == [14])
    #expect(offset("{\"type\":\"ping\",}") == [15])  // the `}` after the trailing comma
    #expect(offset("{\"type\":\"ping\"} x") == [16])  // trailing data: the `x`
    #expect(offset("{\"type\":'x'}") == [8])
    #expect(offset("{\"type\":\"p\u{01}\"}") == [10])  // a raw control character
    #expect(offset("{\"é\":1,}") == [8])  // é is two bytes
  }

  @Test func unknownTypeIsAWarningUnlessStrict() {
    #expect(findings("{\"type\":\"mystery\"}") == ["warning unknown_type /type"])
    #expect(
      findings("{\"type\":\"mystery\"}", ValidationOptions(version: .v0_2_0, strict: true)) == [
        "error unknown_type /type"
      ])
    #expect(findings("{\"type\":\"recipe_step_complete\"}") == ["warning unknown_type /type"])
  }

  @Test func notInVersionAndWrongDirection() {
    #expect(findings("{\"type\":\"canvas_update\",\"components\":[]}") == ["error not_in_version /type"])
    #expect(
      findings("{\"type\":\"pong\"}", ValidationOptions(direction: .clientToServer, version: .v0_2_0)) == [
        "error wrong_direction /type"
      ])
  }

  @Test func memberCodesWithNestedPointers() {
    let frame = """
      {"type":"available_commands","working_directory":null,"project_commands":[{"id":"a","label":"A","type":"group",\
      "children":[{"id":"b","label":"B","type":"command"},{"id":"c","label":7,"type":"folder"}]}],\
      "general_commands":[null],"extra~/x":1}
      """
    #expect(
      findings(frame) == [
        "error wrong_type /project_commands/0/children/1/label",
        "error invalid_value /project_commands/0/children/1/type",
        "error null_not_allowed /general_commands/0",
        "warning unexpected_field /extra~0~1x",
      ])
  }

  @Test func rangeFormatAndClosedSet() {
    #expect(findings("{\"type\":\"set_max_message_size\",\"size_kb\":0}") == ["error invalid_value /size_kb"])
    #expect(
      findings("{\"type\":\"heartbeat\",\"timestamp\":\"2026-02-30T00:00:00Z\"}") == ["error invalid_value /timestamp"])
    #expect(findings("{\"type\":\"heartbeat\",\"timestamp\":\"2026-02-28T23:59:59.5+01:00\"}") == [])
    #expect(
      findings("{\"type\":\"command_output\",\"command_session_id\":\"c\",\"stream\":\"stdin\",\"text\":\"\"}")
        == ["error invalid_value /stream"])
    #expect(findings("{\"type\":\"turn_complete\"}") == ["error missing_field /session_id"])
    #expect(findings("{\"type\":\"turn_complete\",\"session_id\":null}") == [])
  }

  @Test func crossFieldRules() {
    #expect(
      findings("{\"type\":\"prompt\",\"text\":\"hi\",\"new_session_id\":\"a\",\"resume_session_id\":\"b\"}")
        == ["error constraint_violation /resume_session_id"])
    #expect(findings("{\"type\":\"prompt\",\"text\":\"hi\",\"new_session_id\":\"a\",\"resume_session_id\":null}") == [])
    #expect(findings("{\"type\":\"connect\"}") == ["error missing_field /api_key"])
    #expect(
      findings("{\"type\":\"connect\",\"auth_version\":2,\"auth_response\":\"00ff\"}")
        == ["error constraint_violation /client_nonce"])
  }

  @Test func everyErrorIsReportedNotJustTheFirst() {
    let frame = "{\"type\":\"file_uploaded\",\"filename\":1,\"size\":\"big\"}"
    #expect(
      findings(frame) == [
        "error wrong_type /filename", "error missing_field /path", "error wrong_type /size",
        "error missing_field /timestamp",
      ])
  }

  @Test func decodeSucceedsExactlyWhenThereIsNoErrorFinding() {
    let frames = [
      "{\"type\":\"ping\"}", "{\"type\":\"ping\",\"x\":1}", "{\"type\":\"mystery\"}", "{\"type\":\"connect\"}",
      "{\"type\":\"turn_complete\",\"session_id\":null}", "[]", "{\"type\":\"set_max_message_size\",\"size_kb\":-1}",
    ]
    for frame in frames {
      let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(frame)
      do {
        _ = try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(frame)
        #expect(report.isValid, "\(frame) decoded despite errors")
      } catch {
        #expect(!report.isValid, "\(frame) failed to decode without errors")
        #expect(error.findings == report.findings)
      }
    }
  }

  @Test func strictDecodeRefusesUnknownTypes() {
    #expect(throws: DecodingFailure.self) {
      try MessageDecoder(options: ValidationOptions(version: .v0_2_0, strict: true)).decode("{\"type\":\"mystery\"}")
    }
    #expect(
      (try? MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode("{\"type\":\"mystery\"}"))?.type
        == "mystery")
  }
}

@Suite struct NegotiatedCapabilityTests {
  let heartbeat = "{\"type\":\"heartbeat\",\"timestamp\":\"2026-01-11T17:25:32Z\"}"
  let prompt = "{\"type\":\"prompt\",\"text\":\"hi\",\"idempotency_key\":\"k-1\"}"

  func codes(_ frame: String, _ capabilities: Set<String>?) -> [String] {
    Validator(options: ValidationOptions(version: .v0_2_0, negotiatedCapabilities: capabilities)).validate(frame)
      .findings.map {
        "\($0.code.rawValue) \($0.pointer)"
      }
  }

  @Test func extensionsAreCheckedOnlyAgainstANegotiatedSet() {
    #expect(codes(heartbeat, nil) == [])
    #expect(codes(heartbeat, []) == ["extension_not_negotiated /type"])
    #expect(codes(heartbeat, ["heartbeat"]) == [])
    #expect(codes(prompt, ["heartbeat"]) == ["extension_not_negotiated /idempotency_key"])
    #expect(codes(prompt, ["idempotent_prompt"]) == [])
  }

  @Test func decoderAgreesWithTheValidator() {
    let decoder = MessageDecoder(options: ValidationOptions(version: .v0_2_0, negotiatedCapabilities: ["draining"]))
    #expect(throws: DecodingFailure.self) { try decoder.decode(heartbeat) }
    #expect(throws: DecodingFailure.self) { try decoder.decode(prompt) }
    let allowed = MessageDecoder(options: ValidationOptions(version: .v0_2_0, negotiatedCapabilities: ["heartbeat"]))
    #expect((try? allowed.decode(heartbeat))?.type == "heartbeat")
  }
}
