import Foundation
import Testing
import VCProto

/// The decoding example README.md showed before it showed the hosts (HostReadmeExampleTests): a
/// typed payload per version, closed sets as enums, unknown types kept, every finding reported.
/// `print` is shadowed so the test sees what it prints.
@Suite struct ReadmeExampleTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let id = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"

  /// What the README's code prints for each frame, and the frame it encodes.
  static func runReadmeExample(_ frames: [String]) -> (printed: [String], frame: [UInt8]) {
    var printed: [String] = []
    func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
    let id = Self.id
    for frameBytes in frames.map({ Array($0.utf8) }) {
      let decoder = MessageDecoder(options: ValidationOptions(direction: .serverToClient, version: .v0_5_0))
      do {
        switch try decoder.decodeServerMessage(frameBytes) {
        case .sessionHistory(.v0_5_0(let history)):  // the payload of the negotiated version
          for message in history.messages { print(message.offset, message.role, message.text) }
        case .commandOutput(let line):
          print(line.stream == .stderr ? "stderr:" : "stdout:", line.text)  // a closed set is a Swift enum
        case .unknown(let object):
          print("newer server sent", object["type"]?.stringValue ?? "?")  // kept whole, never dropped
        default:
          break
        }
      } catch {
        for finding in error.findings { print(finding) }  // code, JSON Pointer, message; secrets redacted
      }
    }
    let frame = MessageEncoder().encode(
      .prompt(.v0_3_0(PromptMessageV0_3_0(text: "Run the tests", resumeSessionId: id))))
    return (printed, frame)
  }

  @Test func readmeExampleWorks() throws {
    let frames = [
      #"{"type":"session_history","session_id":"s","messages":[{"session_id":"s","offset":2,"role":"user","text":"Run the tests","uuid":"e1d2c3b4-0001-4a5b-8c9d-000000000001","timestamp":"2026-05-18T17:02:11.204Z","provider":"claude"}],"next_offset":3,"end_of_file":true,"file_signature":null}"#,
      #"{"type":"command_output","command_session_id":"cmd-1","stream":"stderr","text":"1 test failed"}"#,
      #"{"type":"command_output_full","command_session_id":"cmd-1","output":"","exit_code":null,"timestamp":"2026-01-11T17:25:30Z","duration_ms":null,"command_id":"make.test","shell_command":"make test","working_directory":"/w"}"#,
      #"{"type":"canvas_blink","id":1}"#,
      #"{"type":"session_list","sessions":[{}],"total_count":1}"#,
    ]
    let (printed, frame) = Self.runReadmeExample(frames)
    #expect(printed.count >= 4, "\(printed)")
    #expect(printed.first == "2 user Run the tests")
    #expect(printed.dropFirst().first == "stderr: 1 test failed")
    #expect(printed.dropFirst(2).first == "newer server sent canvas_blink")
    #expect(printed.dropFirst(3).contains { $0.contains("/sessions/0/last_modified") && $0.contains("missing_field") })
    #expect(
      String(decoding: frame, as: UTF8.self)
        == #"{"type":"prompt","text":"Run the tests","resume_session_id":"\#(Self.id)"}"#)
  }
}
