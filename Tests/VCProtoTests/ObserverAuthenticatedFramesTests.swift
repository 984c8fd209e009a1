import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The conversation observer on a connection whose `connected` granted `authenticated_frames`
/// (STANDARDS.md#frames-observed and STANDARDS.md#observing): it has no key, so it checks what the wire shows
/// (every frame wrapped, the wrapper's form, `seq` per direction) and the rest on the inner frames.
@Suite struct ObserverAuthenticatedFramesTests {
  func codes(_ frames: [(String, JSONObject)]) -> [[String]] {
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    return frames.map { frame in
      observer.observe(
        ConversationObserver.Frame(direction: frame.0 == ">" ? .clientToServer : .serverToClient, message: frame.1)
      ).map(\.code.rawValue)
    }
  }

  static func object(_ text: String) -> JSONObject { try! JSONReader().parse(text).objectValue! }

  /// A wrapper as a sender writes it; the MAC is not checked by an observer, any 64 hex digits do.
  static func sealed(_ seq: Int, _ inner: String, mac: String = String(repeating: "ab", count: 32)) -> JSONObject {
    JSONObject([
      .init(key: "type", value: "authenticated"), .init(key: "seq", value: JSONValue(integerLiteral: seq)),
      .init(key: "mac", value: .string(mac)), .init(key: "frame", value: .string(inner)),
    ])
  }

  static func handshake(granting capabilities: String) -> [(String, JSONObject)] {
    [
      (
        "<",
        object(
          #"{"type":"hello","message":"m","version":"0.5.0","auth_version":1,"instructions":"i","#
            + #""protocol_versions":["0.4.0","0.5.0"],"auth_versions":[1,2],"capabilities":["authenticated_frames"],"#
            + #""challenge":"a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"}"#)
      ),
      (
        ">",
        object(
          #"{"type":"connect","protocol_version":"0.5.0","capabilities":["authenticated_frames"],"auth_version":2,"#
            + #""client_nonce":"00112233445566778899aabbccddeeff","auth_response":"\#(String(repeating: "cd", count: 32))"}"#
        )
      ),
      (
        "<",
        object(
          #"{"type":"connected","message":"Session registered","session_id":null,"#
            + #""negotiated_protocol_version":"0.5.0","capabilities":\#(capabilities),"auth_version":2,"#
            + #""server_proof":"\#(String(repeating: "ef", count: 32))"}"#)
      ),
    ]
  }

  @Test func sealedFramesInOrderAreFine() {
    let r = codes(
      Self.handshake(granting: #"["authenticated_frames"]"#) + [
        (">", Self.sealed(0, #"{"type":"subscribe","session_id":"s-1","from_offset":0}"#)),
        ("<", Self.sealed(0, #"{"type":"session_list","sessions":[],"total_count":0}"#)),
        (">", Self.sealed(1, #"{"type":"ping"}"#)), ("<", Self.sealed(1, #"{"type":"pong"}"#)),
      ])
    #expect(r == [[], [], [], [], [], [], []])
  }

  @Test func aPlainFrameIsAFinding() {
    let r = codes(
      Self.handshake(granting: #"["authenticated_frames"]"#) + [
        (">", Self.object(#"{"type":"execute_command","command_id":"c","shell_command":"x","working_directory":"/"}"#)),
        ("<", Self.object(#"{"type":"session_list","sessions":[],"total_count":0}"#)),
      ])
    #expect(r.suffix(2) == [["unauthenticated_frame"], ["unauthenticated_frame"]])
  }

  @Test func sequenceNumbersArePerDirection() {
    let r = codes(
      Self.handshake(granting: #"["authenticated_frames"]"#) + [
        (">", Self.sealed(0, #"{"type":"ping"}"#)), (">", Self.sealed(0, #"{"type":"ping"}"#)),
        ("<", Self.sealed(2, #"{"type":"pong"}"#)), ("<", Self.sealed(3, #"{"type":"pong"}"#)),
        (">", Self.sealed(1, #"{"type":"ping"}"#)),
      ])
    #expect(r.suffix(5) == [[], ["frame_sequence"], ["frame_sequence"], [], []])
  }

  @Test func aMalformedWrapperIsAFinding() {
    var extra = Self.sealed(0, #"{"type":"ping"}"#)
    extra["note"] = "x"
    let r = codes(
      Self.handshake(granting: #"["authenticated_frames"]"#) + [
        (">", extra), (">", Self.sealed(0, #"{"type":"ping"}"#, mac: String(repeating: "AB", count: 32))),
        (">", Self.sealed(0, "[1]")),
      ])
    #expect(r.suffix(3) == [["unauthenticated_frame"], ["unauthenticated_frame"], ["unauthenticated_frame"]])
  }

  @Test func theInnerFrameIsChecked() {
    // The inner frame is what the conversation rules see: an answer nobody asked for is a warning.
    let r = codes(
      Self.handshake(granting: #"["authenticated_frames"]"#) + [
        ("<", Self.sealed(0, #"{"type":"command_history","sessions":[]}"#))
      ])
    #expect(r.last == ["unsolicited_answer"])
  }

  @Test func withoutTheCapabilityPlainFramesAreFine() {
    let r = codes(
      Self.handshake(granting: "[]") + [
        (">", Self.object(#"{"type":"ping"}"#)), ("<", Self.object(#"{"type":"pong"}"#)),
      ])
    #expect(r.suffix(2) == [[], []])
  }
}
