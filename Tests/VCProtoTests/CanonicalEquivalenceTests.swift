import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Strings a peer chooses (message ids, idempotency keys, session ids, correlated ids, signatures,
/// challenges) are compared and hashed by their exact scalars in the engines and the observer, never
/// by canonical equivalence as `String`'s `==` and hash are: for each, a canonically equivalent pair
/// is two values.
@Suite struct CanonicalEquivalenceTests {
  /// Canonically equivalent pairs (`==` is true for each), in different bytes: a precomposed letter
  /// and its decomposition, a Unicode singleton and its ASCII target, and two orders of two marks.
  static let pairs: [(String, String)] = [
    ("\u{e9}", "e\u{301}"), ("id-\u{e9}-1", "id-e\u{301}-1"), ("\u{212A}", "K"), ("a\u{37E}b", "a;b"),
    ("\u{1E69}", "s\u{323}\u{307}"), ("q\u{323}\u{307}", "q\u{307}\u{323}"),
    ("f47ac10b-58cc-4372-a567-0e02b2c3d479\u{e9}", "f47ac10b-58cc-4372-a567-0e02b2c3d479e\u{301}"),
  ]
  static let key = "untethered-0123456789abcdef0123456789abcdef"

  static func obj(_ value: JSONValue) -> JSONObject { value.objectValue! }

  @Test func thePairsAreEquivalentButNotTheSameBytes() {
    for (a, b) in Self.pairs {
      #expect(a == b && a.hashValue == b.hashValue, "String's == and hash take \(a) for \(b)")
      #expect(Array(a.utf8) != Array(b.utf8))
    }
  }

  @Test func exactStringKeys() {
    for (a, b) in Self.pairs {
      #expect(ExactString(a) != ExactString(b))
      #expect(ExactString(a) == ExactString(a + ""))
      #expect(Set([ExactString(a), ExactString(b)]).count == 2)
    }
  }

  // MARK: - Message ids

  @Test func messageIDMemory() {
    for (a, b) in Self.pairs {
      var memory = MessageIDMemory(capacity: 8)
      memory.insert(a)
      #expect(!memory.contains(b))
      let inserted = memory.insert(b)
      #expect(inserted, "\(b) is a new id")
      #expect(memory.count == 2)
    }
  }

  /// The server's replay buffer: an ack for one spelling leaves the other's entry in place.
  @Test func serverAckDropsOnlyTheSameId() throws {
    for (a, b) in Self.pairs {
      var server = try Self.readyServer(capabilities: [Capability.messageAck])
      _ = try server.handle(
        .sendFrame(.frame("response", ["message_id": .string(a), "success": true, "text": "t"])), now: 1)
      let actions = try server.handle(.frameReceived(.frame("message_ack", ["message_id": .string(b)])), now: 2)
      #expect(actions.contains(.deliver(.unknownAcknowledgement(messageId: b))))
      #expect(server.memory.unacknowledged.map(\.messageId) == [a], "the ack for \(b) dropped \(a)")
      var memory = ServerMemory()
      _ = memory.keep(.init(messageId: a, message: JSONObject(), cost: 1), budget: 100)
      let acknowledged = memory.acknowledge(b)
      #expect(!acknowledged)
      _ = memory.keep(.init(messageId: b, message: JSONObject(), cost: 1), budget: 100)
      #expect(memory.unacknowledged.count == 2, "keeping \(b) replaced \(a)")
    }
  }

  /// The client's replay deduplication: a frame whose id is the other spelling is a new frame.
  @Test func clientDeliversBothSpellings() throws {
    for (a, b) in Self.pairs {
      var engine = try Self.readyClient(capabilities: [Capability.messageAck])
      for id in [a, b] {
        let frame = JSONObject.frame("response", ["message_id": .string(id), "success": true, "text": "t"])
        let actions = try engine.handle(.frameReceived(frame), now: 1)
        #expect(actions.contains(.deliver(.received(frame))), "\(id) was taken for a replay")
      }
    }
  }

  /// The observer remembers the server's ids by their bytes: an ack for the other spelling is unknown.
  @Test func observerAckNeedsTheSameId() {
    for (a, b) in Self.pairs {
      let r = ConversationObserverTests().codes([
        ("<", #"{"type":"hello","message":"m","version":"0.2.0","auth_version":1,"instructions":"i"}"#),
        (">", #"{"type":"connect","api_key":"k"}"#), ("<", #"{"type":"session_list","sessions":[],"total_count":0}"#),
        ("<", #"{"type":"replay","message_id":\#(Self.json(a)),"message":{"role":"assistant","text":"t"}}"#),
        (">", #"{"type":"message_ack","message_id":\#(Self.json(a))}"#),
        (">", #"{"type":"message_ack","message_id":\#(Self.json(b))}"#),
      ])
      #expect(r == [[], [], [], [], [], ["unknown_message_id"]], "\(a) \(b)")
    }
  }

  // MARK: - Idempotency keys

  @Test func anotherPromptWithAnEquivalentKeyIsRun() throws {
    for (a, b) in Self.pairs {
      var server = try Self.readyServer(capabilities: [Capability.idempotentPrompt])
      for key in [a, b] {
        let prompt = JSONObject.frame("prompt", ["text": .string("run \(key)"), "idempotency_key": .string(key)])
        let actions = try server.handle(.frameReceived(prompt), now: 1)
        #expect(actions == [.deliver(.request(.typed(prompt)))], "\(key) was answered as a duplicate")
      }
      #expect(server.memory.idempotencyKeyCount == 2)
      // The same key again is still a duplicate.
      let again = JSONObject.frame("prompt", ["text": "again", "idempotency_key": .string(b)])
      #expect(try server.handle(.frameReceived(again), now: 2).contains(.deliver(.duplicatePrompt(idempotencyKey: b))))
    }
  }

  // MARK: - Session ids

  @Test func clientSubscriptionsAreTwoSessions() throws {
    for (a, b) in Self.pairs {
      var engine = try Self.readyClient()
      var sent: [JSONObject] = []
      for id in [a, b] {
        for case .send(let frame) in try engine.handle(.subscribe(sessionId: id, cursor: nil), now: 1) {
          sent.append(frame.object)
        }
      }
      #expect(sent.compactMap { $0["session_id"]?.stringValue } == [a, b], "\(b) was taken for \(a)")
      #expect(engine.subscriptions.count == 2)
      #expect(SessionKey(a) != SessionKey(b))
    }
  }

  @Test func serverSubscriptionsAreTwoSessions() throws {
    for (a, b) in Self.pairs {
      var server = try Self.readyServer()
      _ = try server.handle(.frameReceived(.frame("subscribe", ["session_id": .string(a)])), now: 1)
      // Unsubscribing the other spelling leaves the subscription, and session data for the other
      // spelling is not the subscribed session's.
      _ = try server.handle(.frameReceived(.frame("unsubscribe", ["session_id": .string(b)])), now: 2)
      #expect(server.subscribed == [ExactString(a)])
      let history = JSONObject.frame(
        "session_history",
        [
          "session_id": .string(b), "messages": [], "next_offset": 0, "end_of_file": true, "file_signature": "0:u",
        ])
      #expect(throws: IllegalEvent.self) { _ = try server.handle(.sendFrame(history), now: 3) }
    }
  }

  /// A session-scoped answer (`session_killed`) answers only the request of the same session, and an
  /// `error` naming a session refuses only that session's request.
  @Test func correlatedAnswersAndRefusalsNeedTheSameSession() throws {
    for (a, b) in Self.pairs {
      var engine = try Self.readyClient()
      _ = try engine.handle(.send(.frame("kill_session", ["session_id": .string(a)]), requestId: "r1"), now: 1)
      let other = JSONObject.frame("session_killed", ["session_id": .string(b), "message": "killed"])
      let actions = try engine.handle(.frameReceived(other), now: 2)
      #expect(!actions.contains { if case .deliver(.answered) = $0 { true } else { false } }, "\(b) answered \(a)")
      let same = JSONObject.frame("session_killed", ["session_id": .string(a), "message": "killed"])
      #expect(try engine.handle(.frameReceived(same), now: 3) == [.deliver(.answered(requestId: "r1", frame: same))])

      let pending = [
        PendingRequest(id: "r", type: "compact_session", sessionId: a, answers: ["compaction_complete"], deadline: 9)
      ]
      let refusal = ErrorMessage(message: "Unknown message type: compact_session", sessionId: b)
      #expect(ErrorAttribution.request(refusedBy: refusal, among: pending) == nil)
      var exact = refusal
      exact.sessionId = a
      #expect(ErrorAttribution.request(refusedBy: exact, among: pending) == 0)
    }
  }

  /// A session a prompt creates is subscribed after a reconnect unless its own `session_ready` came.
  @Test func pendingNewSessionsAreByBytes() throws {
    for (a, b) in Self.pairs {
      var engine = try Self.readyClient()
      _ = try engine.handle(
        .send(.frame("prompt", ["text": "t", "new_session_id": .string(a)]), requestId: nil), now: 1)
      _ = try engine.handle(.frameReceived(.frame("session_ready", ["session_id": .string(b)])), now: 2)
      #expect(engine.pendingNewSessions == [a], "session_ready for \(b) was taken for \(a)")
      _ = try engine.handle(
        .send(.frame("prompt", ["text": "t", "new_session_id": .string(b)]), requestId: nil), now: 3)
      #expect(engine.pendingNewSessions == [a, b])
    }
  }

  /// The observer's continuation of one session is not the other's.
  @Test func observerContinuationsAreByBytes() {
    let t = ConversationObserverTests()
    for (a, b) in Self.pairs {
      let r = t.codes([
        t.hello05, t.connect05, t.connected05, t.subscribe(from: 0, session: Self.plain(a)),
        t.history(next: 40, endOfFile: false, session: Self.plain(a)), t.subscribe(from: 0, session: Self.plain(b)),
      ])
      #expect(r.allSatisfy { $0.isEmpty }, "\(a) \(b): \(r)")
    }
  }

  // MARK: - Signatures and challenges

  @Test func signaturesDiffer() {
    for (a, b) in Self.pairs {
      for (seen, current) in [("100:" + a, "100:" + b), (a, b), ("100:x" + a, "100:x" + b)] {
        #expect(FileSignature.isReplacement(seen: seen, current: current))
        #expect(SignatureDigest(seen).isReplaced(by: SignatureDigest(current)), "\(seen) \(current)")
        #expect(!SignatureDigest(seen).isReplaced(by: SignatureDigest(seen)))
      }
    }
  }

  @Test func challengesAreByBytes() {
    for (a, b) in Self.pairs {
      let store = ChallengeStore()
      let now = ContinuousClock.now
      store.register(a, replacing: store.issue(now: now))
      #expect(!store.consume(b, now: now), "an answer to \(b) consumed \(a)")
      #expect(store.consume(a, now: now))
    }
  }

  // MARK: - Helpers

  /// `text` as a JSON string literal, non-ASCII escaped (so the bytes are the scalars, whatever the file's).
  static func json(_ text: String) -> String {
    "\"" + text.unicodeScalars.map { $0.isASCII ? String($0) : String(format: "\\u%04x", $0.value) }.joined() + "\""
  }

  /// `text` for inside a JSON string literal.
  static func plain(_ text: String) -> String { String(json(text).dropFirst().dropLast()) }

  static func readyClient(capabilities: [String] = []) throws -> ClientEngine {
    var engine = ClientEngine(ClientConfiguration(apiKey: key, capabilities: capabilities, allowAuthV1: true))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
    let offered = JSONValue.array(capabilities.map { .string($0) })
    _ = try engine.handle(
      .frameReceived(
        .frame(
          "hello",
          [
            "message": "m", "instructions": "i", "version": "0.5.0", "auth_version": 1,
            "protocol_versions": ["0.5.0"], "auth_versions": [1],
            "capabilities": offered,
          ])), now: 0)
    _ = try engine.handle(
      .frameReceived(
        .frame(
          "connected",
          ["message": "m", "session_id": .null, "negotiated_protocol_version": "0.5.0", "capabilities": offered])),
      now: 0)
    #expect(engine.state == .ready && engine.capabilities == Set(capabilities))
    return engine
  }

  static func readyServer(capabilities: [String] = []) throws -> ServerEngine {
    var server = ServerEngine(
      ServerConfiguration(
        offer: ServerOffer(protocolVersions: ["0.4.0", "0.5.0"], capabilities: capabilities), apiKey: key))
    _ = try server.handle(.transportOpened(challenge: nil), now: 0)
    var connect = JSONObject.frame("connect", ["api_key": .string(key), "protocol_version": "0.5.0"])
    if !capabilities.isEmpty { connect["capabilities"] = .array(capabilities.map { .string($0) }) }
    _ = try server.handle(.frameReceived(connect), now: 0)
    #expect(server.state == .authenticated && server.outcome?.capabilities == capabilities)
    return server
  }
}
