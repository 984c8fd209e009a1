import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The conversation observer (STANDARDS.md#observing): each test feeds
/// a conversation and expects the codes each frame causes, from the engines' rules as the section
/// states them.
@Suite struct ConversationObserverTests {
  /// Feeds frames (`>` client, `<` server; times in seconds) and returns the codes per frame.
  func codes(_ frames: [(String, String)], times: [Double?]? = nil) -> [[String]] {
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    return frames.enumerated().map { i, frame in
      let object = try! JSONReader().parse(frame.1).objectValue!
      let event = ConversationObserver.Frame(
        direction: frame.0 == ">" ? .clientToServer : .serverToClient, message: object,
        time: (times?[i] ?? nil).map { Int64($0 * 1_000) })
      return observer.observe(event).map(\.code.rawValue)
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

  /// A connect whose capability list is longer than the handshake-list cap (STANDARDS.md#limits) is refused by
  /// the negotiator, so nothing is negotiated, not even the capabilities it lists that are offered.
  @Test func overlongCapabilityListNegotiatesNothing() {
    let padding = (0..<64).map { #""x\#($0)""# }.joined(separator: ",")
    let r = codes([
      (
        "<",
        #"{"type":"hello","message":"m","version":"0.2.0","auth_version":1,"instructions":"i","capabilities":["heartbeat"]}"#
      ),
      (">", #"{"type":"connect","api_key":"k","capabilities":["heartbeat",\#(padding)]}"#), sessionList,
      ("<", #"{"type":"heartbeat","timestamp":"2026-01-11T09:15:02Z"}"#),
    ])
    #expect(r == [[], [], [], ["extension_not_negotiated"]])
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
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    func feed(_ direction: MessageDirection, _ text: String, _ envelope: EnvelopeForm? = nil) -> [String] {
      let event = ConversationObserver.Frame(
        direction: direction, message: try! JSONReader().parse(text).objectValue!, envelope: envelope)
      return observer.observe(event).map(\.code.rawValue)
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
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    for frame in [hello, connect, sessionList] {
      _ = observer.observe(
        .init(
          direction: frame.0 == ">" ? .clientToServer : .serverToClient,
          message: try! JSONReader().parse(frame.1).objectValue!))
    }
    let findings = observer.observe(
      .init(
        direction: .clientToServer,
        message: try! JSONReader().parse(#"{"type":"message_ack","message_id":"m"}"#).objectValue!))
    #expect(findings.map(\.severity) == [.warning])
  }

  /// Session data to a client that has not sent connect (STANDARDS.md#before-authentication).
  @Test func serverFrameBeforeAuthentication() {
    let r = codes([
      hello, ("<", #"{"type":"pong"}"#), sessionList, connect, sessionList,
      ("<", #"{"type":"recent_sessions","sessions":[],"limit":5}"#),
    ])
    #expect(r == [[], [], ["server_frame_before_authentication"], [], [], []])
  }

  // A 0.5.0 handshake (the real backend's frames, with the version decided by `connected`).
  let hello05 = ("<", #"{"type":"hello","message":"m","version":"0.5.0","auth_version":1,"instructions":"i"}"#)
  let connect05 = (">", #"{"type":"connect","api_key":"k","protocol_version":"0.5.0"}"#)
  let connected05 = (
    "<",
    #"{"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"0.5.0"}"#
  )
  func subscribe(from offset: Int, session: String = "s") -> (String, String) {
    (">", #"{"type":"subscribe","session_id":"\#(session)","from_offset":\#(offset)}"#)
  }
  func history(next: Int, endOfFile: Bool, session: String = "s", replaced: Bool = false) -> (String, String) {
    (
      "<",
      #"{"type":"session_history","session_id":"\#(session)","messages":[],"next_offset":\#(next),"end_of_file":\#(endOfFile),"file_signature":"9:u""#
        + (replaced ? #","file_replaced":true}"# : "}")
    )
  }

  /// A 0.5.0 continuation must resume at the next_offset the server gave (STANDARDS.md#subscriptions), also
  /// when next_offset did not advance; a subscribe after the one that continued is not compared.
  @Test func continuationMustStartAtNextOffset() {
    let partial = history(next: 40, endOfFile: false)
    let r = codes([
      hello05, connect05, connected05, subscribe(from: 0), partial, subscribe(from: 40), partial, subscribe(from: 0),
      subscribe(from: 7),
    ])
    #expect(r == [[], [], [], [], [], [], [], ["continuation_mismatch"], []])
  }

  /// After `file_replaced: true` the session reloads from offset 0 (the R2 reply, STANDARDS.md#subscriptions).
  @Test func fileReplacedReloadsFromZero() {
    let replaced = history(next: 0, endOfFile: true, replaced: true)
    #expect(
      codes([hello05, connect05, connected05, subscribe(from: 120), replaced, subscribe(from: 120)])
        == [[], [], [], [], [], ["continuation_mismatch"]])
    #expect(
      codes([hello05, connect05, connected05, subscribe(from: 120), replaced, subscribe(from: 0)])
        == [[], [], [], [], [], []])
  }

  /// A push that reaches the end of the file before the client continues ends the continuation: the
  /// client may then resume from either offset (a reply and a push race, session-behaviour §10).
  @Test func continuationEndedByAPushIsNotCompared() {
    let r = codes([
      hello05, connect05, connected05, subscribe(from: 0), history(next: 40, endOfFile: false),
      history(next: 120, endOfFile: true), subscribe(from: 120),
    ])
    #expect(r.allSatisfy { $0.isEmpty })
  }

  /// 0.4.0: `is_complete: false` continues after the reply's `last_seq` (STANDARDS.md#subscriptions).
  @Test func seqContinuationMustStartAtLastSeq() {
    let hello = ("<", #"{"type":"hello","message":"m","version":"0.4.0","auth_version":1,"instructions":"i"}"#)
    let connect = (">", #"{"type":"connect","api_key":"k","protocol_version":"0.4.0"}"#)
    let connected = (
      "<",
      #"{"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"0.4.0"}"#
    )
    func subscribe(_ last: Int) -> (String, String) {
      (">", #"{"type":"subscribe","session_id":"s","last_seq":\#(last)}"#)
    }
    func partial(_ last: Int) -> (String, String) {
      (
        "<",
        #"{"type":"session_history","session_id":"s","messages":[],"first_seq":null,"last_seq":\#(last),"#
          + #""next_seq":\#(last + 1),"is_complete":false,"gap":null}"#
      )
    }
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    var findings: [Finding] = []
    for frame in [hello, connect, connected, subscribe(0), partial(12), subscribe(12), partial(20), subscribe(3)] {
      findings = observer.observe(
        .init(
          direction: frame.0 == ">" ? .clientToServer : .serverToClient,
          message: try! JSONReader().parse(frame.1).objectValue!))
    }
    #expect(
      findings.map { "\($0.severity) \($0.code.rawValue) \($0.pointer)" } == ["warning continuation_mismatch /last_seq"]
    )
    #expect(
      codes([hello, connect, connected, subscribe(0), partial(12), subscribe(12)]).allSatisfy { $0.isEmpty })
  }

  /// 0.5.0: session data goes only to a subscriber (the server engine refuses to send it otherwise).
  /// 0.4.0 live updates are a broadcast (not settled to reach subscribers only), so 0.4.0 is not checked.
  @Test func sessionDataNeedsASubscription() {
    let other = history(next: 3, endOfFile: true, session: "other")
    #expect(
      codes([hello05, connect05, connected05, subscribe(from: 0), history(next: 3, endOfFile: true), other])
        == [[], [], [], [], [], ["unsubscribed_session_data"]])
    let hello04 = ("<", #"{"type":"hello","message":"m","version":"0.4.0","auth_version":1,"instructions":"i"}"#)
    let broadcast = (
      "<", #"{"type":"session_history","session_id":"other","messages":[],"last_seq":4,"is_complete":true}"#
    )
    #expect(codes([hello04, connect, sessionList, broadcast]).allSatisfy { $0.isEmpty })
  }

  /// An answer-only frame needs a request waiting for it on this connection (the client engine's
  /// pending requests, ``ClientEngine/answerTypes``); each request is answered once, and a
  /// session-scoped answer must name the request's session.
  @Test func answersNeedARequest() {
    // The answer-only types STANDARDS.md#observing lists.
    #expect(
      ConversationObserver.answerOnlyTypes == [
        "command_output_full", "command_history", "resources_list", "resource_deleted", "session_killed",
      ])
    let history = ("<", #"{"type":"command_history","sessions":[],"limit":50}"#)
    let r = codes([
      hello, connect, sessionList, history, (">", #"{"type":"get_command_history"}"#), history, history,
      (">", #"{"type":"kill_session","session_id":"s1"}"#),
      ("<", #"{"type":"session_killed","session_id":"s2","message":"m"}"#),
      ("<", #"{"type":"session_killed","session_id":"s1","message":"m"}"#),
    ])
    #expect(
      r == [[], [], [], ["unsolicited_answer"], [], [], ["unsolicited_answer"], [], ["unsolicited_answer"], []])
    // Frames the server also sends unprompted are never unsolicited.
    #expect(
      codes([
        hello, connect, sessionList, ("<", #"{"type":"ack","message":"Starting recipe..."}"#),
        ("<", #"{"type":"recipe_exited","session_id":"s","reason":"complete"}"#),
      ]).allSatisfy { $0.isEmpty })
  }

  /// `connected` may grant only what negotiation gives: offered by the hello and asked for by the
  /// connect (the client engine closes otherwise).
  @Test func connectedGrantsOnlyWhatWasAskedFor() {
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    var last: [Finding] = []
    for frame in [
      (
        "<",
        #"{"type":"hello","message":"m","version":"0.2.0","auth_version":1,"instructions":"i","capabilities":["heartbeat","disconnect"]}"#
      ),
      (">", #"{"type":"connect","api_key":"k","capabilities":["heartbeat"]}"#),
      (
        "<",
        #"{"type":"connected","message":"Session registered","session_id":"s","capabilities":["heartbeat","disconnect"]}"#
      ),
    ] {
      last = observer.observe(
        .init(
          direction: frame.0 == ">" ? .clientToServer : .serverToClient,
          message: try! JSONReader().parse(frame.1).objectValue!))
    }
    #expect(last.map { "\($0.code.rawValue) \($0.pointer)" } == ["negotiation_mismatch /capabilities"])
  }

  /// The too-old refusal ends the attempt like `auth_error`: what the client sends next is before
  /// authentication.
  @Test func tooOldRefusalIsNotAuthentication() {
    let r = codes([
      hello05, (">", #"{"type":"connect","api_key":"k","protocol_version":"0.3.0"}"#),
      (
        "<",
        #"{"type":"error","code":"unsupported_protocol_version","required":"0.4.0","received":"0.3.0","message":"Client is too old; upgrade required"}"#
      ),
      (">", #"{"type":"refresh_sessions"}"#),
    ])
    #expect(r == [[], [], [], ["before_authentication"]])
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

  /// Times at the ends of 64 bits neither trap nor hide a gap.
  @Test func heartbeatGapAtExtremeTimes() {
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    let caps = #""capabilities":["heartbeat"]"#
    let frames: [(MessageDirection, String, Int64)] = [
      (
        .serverToClient,
        #"{"type":"hello","message":"m","version":"0.2.0","auth_version":1,"instructions":"i",\#(caps)}"#, 0
      ),
      (.clientToServer, #"{"type":"connect","api_key":"k",\#(caps)}"#, 0),
      (.serverToClient, #"{"type":"session_list","sessions":[],"total_count":0}"#, .min),
      (.serverToClient, #"{"type":"heartbeat","timestamp":"2026-01-11T09:15:02Z"}"#, .max),
    ]
    var last: [Finding] = []
    for (direction, text, time) in frames {
      last = observer.observe(
        .init(direction: direction, message: try! JSONReader().parse(text).objectValue!, time: time))
    }
    #expect(last.map(\.code) == [.heartbeatGap])
    #expect(last.first?.message.hasPrefix("server was silent for ") == true)
  }

  /// Past its bounds the observer stops checking what it can no longer know for certain: an
  /// overlong session id is not followed, and once a subscribed session was forgotten no session
  /// data is called unsubscribed.
  @Test func boundsStopChecksInsteadOfGuessing() {
    let long = String(repeating: "x", count: ConversationObserver.maxTrackedIDBytes + 1)
    #expect(
      codes([hello05, connect05, connected05, history(next: 3, endOfFile: true, session: long)]).allSatisfy {
        $0.isEmpty
      })
    var frames = [hello05, connect05, connected05]
    for i in 0...ConversationObserver.trackedSessions { frames.append(subscribe(from: 0, session: "s\(i)")) }
    frames.append(history(next: 3, endOfFile: true, session: "never"))
    #expect(codes(frames).allSatisfy { $0.isEmpty })
  }

  /// Random conversations (handshakes of every version, subscriptions, histories, requests,
  /// answers, acks, times in any order) never trap, report only the observer's codes, and keep the
  /// followed state within its bounds.
  @Test func randomConversationsKeepTheInvariants() {
    let alphabet: [(MessageDirection, String)] = [
      (.serverToClient, hello.1), (.serverToClient, hello05.1), (.clientToServer, connect.1),
      (.clientToServer, connect05.1), (.serverToClient, connected05.1), (.serverToClient, sessionList.1),
      (.serverToClient, #"{"type":"auth_error","message":"m"}"#), (.clientToServer, #"{"type":"ping"}"#),
      (.serverToClient, #"{"type":"pong"}"#), (.clientToServer, subscribe(from: 0).1),
      (.clientToServer, subscribe(from: 40, session: "t").1),
      (.clientToServer, #"{"type":"unsubscribe","session_id":"s"}"#),
      (.serverToClient, history(next: 40, endOfFile: false).1),
      (.serverToClient, history(next: 0, endOfFile: true, replaced: true).1),
      (.serverToClient, history(next: 9, endOfFile: true, session: "t").1),
      (
        .serverToClient,
        #"{"type":"session_history","session_id":"s","messages":[{"seq":1}],"last_seq":1,"is_complete":false}"#
      ),
      (.clientToServer, #"{"type":"subscribe","session_id":"s","last_seq":1}"#),
      (.clientToServer, #"{"type":"get_command_history"}"#),
      (.serverToClient, #"{"type":"command_history","sessions":[]}"#),
      (.clientToServer, #"{"type":"kill_session","session_id":"s"}"#),
      (.serverToClient, #"{"type":"session_killed","session_id":"s"}"#),
      (.serverToClient, #"{"type":"replay","message_id":"m1","message":{}}"#),
      (.clientToServer, #"{"type":"message_ack","message_id":"m1"}"#),
      (.serverToClient, #"{"type":"heartbeat","timestamp":"t"}"#),
      (.clientToServer, #"{"type":"prompt","text":"t","idempotency_key":"k"}"#),
      (.serverToClient, #"{"type":"connected","message":"m","capabilities":["heartbeat","message_ack"]}"#),
      (
        .serverToClient,
        #"{"type":"error","code":"unsupported_protocol_version","required":"0.4.0","received":"0.3.0"}"#
      ),
    ]
    let parsed = alphabet.map { ($0.0, try! JSONReader().parse($0.1).objectValue!) }
    var rng = SplitMix64(state: 20_261_123)
    let allowed = Set(FindingCode.conversationCodes)
    for _ in 0..<200 {
      var observer = ConversationObserver(fallbackVersion: .v0_2_0)
      for step in 0..<60 {
        let (direction, message) = parsed[Int(rng.next() % UInt64(parsed.count))]
        let time: Int64? =
          rng.next() % 4 == 0 ? nil : Int64(bitPattern: rng.next()) / (rng.next() % 2 == 0 ? 1 : 1_000_000)
        if step % 17 == 16 { observer.startConnection() }
        let findings = observer.observe(.init(direction: direction, message: message, time: time))
        #expect(findings.allSatisfy { allowed.contains($0.code) })
        #expect(observer.continuations.count <= ConversationObserver.trackedSessions)
        if direction == .serverToClient, message["type"]?.stringValue == "hello" {
          #expect(observer.clientState == .awaitingHello)
        }
      }
    }
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
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    func feed(_ d: MessageDirection, _ t: String) -> [String] {
      observer.observe(.init(direction: d, message: try! JSONReader().parse(t).objectValue!)).map(\.code.rawValue)
    }
    _ = feed(.serverToClient, hello.1)
    _ = feed(.clientToServer, connect.1)
    _ = feed(.serverToClient, sessionList.1)
    #expect(observer.clientState == .ready)
    _ = feed(.serverToClient, hello.1)
    #expect(observer.clientState == .awaitingHello)
    #expect(feed(.clientToServer, #"{"type":"subscribe","session_id":"s"}"#) == ["before_authentication"])
  }
}
