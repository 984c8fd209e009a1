import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// An independent attack on `authenticated_frames` as the engines enforce it (issue 29, item 3):
/// wrappers with a member missing, added or mistyped, close-related and liveness frames sent plain,
/// a sealed frame before the grant, a sealed `connect`, frames after the refusal. Each must close the
/// connection with the code STANDARDS.md#authenticated-frames gives and reach no application.
@Suite struct AuthenticatedFramesAttackTests {
  typealias Loopback = ConnectionLoopbackTests.Loopback
  typealias Base = AuthenticatedFramesLoopbackTests

  /// A genuine sealed `execute_command` from the client, not yet delivered, and the loop.
  static func sealedCommand() throws -> (Loopback, JSONObject) {
    var loop = try Base.established()
    try loop.clientDoes(.send(Base.command, requestId: nil))
    return (loop, loop.toServer.removeFirst())
  }

  /// A genuine sealed `session_list` from the server, not yet delivered, and the loop.
  static func sealedList() throws -> (Loopback, JSONObject) {
    var loop = try Base.established()
    try loop.serverDoes(.sendFrame(.frame("session_list", ["sessions": [], "total_count": 0])))
    return (loop, loop.toClient.removeFirst())
  }

  /// Ways to spoil a genuine wrapper's form: each must be `malformed`, never opened.
  static let spoilers: [(String, @Sendable (inout JSONObject) -> Void)] = [
    ("no frame", { $0["frame"] = nil }),
    ("no mac", { $0["mac"] = nil }),
    ("no seq", { $0["seq"] = nil }),
    ("an extra member", { $0["note"] = "x" }),
    ("seq as a string", { $0["seq"] = .string("0") }),
    ("seq 0.0", { $0["seq"] = try! JSONReader().parse("0.0") }),
    ("seq 0e0", { $0["seq"] = try! JSONReader().parse("0e0") }),
    ("seq -0", { $0["seq"] = try! JSONReader().parse("-0") }),
    ("seq 2^53", { $0["seq"] = try! JSONReader().parse("9007199254740992") }),
    ("seq 2^64", { $0["seq"] = try! JSONReader().parse("18446744073709551616") }),
    ("seq null", { $0["seq"] = .null }),
    ("mac in uppercase", { $0["mac"] = .string($0["mac"]!.stringValue!.uppercased()) }),
    ("mac one digit short", { $0["mac"] = .string(String($0["mac"]!.stringValue!.dropLast())) }),
    ("frame as an object", { $0["frame"] = .object(Base.command) }),
  ]

  @Test(arguments: 0..<spoilers.count) func serverRefusesASpoiledWrapper(_ index: Int) throws {
    var (loop, sealed) = try Self.sealedCommand()
    Self.spoilers[index].1(&sealed)
    try loop.serverDoes(.frameReceived(sealed))
    #expect(Base.serverClose(loop) == "malformed", "\(Self.spoilers[index].0)")
    #expect(Base.requests(loop).isEmpty)
    #expect(loop.server.state == .closed)
  }

  @Test(arguments: 0..<spoilers.count) func clientRefusesASpoiledWrapper(_ index: Int) throws {
    var (loop, sealed) = try Self.sealedList()
    Self.spoilers[index].1(&sealed)
    try loop.clientDoes(.frameReceived(sealed))
    #expect(Base.clientClose(loop) == "malformed", "\(Self.spoilers[index].0)")
    #expect(Base.delivered(loop).isEmpty)
    #expect(loop.client.state == .backingOff)
  }

  @Test func aPlainDisconnectDoesNotEndTheSessionAsTheClientsOwn() throws {
    var loop = try Base.established()
    try loop.serverDoes(.frameReceived(.frame("disconnect", ["reason": "bye"])))
    #expect(Base.serverClose(loop) == "not_authenticated")
    #expect(!loop.serverEvents.contains { if case .clientDisconnecting = $0 { true } else { false } })
  }

  @Test func plainLivenessAndCloseFramesToTheClientAreRefused() throws {
    let frames: [JSONObject] = [
      .frame("pong"), .frame("heartbeat", ["timestamp": "2026-01-11T17:25:32Z"]),
      .frame("draining", ["message": "restart", "retry_after_ms": 1]),
      .frame("auth_error", ["message": "Authentication failed"]),
      .frame("hello", ["message": "m", "version": "0.5.0", "auth_version": 1, "instructions": "i"]),
      .frame(
        "connected",
        ["message": "Session registered", "session_id": .null, "negotiated_protocol_version": "0.5.0"]),
    ]
    for frame in frames {
      var loop = try Base.established()
      loop.now += 30_000
      try loop.clientDoes(.timerFired(.ping))
      loop.toServer.removeAll()
      try loop.clientDoes(.frameReceived(frame))
      #expect(Base.clientClose(loop) == "not_authenticated", "\(frame)")
      #expect(loop.client.state == .backingOff, "\(frame)")
      #expect(loop.client.authFailures == 0, "a plain auth_error counts as no authentication failure")
      #expect(Base.delivered(loop).isEmpty)
    }
  }

  @Test func aSealedConnectIsRefusedAndTheHandshakeNotReRun() throws {
    var loop = try Base.established()
    let connects = loop.serverEvents.filter { if case .authenticated = $0 { true } else { false } }.count
    let connect = JSONObject.frame(
      "connect", ["api_key": .string(Base.key), "protocol_version": "0.5.0", "capabilities": []])
    var channel = try #require(loop.client.channel)
    let sealed = try channel.seal(object: connect)
    try loop.serverDoes(.frameReceived(sealed))
    #expect(Base.serverClose(loop) == "auth_failed")
    #expect(loop.serverEvents.filter { if case .authenticated = $0 { true } else { false } }.count == connects)
  }

  @Test func aSealedFrameBeforeTheGrantIsNotAuthenticated() throws {
    // A wrapper (from another connection, or made up) before `connect`: nothing is opened.
    let (_, sealed) = try Self.sealedCommand()
    var server = ServerEngine(
      ServerConfiguration(
        offer: ServerOffer(protocolVersions: ["0.5.0"], authVersions: [2], capabilities: Base.capabilities),
        apiKey: Base.key))
    _ = try server.handle(.transportOpened(challenge: String(repeating: "c3", count: 32)), now: 0)
    let actions = try server.handle(.frameReceived(sealed), now: 1)
    #expect(actions.contains { if case .closeTransport(let r) = $0 { r.code == "not_authenticated" } else { false } })
    #expect(!actions.contains { if case .deliver(.request) = $0 { true } else { false } })
  }

  @Test func nothingIsOpenedAfterARefusal() throws {
    var (loop, sealed) = try Self.sealedCommand()
    try loop.serverDoes(.frameReceived(.frame("ping")))
    #expect(Base.serverClose(loop) == "not_authenticated")
    let after = try loop.server.handle(.frameReceived(sealed), now: loop.now)
    #expect(after.isEmpty, "a closed server engine acts on nothing, the genuine next frame included")
    #expect(Base.requests(loop).isEmpty)
  }

  @Test func aFrameFromAnotherConnectionIsAMACMismatch() throws {
    // Same key, another challenge: other frame keys, so a frame of one connection is forged in another.
    let (_, sealed) = try Self.sealedCommand()
    var loop = Loopback(
      client: ClientConfiguration(apiKey: Base.key, capabilities: Base.capabilities, allowAuthV1: false),
      server: ServerConfiguration(
        offer: ServerOffer(protocolVersions: ["0.4.0", "0.5.0"], authVersions: [2], capabilities: Base.capabilities),
        apiKey: Base.key))
    try loop.clientDoes(.start)
    // The loop's own open gives the fixed challenge; start this connection over with another one.
    loop.server = ServerEngine(loop.serverConfiguration)
    loop.toClient.removeAll()
    try loop.serverDoes(.transportOpened(challenge: String(repeating: "d4", count: 32), connectionId: "conn-2"))
    loop.client = ClientEngine(loop.client.configuration)
    _ = try loop.client.handle(.start, now: loop.now)
    try loop.clientDoes(
      .transportOpened(loop.client.currentTransport!, clientNonce: String(repeating: "6b", count: 16)))
    try loop.pump()
    #expect(loop.client.state == .ready && loop.server.channel != nil)
    try loop.serverDoes(.frameReceived(sealed))
    #expect(Base.serverClose(loop) == "mac_mismatch")
    #expect(Base.requests(loop).isEmpty)
  }
}
