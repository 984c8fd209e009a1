import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Validation and decoding per negotiated version: the findings name what is wrong and which version
/// has the type or member (facts from the real system's version history, STANDARDS.md).
@Suite struct VersionValidationTests {
  static func report(_ frame: String, _ version: String) -> ValidationReport {
    Validator(options: ValidationOptions(version: ProtocolVersion(rawValue: version)!)).validate(frame)
  }

  static let history040 =
    #"{"type":"session_history","session_id":"s","messages":[{"uuid":"u","role":"user","text":"hi","timestamp":null,"provider":"claude","session_id":"s","seq":7}],"first_seq":7,"last_seq":7,"next_seq":8,"is_complete":true,"gap":null}"#
  static let history050 =
    #"{"type":"session_history","session_id":"s","messages":[{"uuid":"u","role":"user","text":"hi","timestamp":null,"provider":"claude","session_id":"s","offset":12}],"next_offset":13,"end_of_file":true,"file_signature":"812:u"}"#

  @Test func aZeroFourShapedHistoryOnAZeroFiveChannelNamesWhatIsWrong() throws {
    #expect(Self.report(Self.history040, "0.4.0").findings.isEmpty)
    let report = Self.report(Self.history040, "0.5.0")
    #expect(!report.isValid)
    let errors = Set(report.errors.map { "\($0.code) \($0.pointer)" })
    #expect(
      errors == [
        "missing_field /next_offset", "missing_field /end_of_file", "missing_field /file_signature",
        "missing_field /messages/0/offset",
      ])
    // The 0.4.0 members are named as 0.4.0's: first_seq at the top, seq inside each message.
    let firstSeq = try #require(report.warnings.first { $0.pointer == "/first_seq" })
    #expect(firstSeq.code == .unexpectedField && firstSeq.message.contains("belongs to 0.4.0"))
    let seq = try #require(report.warnings.first { $0.pointer == "/messages/0/seq" })
    #expect(seq.message.contains("not part of protocol 0.5.0") && seq.message.contains("belongs to 0.4.0"))
    // And the reverse: offset where 0.4.0 has seq.
    let reverse = Self.report(Self.history050, "0.4.0")
    #expect(reverse.errors.contains { $0.pointer == "/messages/0/seq" && $0.code == .missingField })
    #expect(reverse.warnings.contains { $0.pointer == "/messages/0/offset" && $0.message.contains("belongs to 0.5.0") })
  }

  @Test func typesOfOtherVersionsAreNotInVersionWithTheirVersions() throws {
    let removed = Self.report(#"{"type":"set_directory","path":"/p"}"#, "0.5.0")
    let finding = try #require(removed.errors.first)
    #expect(finding.code == .notInVersion && finding.pointer == "/type")
    #expect(finding.message.contains("exists in 0.2.0"))
    let added = Self.report(#"{"type":"canvas_update","components":[]}"#, "0.2.0")
    #expect(added.errors.first?.message.contains("exists in 0.3.0-0.5.0") == true)
    #expect(Self.report(#"{"type":"canvas_update","components":[]}"#, "0.3.0").isValid)
    // A type no version has stays a warning.
    #expect(Self.report(#"{"type":"get_session_stats"}"#, "0.5.0").warnings.first?.code == .unknownType)
  }

  @Test func theRealServersValueRules() {
    func errors(_ frame: String, _ version: String) -> [String] {
      Self.report(frame, version).errors.map { "\($0.code) \($0.pointer)" }
    }
    // 0.4.0 refuses a non-null last_message_id, tolerates null.
    #expect(
      errors(#"{"type":"subscribe","session_id":"s","last_message_id":"m"}"#, "0.4.0") == [
        "invalid_value /last_message_id"
      ])
    #expect(errors(#"{"type":"subscribe","session_id":"s","last_message_id":null}"#, "0.4.0").isEmpty)
    #expect(errors(#"{"type":"subscribe","session_id":"s","last_message_id":"m"}"#, "0.3.0").isEmpty)
    // Cursors are non-negative integers; 5.0 and "5" are not integers.
    #expect(errors(#"{"type":"subscribe","session_id":"s","last_seq":-1}"#, "0.4.0") == ["invalid_value /last_seq"])
    #expect(errors(#"{"type":"subscribe","session_id":"s","last_seq":5.0}"#, "0.4.0") == ["wrong_type /last_seq"])
    #expect(errors(#"{"type":"subscribe","session_id":"s","from_offset":"5"}"#, "0.5.0") == ["wrong_type /from_offset"])
    #expect(
      errors(#"{"type":"subscribe","session_id":"s","from_offset":-3}"#, "0.5.0") == ["invalid_value /from_offset"])
    // aborted and file_replaced are only ever true.
    #expect(
      errors(#"{"type":"turn_complete","session_id":"s","aborted":false}"#, "0.4.0") == ["invalid_value /aborted"])
    #expect(
      errors(
        #"{"type":"session_history","session_id":"s","messages":[],"next_offset":0,"end_of_file":true,"file_signature":null,"file_replaced":false}"#,
        "0.5.0") == ["invalid_value /file_replaced"])
    // The server's closed provider set on prompt.
    #expect(
      errors(#"{"type":"prompt","text":"t","new_session_id":"n","provider":"gemini"}"#, "0.5.0") == [
        "invalid_value /provider"
      ])
    #expect(errors(#"{"type":"prompt","text":"t","new_session_id":"n","provider":"cursor"}"#, "0.5.0").isEmpty)
    // The too-old refusal carries required and received.
    #expect(
      errors(
        #"{"type":"error","message":"Client is too old; upgrade required","code":"unsupported_protocol_version","required":"0.4.0"}"#,
        "0.4.0")
        == ["missing_field /received"])
  }

  @Test func decodingTakesTheNegotiatedVersion() throws {
    let v050 = MessageDecoder(options: ValidationOptions(version: .v0_5_0))
    // A type whose members did not change decodes to its typed struct, on the direct path.
    let ready = #"{"type":"session_ready","session_id":"s","message":"Session is ready for subscription"}"#
    #expect(v050.directBuild(Array(ready.utf8)) != nil)
    guard case .server(.sessionReady(let payload)) = try v050.decode(ready) else {
      Issue.record("session_ready did not decode typed")
      return
    }
    #expect(payload.sessionId == "s")
    // A changed type decodes to the payload of the negotiated version, on the direct path too.
    #expect(v050.directBuild(Array(Self.history050.utf8)) != nil)
    guard case .server(.sessionHistory(.v0_5_0(let history))) = try v050.decode(Self.history050) else {
      Issue.record("0.5.0 session_history did not decode to its 0.5.0 payload")
      return
    }
    #expect(history.nextOffset == 13 && history.endOfFile && history.fileSignature == "812:u")
    #expect(history.messages.map(\.offset) == [12] && history.messages[0].role == .user)
    let v040 = MessageDecoder(options: ValidationOptions(version: .v0_4_0))
    guard case .server(.sessionHistory(.v0_4_0(let seqHistory))) = try v040.decode(Self.history040) else {
      Issue.record("0.4.0 session_history did not decode to its 0.4.0 payload")
      return
    }
    #expect(seqHistory.nextSeq == 8 && seqHistory.messages.map(\.seq) == [7])
    // The 0.4.0 shape fails on a 0.5.0 channel, with the validator's findings.
    #expect(throws: DecodingFailure.self) { try v050.decode(Self.history040) }
    // A type the version lacks never decodes, even though the model has a struct for it.
    let setDirectory = #"{"type":"set_directory","path":"/p"}"#
    #expect(v050.directBuild(Array(setDirectory.utf8)) == nil)
    do {
      _ = try v050.decode(setDirectory)
      Issue.record("set_directory decoded on 0.5.0")
    } catch {
      #expect(error.findings.map(\.code) == [.notInVersion])
    }
  }
}
