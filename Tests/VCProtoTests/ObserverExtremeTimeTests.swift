import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `ConversationObserver` is public API: a proxy or test harness hands it the times it has, which
/// may come from the traffic itself (HAR timestamps, a peer's clock). Times at the edges of `Int64`
/// must never crash it (it follows subscriptions with a real client engine, which arms timers at
/// `now` plus an interval), and must not invent heartbeat gaps.
@Suite struct ObserverExtremeTimeTests {
  static let conversation: [(MessageDirection, String)] = [
    (
      .serverToClient,
      #"{"type":"hello","message":"m","version":"0.5.0","auth_version":1,"instructions":"i","capabilities":["heartbeat"]}"#
    ),
    (.clientToServer, #"{"type":"connect","api_key":"k","protocol_version":"0.5.0","capabilities":["heartbeat"]}"#),
    (
      .serverToClient,
      #"{"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"0.5.0","capabilities":["heartbeat"]}"#
    ),
    (.clientToServer, #"{"type":"subscribe","session_id":"s","from_offset":0}"#),
    (
      .serverToClient,
      #"{"type":"session_history","session_id":"s","messages":[],"next_offset":3,"end_of_file":false,"file_signature":"3:u"}"#
    ),
    (.clientToServer, #"{"type":"ping"}"#),
    (.serverToClient, #"{"type":"pong"}"#),
    (.clientToServer, #"{"type":"execute_command","command_id":"git.status","working_directory":"/w"}"#),
    (.clientToServer, #"{"type":"subscribe","session_id":"s","from_offset":3,"file_signature_seen":"3:u"}"#),
    (
      .serverToClient,
      #"{"type":"session_history","session_id":"s","messages":[],"next_offset":3,"end_of_file":true,"file_signature":"3:u"}"#
    ),
  ]

  @Test(arguments: [Int64.max, Int64.max - 1, Int64.min, Int64.min + 1, 0])
  func extremeTimesNeverCrash(time: Int64) throws {
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    var codes: [String] = []
    for (direction, text) in Self.conversation {
      let message = try #require(JSONReader().parse(text).objectValue)
      codes += observer.observe(.init(direction: direction, message: message, time: time)).map(\.code.rawValue)
    }
    // One instant for every frame: no gap, nothing wrong.
    #expect(codes.isEmpty, "\(codes)")
  }

  @Test func timesJumpingBetweenTheEdges() throws {
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    var codes: [String] = []
    for (index, (direction, text)) in Self.conversation.enumerated() {
      let message = try #require(JSONReader().parse(text).objectValue)
      let time = index.isMultiple(of: 2) ? Int64.min : Int64.max
      codes += observer.observe(.init(direction: direction, message: message, time: time)).map(\.code.rawValue)
    }
    // Forward jumps of the whole range are heartbeat gaps; nothing else is reported.
    #expect(Set(codes).isSubset(of: ["heartbeat_gap"]), "\(codes)")
  }
}
