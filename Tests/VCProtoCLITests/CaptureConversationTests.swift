import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

/// `vcproto validate` hands every frame to the library's conversation observer with its capture
/// time, and reports what the observer finds on the frame's own line (STANDARDS.md#observing).
@Suite struct CaptureConversationTests {
  /// Runs a JSON Lines capture of `(direction, seconds, frame)` records; returns `line: codes` for
  /// each line that has findings.
  func findings(_ records: [(String, Double, String)]) throws -> [String] {
    let text = records.map { direction, time, frame in
      #"{"direction":"\#(direction)","time":\#(time),"data":\#(JSONValue.string(frame).jsonText)}"#
    }.joined(separator: "\n")
    let url = temporaryFile(text + "\n", name: "conversation.jsonl")
    let reader = JSONLinesReader(source: try #require(ByteSource.open(path: url.path)))
    let validation = CaptureValidation(
      checker: FrameChecker(directionOverride: nil, strict: false, opener: .standard), defaultVersion: .v0_2_0)
    var lines: [String] = []
    try validation.run(reader) { outcome in
      guard case .line(let n) = outcome.position, !outcome.findings.isEmpty else { return }
      lines.append("\(n): " + outcome.findings.map(\.code.rawValue).joined(separator: " "))
    }
    return lines
  }

  /// Capture times (seconds) reach the observer as milliseconds: 93 s of server silence with
  /// `heartbeat` negotiated is a gap (the limit is 90 s), 89 s is not; an answer nobody asked for is
  /// reported on its line.
  @Test func conversationFindingsComeFromTheObserver() throws {
    let s2c = "server_to_client"
    let c2s = "client_to_server"
    let result = try findings([
      (
        s2c, 0,
        #"{"type":"hello","message":"m","version":"0.2.0","auth_version":1,"instructions":"i","capabilities":["heartbeat"]}"#
      ),
      (c2s, 1, #"{"type":"connect","api_key":"k","capabilities":["heartbeat"]}"#),
      (s2c, 2, #"{"type":"session_list","sessions":[],"total_count":0}"#),
      (s2c, 91, #"{"type":"heartbeat","timestamp":"2026-01-11T09:15:02Z"}"#),
      (s2c, 184, #"{"type":"heartbeat","timestamp":"2026-01-11T09:16:35Z"}"#),
      (s2c, 185, #"{"type":"command_history","sessions":[],"limit":50}"#),
    ])
    #expect(result == ["5: heartbeat_gap", "6: unsolicited_answer"])
  }
}
