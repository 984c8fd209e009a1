import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Auth v1 is off unless the application opts in, for the library's auth client and the client
/// engine alike (STANDARDS.md#client-rules): a man in the middle who strips the hello's
/// challenge gets no key, and nothing the server sends afterwards makes the client ready.
@Suite struct AuthV1DefaultTests {
  static func obj(_ value: JSONValue) -> JSONObject { value.objectValue! }

  static let key = "untethered-0123456789abcdef0123456789abcdef"
  static let nonce = "00112233445566778899aabbccddeeff"

  @Test func oneDefaultAndItIsOff() {
    #expect(AuthClient.allowsAuthV1ByDefault == false)
    #expect(AuthClient(apiKey: Self.key).allowAuthV1 == AuthClient.allowsAuthV1ByDefault)
    #expect(ClientConfiguration(apiKey: Self.key).allowAuthV1 == AuthClient.allowsAuthV1ByDefault)
  }

  /// A vcproto hello (negotiation members, auth v2 offered) whose `challenge` was stripped.
  static let strippedHello = obj([
    "type": "hello", "message": "Welcome to voice-code backend", "version": "0.5.0", "auth_version": 1,
    "instructions": "Send connect message with api_key", "protocol_versions": ["0.4.0", "0.5.0"],
    "auth_versions": [1, 2], "capabilities": [],
  ])
  /// The real 0.2.0 backend's hello: no negotiation members, no challenge.
  static let legacyHello = obj([
    "type": "hello", "message": "Welcome to voice-code backend", "version": "0.2.0", "auth_version": 1,
    "instructions": "Send connect message with api_key",
  ])
  static let connected = obj([
    "type": "connected", "message": "Session registered", "session_id": nil, "negotiated_protocol_version": "0.5.0",
    "capabilities": [], "auth_version": 1,
  ])
  static let sessionList = obj(["type": "session_list", "sessions": [], "total_count": 0])

  /// Every action of an engine that was started, opened and given `hello` then `after`.
  static func run(
    _ configuration: ClientConfiguration, hello: JSONObject, after: [JSONObject]
  ) throws -> (ClientEngine, [ClientAction]) {
    var engine = ClientEngine(configuration)
    var actions = try engine.handle(.start, now: 0)
    actions += try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: Self.nonce), now: 0)
    actions += try engine.handle(.frameReceived(hello), now: 1)
    for frame in after { actions += try engine.handle(.frameReceived(frame), now: 2) }
    return (engine, actions)
  }

  static func sent(_ actions: [ClientAction]) -> [JSONObject] {
    actions.compactMap { if case .send(let message) = $0 { message.object } else { nil } }
  }

  static func becameReady(_ actions: [ClientAction]) -> Bool {
    actions.contains { if case .deliver(.connected) = $0 { true } else { false } }
  }

  @Test func strippedChallengeIsRefusedByDefaultAndNoKeyIsSent() throws {
    let (engine, actions) = try Self.run(
      ClientConfiguration(apiKey: Self.key), hello: Self.strippedHello, after: [Self.connected, Self.sessionList])
    #expect(Self.sent(actions).isEmpty, "nothing is sent, so no key: \(Self.sent(actions))")
    #expect(!"\(actions)".contains(Self.key))
    #expect(actions.contains(.closeTransport(TransportID(1), .downgradeRefused)))
    #expect(!Self.becameReady(actions), "an unproven connected makes a client that refuses v1 ready")
    #expect(engine.state == .reauthRequired)
  }

  @Test func legacyHelloIsRefusedByDefaultAndNoFrameMakesItReady() throws {
    let (engine, actions) = try Self.run(
      ClientConfiguration(apiKey: Self.key, minimumVersion: .v0_2_0), hello: Self.legacyHello,
      after: [Self.sessionList, Self.obj(["type": "pong"]), Self.connected])
    #expect(Self.sent(actions).isEmpty)
    #expect(!Self.becameReady(actions))
    #expect(engine.state == .reauthRequired)
  }

  @Test func anOptedInClientSpeaksV1ToTheRealBackend() throws {
    let (engine, actions) = try Self.run(
      ClientConfiguration(apiKey: Self.key, minimumVersion: .v0_2_0, allowAuthV1: true),
      hello: Self.legacyHello, after: [Self.sessionList])
    #expect(Self.sent(actions).first?["api_key"]?.stringValue == Self.key)
    #expect(Self.becameReady(actions))
    #expect(engine.state == .ready)
  }

  /// The engine's own guards, for a state that the hello no longer leads to: a client that refuses v1
  /// but is waiting on a v1 `connect` (as a future change of `onHello` might leave it) acts on no
  /// `connected` it cannot verify and takes no frame for success.
  @Test(arguments: [AuthV1DefaultTests.connected, AuthV1DefaultTests.sessionList])
  func noUnprovenVerdictWithoutTheOptIn(_ frame: JSONObject) throws {
    var engine = ClientEngine(ClientConfiguration(apiKey: Self.key, minimumVersion: .v0_2_0))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: Self.nonce), now: 0)
    engine.state = .awaitingConnected
    engine.usedAuthVersion = 1
    engine.implicitAuthVersion = .v0_2_0
    let actions = try engine.handle(.frameReceived(frame), now: 1)
    #expect(!Self.becameReady(actions))
    #expect(engine.state != .ready)
  }
}
