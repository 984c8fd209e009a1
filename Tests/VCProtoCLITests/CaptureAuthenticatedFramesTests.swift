import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

/// `vcproto validate` on a connection with `authenticated_frames` (STANDARDS.md#authenticated-frames,
/// "Observed"):
/// each wrapper is checked by the frame it carries (no `unknown_type` for the wrapper),
/// and a plain frame or a sequence out of order is a finding on its line.
@Suite struct CaptureAuthenticatedFramesTests {
  static let c2s = "client_to_server"
  static let s2c = "server_to_client"
  static let hex = String(repeating: "ab", count: 32)

  static func sealed(_ seq: Int, _ inner: String) -> String {
    JSONValue.object(
      JSONObject([
        .init(key: "type", value: "authenticated"), .init(key: "seq", value: JSONValue(integerLiteral: seq)),
        .init(key: "mac", value: .string(hex)), .init(key: "frame", value: .string(inner)),
      ])
    ).jsonText
  }

  static let handshake: [(String, Double, String)] = [
    (
      s2c, 0,
      #"{"type":"hello","message":"m","version":"0.5.0","auth_version":1,"instructions":"i","#
        + #""protocol_versions":["0.4.0","0.5.0"],"auth_versions":[1,2],"capabilities":["authenticated_frames"],"#
        + #""challenge":"\#(hex)"}"#
    ),
    (
      c2s, 1,
      #"{"type":"connect","protocol_version":"0.5.0","capabilities":["authenticated_frames"],"auth_version":2,"#
        + #""client_nonce":"00112233445566778899aabbccddeeff","auth_response":"\#(hex)"}"#
    ),
    (
      s2c, 2,
      #"{"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"0.5.0","#
        + #""capabilities":["authenticated_frames"],"auth_version":2,"server_proof":"\#(hex)"}"#
    ),
  ]

  @Test func wrappersAreCheckedByWhatTheyCarry() throws {
    let result = try CaptureConversationTests().findings(
      Self.handshake + [
        (Self.c2s, 3, Self.sealed(0, #"{"type":"subscribe","session_id":"s-1","from_offset":0}"#)),
        (Self.s2c, 4, Self.sealed(0, #"{"type":"session_list","sessions":[],"total_count":0}"#)),
        (Self.s2c, 5, Self.sealed(1, #"{"type":"session_list","sessions":"none","total_count":0}"#)),
        (Self.c2s, 6, #"{"type":"refresh_sessions"}"#),
        (Self.c2s, 7, Self.sealed(0, #"{"type":"ping"}"#)),
      ])
    #expect(result == ["6: wrong_type", "7: unauthenticated_frame", "8: frame_sequence"])
  }

  /// A capture that names its connections (as `vcproto-tap` writes it) or a HAR entry is one
  /// connection: a plain `hello` on a sealed connection is then a frame injected into it (its client
  /// closes with `not_authenticated`), not the start of another connection that hides what follows.
  @Test func aPlainHelloOnANamedSealedConnectionIsAFinding() throws {
    let records =
      Self.handshake + [
        (Self.c2s, 3, Self.sealed(0, #"{"type":"ping"}"#)),
        (Self.s2c, 4, #"{"type":"hello","message":"m","version":"0.5.0","auth_version":1,"instructions":"i"}"#),
        (Self.s2c, 5, #"{"type":"session_list","sessions":[],"total_count":0}"#),
        (Self.c2s, 6, Self.sealed(1, #"{"type":"ping"}"#)),
      ]
    let text = records.map { direction, time, frame in
      #"{"connection":7,"direction":"\#(direction)","time":\#(time),"data":\#(JSONValue.string(frame).jsonText)}"#
    }.joined(separator: "\n")
    let url = temporaryFile(text + "\n", name: "sealed-hello.jsonl")
    let reader = JSONLinesReader(source: try #require(ByteSource.open(path: url.path)))
    let validation = CaptureValidation(
      checker: FrameChecker(directionOverride: nil, strict: false, opener: .standard), defaultVersion: .v0_2_0)
    var lines: [String] = []
    try validation.run(reader) { outcome in
      guard case .line(let n) = outcome.position, !outcome.findings.isEmpty else { return }
      lines.append("\(n): " + outcome.findings.map(\.code.rawValue).joined(separator: " "))
    }
    #expect(
      lines == ["5: unauthenticated_frame", "6: unauthenticated_frame"], "line 7, the next sealed frame, is fine")
  }
}
