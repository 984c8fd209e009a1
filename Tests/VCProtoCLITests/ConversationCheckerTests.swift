import Testing
import VCProto

@testable import VCProtoCLI

@Suite struct ConversationCheckerTests {
  /// Feeds frames (`>` client, `<` server, optional `@seconds`) and returns the codes per frame.
  func codes(_ frames: [(String, String)], times: [Double?]? = nil) -> [[String]] {
    var checker = ConversationChecker()
    return frames.enumerated().map { i, frame in
      let object = try! JSONReader().parse(frame.1).objectValue!
      let event = ConversationChecker.Event(
        direction: frame.0 == ">" ? .clientToServer : .serverToClient, message: object, time: times?[i] ?? nil)
      return checker.receive(event).map(\.code.rawValue)
    }
  }

  let hello = ("<", #"{"type":"hello","message":"m","version":"0.2.0","auth_version":1,"instructions":"i"}"#)
  let connect = (">", #"{"type":"connect","api_key":"k"}"#)
  let sessionList = ("<", #"{"type":"session_list","sessions":[],"total_count":0}"#)

  @Test func inactiveWithoutHandshake() {
    let r = codes([
      (">", #"{"type":"subscribe","session_id":"s"}"#), (">", #"{"type":"message_ack","message_id":"x"}"#),
      ("<", #"{"type":"heartbeat","timestamp":"2026-01-11T09:15:02Z"}"#),
    ])
    #expect(r == [[], [], []])
  }

  @Test func beforeAuthentication() {
    let r = codes([
      hello, (">", #"{"type":"ping"}"#), (">", #"{"type":"subscribe","session_id":"s"}"#), connect, sessionList,
      (">", #"{"type":"subscribe","session_id":"s"}"#),
    ])
    #expect(r == [[], [], ["before_authentication"], [], [], []])
  }

  @Test func authErrorMeansNotAuthenticated() {
    let r = codes([
      hello, connect, ("<", #"{"type":"auth_error","message":"Authentication failed"}"#),
      (">", #"{"type":"refresh_sessions"}"#),
    ])
    #expect(r == [[], [], [], ["before_authentication"]])
  }

  @Test func framesPipelinedAfterConnectAreFine() {
    let r = codes([hello, connect, (">", #"{"type":"subscribe","session_id":"s"}"#), sessionList])
    #expect(r == [[], [], [], []])
  }

  @Test func connectAloneActivates() {
    let r = codes([(">", #"{"type":"prompt","text":"t"}"#), connect, sessionList])
    #expect(r == [[], [], []])
    let early = codes([
      connect, ("<", #"{"type":"pong"}"#), ("<", #"{"type":"auth_error","message":"m"}"#),
      (">", #"{"type":"prompt","text":"t"}"#),
    ])
    #expect(early == [[], [], [], ["before_authentication"]])
  }

  @Test func extensionsNeedNegotiation() {
    let plain = codes([
      hello, connect, sessionList, ("<", #"{"type":"heartbeat","timestamp":"2026-01-11T09:15:02Z"}"#),
      (">", #"{"type":"prompt","text":"t","idempotency_key":"k1"}"#),
      ("<", #"{"type":"error","message":"m","message_id":"0f8e7d6c-5b4a-4392-8170-6e5d4c3b2a19"}"#),
    ])
    #expect(
      plain == [[], [], [], ["extension_not_negotiated"], ["extension_not_negotiated"], ["extension_not_negotiated"]])
    let negotiated = codes([
      (
        "<",
        #"{"type":"hello","message":"m","version":"0.2.0","auth_version":1,"instructions":"i","capabilities":["heartbeat","idempotent_prompt"]}"#
      ),
      (">", #"{"type":"connect","api_key":"k","capabilities":["heartbeat","idempotent_prompt","draining"]}"#),
      sessionList, ("<", #"{"type":"heartbeat","timestamp":"2026-01-11T09:15:02Z"}"#),
      (">", #"{"type":"prompt","text":"t","idempotency_key":"k1"}"#),
      ("<", #"{"type":"draining","message":"bye","retry_after_ms":5000}"#),
    ])
    #expect(negotiated == [[], [], [], [], [], ["extension_not_negotiated"]])
  }

  @Test func connectedCapabilitiesAreAuthoritative() {
    let r = codes([
      (
        "<",
        #"{"type":"hello","message":"m","version":"0.2.0","auth_version":1,"instructions":"i","capabilities":["heartbeat","disconnect"]}"#
      ),
      (">", #"{"type":"connect","api_key":"k","capabilities":["heartbeat","disconnect"]}"#),
      ("<", #"{"type":"connected","message":"Session registered","session_id":"s","capabilities":["disconnect"]}"#),
      ("<", #"{"type":"heartbeat","timestamp":"2026-01-11T09:15:02Z"}"#),
      (">", #"{"type":"disconnect","reason":"user"}"#),
    ])
    #expect(r == [[], [], [], ["extension_not_negotiated"], []])
  }

  @Test func compressedFramesNeedTheirCapability() {
    var checker = ConversationChecker()
    func feed(_ direction: MessageDirection, _ text: String, _ envelope: EnvelopeForm? = nil) -> [String] {
      let event = ConversationChecker.Event(
        direction: direction, message: try! JSONReader().parse(text).objectValue!, envelope: envelope)
      return checker.receive(event).map(\.code.rawValue)
    }
    #expect(
      feed(
        .serverToClient,
        #"{"type":"hello","message":"m","version":"0.2.0","auth_version":1,"instructions":"i","capabilities":["compression_binary"]}"#
      ).isEmpty)
    #expect(
      feed(
        .clientToServer, #"{"type":"connect","api_key":"k","capabilities":["compression_binary","compression_text"]}"#
      ).isEmpty)
    #expect(feed(.serverToClient, #"{"type":"pong"}"#, .binary).isEmpty)
    #expect(feed(.serverToClient, #"{"type":"pong"}"#, .text) == ["extension_not_negotiated"])
  }

  @Test func messageAckNeedsAKnownID() {
    let id = "0f8e7d6c-5b4a-4392-8170-6e5d4c3b2a19"
    let r = codes([
      hello, connect, sessionList,
      ("<", #"{"type":"replay","message_id":"\#(id)","message":{"role":"assistant","text":"t"}}"#),
      (">", #"{"type":"message_ack","message_id":"\#(id)"}"#), (">", #"{"type":"message_ack","message_id":"other"}"#),
    ])
    #expect(r == [[], [], [], [], [], ["unknown_message_id"]])
  }

  /// An ack for an id this capture never showed is a warning: it may follow a reconnect.
  @Test func unknownMessageIDIsAWarning() {
    var checker = ConversationChecker()
    for frame in [hello, connect, sessionList] {
      _ = checker.receive(
        .init(
          direction: frame.0 == ">" ? .clientToServer : .serverToClient,
          message: try! JSONReader().parse(frame.1).objectValue!))
    }
    let findings = checker.receive(
      .init(
        direction: .clientToServer,
        message: try! JSONReader().parse(#"{"type":"message_ack","message_id":"m"}"#).objectValue!))
    #expect(findings.map(\.severity) == [.warning])
  }

  /// Session data to a client that has not sent connect (STANDARDS.md section 15, rule 1).
  @Test func serverFrameBeforeAuthentication() {
    let r = codes([
      hello, ("<", #"{"type":"pong"}"#), sessionList, connect, sessionList,
      ("<", #"{"type":"recent_sessions","sessions":[],"limit":5}"#),
    ])
    #expect(r == [[], [], ["server_frame_before_authentication"], [], [], []])
  }

  /// A 0.5.0 continuation must resume at the next_offset the server gave.
  @Test func continuationMustStartAtNextOffset() {
    let partial = (
      "<",
      #"{"type":"session_history","session_id":"s","messages":[],"next_offset":40,"end_of_file":false,"file_signature":"9:u"}"#
    )
    let r = codes([
      hello, connect, sessionList, partial, (">", #"{"type":"subscribe","session_id":"s","from_offset":40}"#),
      partial, (">", #"{"type":"subscribe","session_id":"s","from_offset":0}"#),
      (">", #"{"type":"subscribe","session_id":"s","from_offset":7}"#),
    ])
    #expect(r == [[], [], [], [], [], [], ["continuation_mismatch"], []])
  }

  @Test func heartbeatGaps() {
    let caps = #""capabilities":["heartbeat"]"#
    let frames = [
      ("<", #"{"type":"hello","message":"m","version":"0.2.0","auth_version":1,"instructions":"i",\#(caps)}"#),
      (">", #"{"type":"connect","api_key":"k",\#(caps)}"#), sessionList,
      ("<", #"{"type":"heartbeat","timestamp":"2026-01-11T09:15:02Z"}"#), (">", #"{"type":"ping"}"#),
      ("<", #"{"type":"heartbeat","timestamp":"2026-01-11T09:15:02Z"}"#),
    ]
    #expect(codes(frames, times: [0, 1, 2, 92, 150, 183.5]) == [[], [], [], [], [], ["heartbeat_gap"]])
    // Without heartbeat negotiated, silence is fine.
    #expect(
      codes([hello, connect, sessionList, ("<", #"{"type":"pong"}"#)], times: [0, 1, 2, 500]) == [[], [], [], []])
  }

  @Test func realSystemOddities() {
    let r = codes([
      hello, connect, sessionList,
      ("<", #"{"type":"command_output","command_session_id":"c","stream":"stdout","text":"x"}"#),
      (
        "<",
        #"{"type":"command_started","command_session_id":"c","command_id":"git.status","shell_command":"git status"}"#
      ),
      ("<", #"{"type":"turn_complete","session_id":null}"#),
    ])
    #expect(r.allSatisfy { $0.isEmpty })
  }

  @Test func helloStartsAFreshConnection() {
    var checker = ConversationChecker()
    func feed(_ d: MessageDirection, _ t: String) -> [String] {
      checker.receive(.init(direction: d, message: try! JSONReader().parse(t).objectValue!)).map(\.code.rawValue)
    }
    _ = feed(.serverToClient, hello.1)
    _ = feed(.clientToServer, connect.1)
    _ = feed(.serverToClient, sessionList.1)
    #expect(checker.phase == .authenticated)
    _ = feed(.serverToClient, hello.1)
    #expect(checker.phase == .unauthenticated)
    #expect(feed(.clientToServer, #"{"type":"subscribe","session_id":"s"}"#) == ["before_authentication"])
  }
}
