import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The client engine is a validation boundary (issue 30): it takes WebSocket messages as received,
/// decodes each once against the connection's version, delivers typed messages, and reports a frame
/// that fails validation as a ``ProtocolViolation`` instead of delivering it.
@Suite struct ClientValidationBoundaryTests {
  static let session = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"

  /// A client ready on 0.5.0 (auth v1), subscribed to ``session``.
  static func ready() throws -> ClientEngine {
    var engine = ClientEngine(ClientConfiguration(apiKey: "k", allowAuthV1: true))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
    _ = try engine.handle(
      .received(.text(#"{"type":"hello","message":"m","version":"0.5.0","auth_version":1,"instructions":"i"}"#)),
      now: 0)
    _ = try engine.handle(
      .received(
        .text(#"{"type":"connected","message":"m","session_id":null,"negotiated_protocol_version":"0.5.0"}"#)),
      now: 0)
    _ = try engine.handle(.subscribe(sessionId: session, cursor: nil), now: 0)
    #expect(engine.state == .ready)
    return engine
  }

  /// The one violation `actions` holds, else `nil` (and an issue recorded).
  static func violation(_ actions: [ClientAction]) -> ProtocolViolation? {
    guard actions.count == 1, case .deliver(.violation(let violation)) = actions[0] else {
      Issue.record("expected one violation, got \(actions)")
      return nil
    }
    return violation
  }

  static func errors(_ violation: ProtocolViolation?) -> [String] {
    (violation?.findings ?? []).filter { $0.severity == .error }.map { "\($0.code.rawValue) \($0.pointer)" }
  }

  @Test func aTurnCompleteWithoutSessionIdIsAViolationNotATurnEnd() throws {
    var engine = try Self.ready()
    let v = Self.violation(try engine.handle(.received(.text(#"{"type":"turn_complete"}"#)), now: 1))
    #expect(v?.messageType == "turn_complete" && v?.disposition == .dropped)
    #expect(Self.errors(v) == ["missing_field /session_id"])
    #expect(engine.state == .ready, "an ordinary frame's violation leaves the connection open")
  }

  @Test func aSessionListWithAStringLastModifiedIsAViolation() throws {
    var engine = try Self.ready()
    let text =
      #"{"type":"session_list","sessions":[{"session_id":"a","name":"n","working_directory":"/w","#
      + #""last_modified":"yesterday","message_count":1}],"total_count":1}"#
    let v = Self.violation(try engine.handle(.received(.text(text)), now: 1))
    #expect(Self.errors(v) == ["wrong_type /sessions/0/last_modified"])
  }

  @Test func historyOfASessionNeverSubscribedIsNotAnUpdate() throws {
    var engine = try Self.ready()
    let text =
      #"{"type":"session_history","session_id":"other","messages":[],"next_offset":0,"end_of_file":true,"#
      + #""file_signature":null}"#
    let v = Self.violation(try engine.handle(.received(.text(text)), now: 1))
    #expect(Self.errors(v) == ["unsubscribed_session_data /session_id"])
  }

  @Test func textThatIsNotJSONIsAViolation() throws {
    var engine = try Self.ready()
    let v = Self.violation(try engine.handle(.received(.text("not json")), now: 1))
    #expect(v?.messageType == nil && Self.errors(v) == ["invalid_json "])
  }

  @Test func aBinaryMessageWithoutCompressionIsAViolation() throws {
    var engine = try Self.ready()
    let v = Self.violation(try engine.handle(.received(.binary([0x56, 0x43, 1, 0])), now: 1))
    #expect(Self.errors(v) == ["extension_not_negotiated "])
  }

  @Test func anUnknownTypeFromANewerPeerIsStillDelivered() throws {
    var engine = try Self.ready()
    let actions = try engine.handle(.received(.text(#"{"type":"future_thing","x":1}"#)), now: 1)
    guard case .deliver(.received(.unknown(let object)))? = actions.first, actions.count == 1 else {
      Issue.record("expected the unknown message, got \(actions)")
      return
    }
    #expect(object["x"] == 1)
  }

  @Test func aValidFrameIsDeliveredTyped() throws {
    var engine = try Self.ready()
    let actions = try engine.handle(
      .received(.text(#"{"type":"turn_complete","session_id":"\#(Self.session)"}"#)), now: 1)
    guard case .deliver(.received(.turnComplete(.v0_3_0(let turn))))? = actions.first else {
      Issue.record("expected turn_complete, got \(actions)")
      return
    }
    #expect(turn.sessionId == Self.session)
  }

  @Test func aSessionUpdateCarriesTypedHistoryMessages() throws {
    var engine = try Self.ready()
    let text =
      #"{"type":"session_history","session_id":"\#(Self.session)","messages":[{"session_id":"\#(Self.session)","#
      + #""uuid":"u","role":"assistant","text":"hi","timestamp":null,"provider":"claude","offset":4}],"#
      + #""next_offset":5,"end_of_file":true,"file_signature":"5:u"}"#
    let actions = try engine.handle(.received(.text(text)), now: 1)
    guard case .deliver(.sessionUpdate(let update))? = actions.first, case .v0_5_0(let inserted) = update.insert
    else {
      Issue.record("expected a 0.5.0 session update, got \(actions)")
      return
    }
    #expect(inserted.map(\.offset) == [4] && inserted.first?.text == "hi")
    #expect(update.cursor == .offset(5, signature: "5:u"))
  }

  @Test func aHandshakeViolationClosesTheConnection() throws {
    var engine = ClientEngine(ClientConfiguration(apiKey: "k", allowAuthV1: true))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
    let actions = try engine.handle(.received(.text(#"{"type":"hello","message":"m","auth_version":1}"#)), now: 0)
    guard case .deliver(.violation(let v))? = actions.first else {
      Issue.record("expected a violation first, got \(actions)")
      return
    }
    #expect(v.messageType == "hello")
    guard case .closed(let reason) = v.disposition else {
      Issue.record("a handshake violation closes, got \(v.disposition)")
      return
    }
    #expect(reason.code == "protocol_violation")
    #expect(actions.contains { if case .closeTransport(_, reason) = $0 { true } else { false } })
    #expect(engine.state == .backingOff)
  }

  @Test func theApplicationSendsTypedMessagesEncodedOnce() throws {
    var engine = try Self.ready()
    let prompt = ClientMessage.prompt(.v0_3_0(PromptMessageV0_3_0(text: "go", resumeSessionId: Self.session)))
    let actions = try engine.handle(.send(prompt, requestId: "r1"), now: 1)
    #expect(actions.first == .send(.text(MessageEncoder().encode(prompt))))
  }
}
