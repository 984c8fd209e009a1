import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

@Suite struct SmokeDecodeTests {
  @Test func decodesConnectAndRoundTrips() throws {
    let frame =
      #"{"type":"connect","api_key":"untethered-00112233445566778899aabbccddeeff","session_id":"4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11","x_extra":[1,2]}"#
    let decoded = try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(frame)
    guard case .client(.connect(let c)) = decoded else {
      Issue.record("expected connect, got \(decoded)")
      return
    }
    #expect(c.apiKey == "untethered-00112233445566778899aabbccddeeff")
    #expect(c.sessionId == "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11")
    #expect(c.additionalMembers.keys == ["x_extra"])
    #expect(MessageEncoder().encodeText(decoded) == frame)
  }

  @Test func reportsEveryMissingFieldWithPointer() {
    let frame =
      #"{"type":"session_list","sessions":[{"session_id":"a","name":"n","working_directory":"/w","message_count":1},{"name":3}],"total_count":2}"#
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(frame)
    let pairs = report.findings.map { "\($0.code.rawValue) \($0.pointer)" }
    #expect(pairs.contains("missing_field /sessions/0/last_modified"))
    #expect(pairs.contains("missing_field /sessions/1/session_id"))
    #expect(pairs.contains("wrong_type /sessions/1/name"))
    #expect(!report.isValid)
  }
}
