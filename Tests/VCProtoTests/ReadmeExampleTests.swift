import Testing

@testable import VCProto

/// The library example in README.md, compiled and run (keep the two in step).
@Suite struct ReadmeExampleTests {
  @Test func readmeExampleWorks() throws {
    let id = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"
    let frames = [
      #"{"type":"command_output_full","command_session_id":"cmd-1","output":"","exit_code":null,"timestamp":"2026-01-11T17:25:30Z","duration_ms":null,"command_id":"make.test","shell_command":"make test","working_directory":"/w"}"#,
      #"{"type":"command_output","command_session_id":"cmd-1","stream":"stderr","text":"1 test failed"}"#,
    ]
    var printed: [String] = []
    let decoder = MessageDecoder(options: ValidationOptions(direction: .serverToClient, protocolVersion: "0.5.0"))
    for frameBytes in frames.map({ Array($0.utf8) }) {
      do {
        switch try decoder.decodeServerMessage(frameBytes) {
        case .sessionHistory(.v0_5_0(let history)):  // the payload of the negotiated version
          for message in history.messages { printed.append("\(message.offset) \(message.role): \(message.text)") }
        case .sessionHistory(.v0_2_0(let history)):  // raw Claude records in 0.2.0
          for record in history.messages { printed.append((record.role ?? "?") + (record.text ?? "")) }
        case .commandOutput(let line):
          printed.append((line.stream == .stderr ? "stderr:" : "stdout:") + line.text)
        case .commandOutputFull(let output):
          printed.append(output.exitCode.map(String.init) ?? "still running")
        case .unknown(let object):
          printed.append("newer server sent " + (object["type"]?.stringValue ?? "?"))
        default:
          break
        }
      } catch {
        for finding in error.findings { printed.append(finding.description) }
      }
    }
    #expect(printed == ["still running", "stderr:1 test failed"])
    let frame = MessageEncoder().encode(
      .prompt(.v0_3_0(PromptMessageV0_3_0(text: "Run the tests", resumeSessionId: id))))
    #expect(
      String(decoding: frame, as: UTF8.self)
        == #"{"type":"prompt","text":"Run the tests","resume_session_id":"\#(id)"}"#)

    do {
      _ = try decoder.decodeServerMessage(Array(#"{"type":"session_list","sessions":[{}],"total_count":1}"#.utf8))
      Issue.record("should fail")
    } catch {
      #expect(error.findings.map(\.pointer).contains("/sessions/0/last_modified"))
    }
  }
}
