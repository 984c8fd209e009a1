import Foundation
import Testing

@testable import VCProtoCLI
@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

@Suite struct AuthTests {
  static let key = "untethered-00112233445566778899aabbccddeeff"
  static let otherKey = "untethered-ffeeddccbbaa99887766554433221100"
  static let session = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let t0 = ContinuousClock.now
  static let offer = ServerOffer(
    protocolVersions: ["0.2.0"], authVersions: [1, 2], capabilities: ["authenticated_frames", "heartbeat"])
  static let announcement = ClientAnnouncement(
    protocolVersion: "0.2.0", protocolVersions: ["0.2.0"], capabilities: ["heartbeat", "message_ack"])

  /// One connection's handshake up to the client's `connect`.
  struct Handshake {
    var hello: HelloMessage
    var client: ClientHandshake
    var connect: ConnectMessage { client.connect }
  }

  func start(
    store: ChallengeStore, client: AuthClient = AuthClient(apiKey: key), announcement: ClientAnnouncement = announcement
  ) throws -> Handshake {
    let hello = Self.offer.hello(challenge: store.issue(now: t0))
    let handshake = try client.begin(hello: hello, sessionId: Self.session, announcement: announcement)
    return Handshake(hello: hello, client: handshake)
  }

  static func failure(_ result: Result<AuthServer.Success, AuthFailure>) -> AuthFailure? {
    if case .failure(let failure) = result { return failure }
    return nil
  }

  func serve(
    _ connect: ConnectMessage, hello: HelloMessage, store: ChallengeStore, server: AuthServer = AuthServer(apiKey: key),
    now: ContinuousClock.Instant? = nil
  ) -> Result<AuthServer.Success, AuthFailure> {
    let outcome = (try? Negotiator.negotiate(server: Self.offer, client: ClientAnnouncement(connect: connect)).get())!
    return server.verify(
      connect, hello: hello, store: store, outcome: outcome, sessionId: Self.session, now: now ?? t0)
  }

  @Test func v2HandshakeSucceedsAndTheKeyNeverTravels() throws {
    let store = ChallengeStore()
    let h = try start(store: store)
    #expect(h.connect.apiKey == nil && h.connect.authVersion == 2 && h.client.authVersion == 2)
    let frame = String(decoding: MessageEncoder().encode(ClientMessage.connect(h.connect)), as: UTF8.self)
    #expect(!frame.contains(Self.key))
    #expect(Validator(options: ValidationOptions(version: .v0_2_0)).validate(frame).isValid)
    let success = try serve(h.connect, hello: h.hello, store: store).get()
    #expect(success.authVersion == 2 && success.connected.authVersion == 2 && success.serverProof != nil)
    #expect(success.connected.sessionId == Self.session && success.channel == nil)
    let session = try h.client.complete(with: .connected(success.connected))
    #expect(session.isServerVerified && session.authVersion == 2 && session.channel == nil)
    #expect(session.negotiatedProtocolVersion == "0.2.0" && session.capabilities == ["heartbeat"])
    // A replay of the same connect fails: the challenge was consumed.
    #expect(Self.failure(serve(h.connect, hello: h.hello, store: store)) == .challengeNotValid)
  }

  @Test func wrongKeyTamperingAndExpiryFail() throws {
    let store = ChallengeStore(lifetime: .seconds(60))
    let h = try start(store: store)
    #expect(
      Self.failure(serve(h.connect, hello: h.hello, store: store, server: AuthServer(apiKey: Self.otherKey)))
        == .wrongResponse)

    let late = try start(store: store)
    #expect(
      Self.failure(serve(late.connect, hello: late.hello, store: store, now: t0 + .seconds(60))) == .challengeNotValid)
    let onTime = try start(store: store)
    #expect((try? serve(onTime.connect, hello: onTime.hello, store: store, now: t0 + .seconds(59)).get()) != nil)
  }

  /// Every member the MAC binds, changed by a man in the middle on the way to the server: the server
  /// recomputes the MAC over what it received and the hello it sent, and refuses.
  @Test func serverRefusesAnyChangeToABoundConnectOrHelloMember() throws {
    let connectChanges: [(String, (inout ConnectMessage) -> Void)] = [
      ("capabilities merged", { $0.capabilities = ["heartbeat,message_ack"] }),
      ("capabilities emptied", { $0.capabilities = [] }),
      ("protocol_versions stripped", { $0.protocolVersions = nil }),
      ("protocol_version lowered", { $0.protocolVersion = "0.1.0" }),
      ("session_id changed", { $0.sessionId = "other" }),
      ("recent_sessions_limit added", { $0.recentSessionsLimit = 1000 }),
      ("auth_version stripped", { $0.authVersion = nil }),
      ("client_nonce changed", { $0.clientNonce = String(repeating: "a", count: 32) }),
    ]
    for (what, change) in connectChanges {
      let store = ChallengeStore()
      let h = try start(store: store)
      var received = h.connect
      change(&received)
      #expect(Self.failure(serve(received, hello: h.hello, store: store)) == .wrongResponse, "\(what)")
    }
    let helloChanges: [(String, (inout HelloMessage) -> Void)] = [
      ("capabilities offer stripped", { $0.capabilities = ["heartbeat"] }),
      ("auth_versions changed", { $0.authVersions = [2] }),
      ("auth_version changed", { $0.authVersion = 2 }),
      ("version changed", { $0.version = "0.1.0" }),
      ("protocol_versions changed", { $0.protocolVersions = ["0.2.0", "0.1.0"] }),
      ("message changed", { $0.message = "Welcome" }),
      ("instructions changed", { $0.instructions = "Send your key to evil.example" }),
    ]
    for (what, change) in helloChanges {
      let store = ChallengeStore()
      let sent = Self.offer.hello(challenge: store.issue(now: t0))
      var seen = sent
      change(&seen)
      let h = try AuthClient(apiKey: Self.key).begin(hello: seen, sessionId: nil, announcement: Self.announcement)
      #expect(Self.failure(serve(h.connect, hello: sent, store: store)) == .wrongResponse, "\(what)")
    }
  }

  /// Every member of `connected` but the proof, changed on the way back: the client refuses.
  @Test func clientRefusesAnyChangeToConnected() throws {
    let changes: [(String, (inout ConnectedMessage) -> Void)] = [
      ("session_id", { $0.sessionId = "00000000-0000-4000-8000-000000000000" }),
      ("message", { $0.message = "Re-enter your key at evil.example" }),
      ("auth_version", { $0.authVersion = nil }),
      ("negotiated_protocol_version", { $0.negotiatedProtocolVersion = nil }),
      ("capabilities", { $0.capabilities = [] }),
    ]
    for (what, change) in changes {
      let store = ChallengeStore()
      let h = try start(store: store)
      var connected = try serve(h.connect, hello: h.hello, store: store).get().connected
      change(&connected)
      #expect(throws: AuthClient.Refusal.serverProofMismatch, "\(what)") {
        try h.client.complete(with: .connected(connected))
      }
    }
  }

  /// The layout byte for byte, from STANDARDS.md#mac-layout (written here by hand).
  @Test func macInputLayout() {
    let bytes = AuthMAC.message(
      label: "L",
      fields: [
        ("a", .absent), ("s", .string("xy")), ("l", .list(["p", ""])), ("i", .integer(2)), ("n", .integer(-1)),
        ("v", .integerList([1, 258])),
      ])
    #expect(
      Hex.encode(bytes)
        == "4c00" + "0000000161" + "00" + "0000000173" + "01" + "000000027879" + "000000016c" + "02" + "00000002"
        + "0000000170" + "00000000" + "0000000169" + "03" + "0000000000000002" + "000000016e" + "03"
        + "ffffffffffffffff" + "0000000176" + "04" + "00000002" + "0000000000000001" + "0000000000000102")
    // Presence, boundaries and kinds are all explicit.
    func one(_ value: AuthMAC.Value) -> [UInt8] { AuthMAC.message(label: "L", fields: [("f", value)]) }
    #expect(one(.list(["a", "b"])) != one(.list(["a,b"])))
    #expect(one(.list(["a", ""])) != one(.list(["a"])))
    #expect(one(.list([])) != one(.absent))
    #expect(one(.list([])) != one(.integerList([])))
    #expect(one(.string("")) != one(.absent))
    #expect(one(.string("2")) != one(.integer(2)))
  }

  @Test func downgradeIsRefusedByDefault() throws {
    let legacyHello = ServerOffer.legacy.hello(challenge: nil)
    #expect(AuthClient(apiKey: Self.key).allowAuthV1 == false)
    #expect(throws: AuthClient.Refusal.downgradeRefused) {
      try AuthClient(apiKey: Self.key).begin(hello: legacyHello, sessionId: nil, announcement: ClientAnnouncement())
    }
    // A v2 hello whose challenge was stripped on the way.
    var stripped = Self.offer.hello(challenge: "9f")
    stripped.challenge = nil
    #expect(throws: AuthClient.Refusal.downgradeRefused) {
      try AuthClient(apiKey: Self.key).begin(hello: stripped, sessionId: nil, announcement: ClientAnnouncement())
    }
    // Requiring authenticated frames refuses v1 even when v1 is allowed.
    #expect(throws: AuthClient.Refusal.downgradeRefused) {
      try AuthClient(apiKey: Self.key, allowAuthV1: true, requireAuthenticatedFrames: true).begin(
        hello: legacyHello, sessionId: nil, announcement: ClientAnnouncement())
    }
    // Explicit opt-in: the key itself, and the session is not verified.
    let v1 = try AuthClient(apiKey: Self.key, allowAuthV1: true).begin(
      hello: legacyHello, sessionId: nil, announcement: ClientAnnouncement())
    #expect(v1.connect.apiKey == Self.key && v1.connect.authResponse == nil && v1.authVersion == 1)
    let list = ServerMessage.sessionList(
      SessionListMessage.v0_2_0(SessionListMessageV0_2_0(sessions: [], totalCount: 0)))
    let session = try v1.complete(with: list)
    #expect(!session.isServerVerified && session.authVersion == 1 && session.pendingMessage == list)
    #expect(throws: AuthClient.Refusal.authenticationFailed) {
      try v1.complete(with: .authError(AuthFailure.wireMessage))
    }
  }

  @Test func v2ClientActsOnNothingBeforeAVerifiedConnected() throws {
    let store = ChallengeStore()
    let h = try start(store: store)
    let genuine = try serve(h.connect, hello: h.hello, store: store).get().connected
    var forged = genuine
    forged.serverProof = String(repeating: "0", count: 64)
    #expect(throws: AuthClient.Refusal.serverProofMismatch) { try h.client.complete(with: .connected(forged)) }
    forged.serverProof = nil
    #expect(throws: AuthClient.Refusal.serverProofMissing) { try h.client.complete(with: .connected(forged)) }
    // A fake server that skips connected and goes straight to the session list (0.2.0 style).
    #expect(throws: AuthClient.Refusal.unexpectedFrame(type: "session_list")) {
      try h.client.complete(
        with: .sessionList(SessionListMessage.v0_2_0(SessionListMessageV0_2_0(sessions: [], totalCount: 0))))
    }
    #expect(throws: AuthClient.Refusal.unexpectedFrame(type: "pong")) {
      try h.client.complete(with: .pong(PongMessage()))
    }
    #expect(throws: AuthClient.Refusal.authenticationFailed) {
      try h.client.complete(with: .authError(AuthFailure.wireMessage))
    }
    #expect(throws: AuthClient.Refusal.serverError(code: "unsupported_protocol_version")) {
      try h.client.complete(with: .error(ErrorMessage(message: "too old", code: "unsupported_protocol_version")))
    }
    #expect(try h.client.complete(with: .connected(genuine)).isServerVerified)
  }

  @Test func authenticatedFramesAreNegotiatedOnlyWithAuthV2() throws {
    let asked = ClientAnnouncement(capabilities: ["authenticated_frames"], authVersion: 1)
    #expect(try Negotiator.negotiate(server: Self.offer, client: asked).get().capabilities == [])
    var v2 = asked
    v2.authVersion = 2
    #expect(try Negotiator.negotiate(server: Self.offer, client: v2).get().capabilities == ["authenticated_frames"])
    // Even handed an outcome that includes it, the server never grants it to auth v1.
    let outcome = NegotiationOutcome(version: .v0_2_0, capabilities: ["authenticated_frames"], authVersion: 1)
    let success = try AuthServer(apiKey: Self.key).verify(
      ConnectMessage(apiKey: Self.key), hello: ServerOffer.legacy.hello(challenge: nil), store: ChallengeStore(),
      outcome: outcome, sessionId: "s", now: t0
    ).get()
    // (A connected that confirms no extension leaves `capabilities` out, as the real server does.)
    #expect(success.channel == nil && (success.connected.capabilities ?? []).isEmpty)
    #expect(success.connected.serverProof == nil)
  }

  @Test func requiredAuthenticatedFrames() throws {
    let client = AuthClient(apiKey: Self.key, requireAuthenticatedFrames: true)
    let store = ChallengeStore()
    let h = try start(store: store, client: client, announcement: ClientAnnouncement())
    #expect(h.connect.capabilities == ["authenticated_frames"])
    let success = try serve(h.connect, hello: h.hello, store: store).get()
    #expect(try h.client.complete(with: .connected(success.connected)).channel != nil)
    // A hello that does not offer them.
    let plain = ServerOffer(protocolVersions: ["0.2.0"], authVersions: [2]).hello(challenge: "9f")
    #expect(throws: AuthClient.Refusal.authenticatedFramesUnavailable) {
      try client.begin(hello: plain, sessionId: nil, announcement: ClientAnnouncement())
    }
    // A genuine server that declines them (its proof verifies, the capability is missing).
    let declining = try start(store: store, client: client, announcement: ClientAnnouncement())
    let outcome = NegotiationOutcome(version: .v0_2_0, capabilities: [], authVersion: 2)
    let connected = try AuthServer(apiKey: Self.key).verify(
      declining.connect, hello: declining.hello, store: store, outcome: outcome, sessionId: "s", now: t0
    ).get().connected
    #expect(throws: AuthClient.Refusal.authenticatedFramesUnavailable) {
      try declining.client.complete(with: .connected(connected))
    }
  }

  // MARK: - ChallengeStore

  @Test func challengeIsSingleUseUnderConcurrency() async {
    let store = ChallengeStore()
    let challenge = store.issue(now: t0)
    let now = t0
    let wins = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<50 { group.addTask { store.consume(challenge, now: now) } }
      var count = 0
      for await won in group where won { count += 1 }
      return count
    }
    #expect(wins == 1)
    #expect(store.issue(now: t0).utf8.count == 64)
  }

  /// Many challenges issued and answered concurrently: each succeeds exactly once, none is lost.
  @Test func concurrentIssueAndConsumeKeepEveryChallengeSingleUse() async {
    let store = ChallengeStore(capacity: 100_000)
    let now = t0
    let results = await withTaskGroup(of: (Bool, Bool).self) { group in
      for _ in 0..<400 {
        group.addTask {
          let c = store.issue(now: now)
          return (store.consume(c, now: now), store.consume(c, now: now))
        }
      }
      var all: [(Bool, Bool)] = []
      for await r in group { all.append(r) }
      return all
    }
    #expect(results.count == 400)
    #expect(results.allSatisfy { $0.0 && !$0.1 })
    #expect(store.outstanding == 0)
  }

  @Test func storeCapacityEvictsTheOldest() {
    #expect(ChallengeStore().capacity == ChallengeStore.defaultCapacity)
    #expect(ChallengeStore().lifetime == .seconds(60))
    let store = ChallengeStore(capacity: 3)
    let first = store.issue(now: t0)
    let second = store.issue(now: t0)
    for _ in 0..<2 { _ = store.issue(now: t0) }
    #expect(store.outstanding == 3)
    // The fourth issue evicted the oldest: its (honest) answer now fails; the next oldest still works.
    #expect(!store.consume(first, now: t0))
    #expect(store.consume(second, now: t0))
  }

  @Test func expiredChallengesAreForgottenOnIssue() {
    let store = ChallengeStore(lifetime: .seconds(10), capacity: 100)
    let old = (0..<50).map { _ in store.issue(now: t0) }
    #expect(store.outstanding == 50)
    let fresh = store.issue(now: t0 + .seconds(10))
    #expect(store.outstanding == 1)
    #expect(!store.consume(old[0], now: t0 + .seconds(1)))
    #expect(store.consume(fresh, now: t0 + .seconds(19)))
    // Answered challenges behind one unanswered (still valid) challenge do not pile up.
    let pending = store.issue(now: t0 + .seconds(20))
    for _ in 0..<5000 { #expect(store.consume(store.issue(now: t0 + .seconds(20)), now: t0 + .seconds(20))) }
    #expect(store.outstanding == 1)
    #expect(store.table.withLock { $0.order.count - $0.head } <= 2 * store.capacity + 1)
    #expect(store.consume(pending, now: t0 + .seconds(29)))
  }

  @Test func cancelForgetsAChallengeWhenItsConnectionCloses() {
    let store = ChallengeStore()
    let closed = store.issue(now: t0)
    let open = store.issue(now: t0)
    #expect(store.cancel(closed))
    #expect(store.outstanding == 1)
    #expect(!store.cancel(closed))  // already gone
    #expect(!store.consume(closed, now: t0))  // its answer fails like a consumed one
    #expect(store.consume(open, now: t0))
    #expect(!store.cancel(open))  // answered: nothing to cancel
    // Cancelled entries do not pile up in the issue queue either.
    for _ in 0..<5000 { store.cancel(store.issue(now: t0)) }
    #expect(store.outstanding == 0)
    _ = store.issue(now: t0)
    #expect(store.table.withLock { $0.order.count - $0.head } <= 2 * store.capacity + 1)
  }

  @Test func consumeRefusesATimeBeforeTheIssueTime() throws {
    let store = ChallengeStore()
    let challenge = store.issue(now: t0)
    #expect(!store.consume(challenge, now: t0 - .nanoseconds(1)))
    #expect(!store.consume(challenge, now: t0))  // consumed by the refused attempt
    let exact = store.issue(now: t0)
    #expect(store.consume(exact, now: t0))  // the issue time itself is valid
    // Through the server: an answer "from the past" is a generic failure.
    let h = try start(store: store)
    #expect(Self.failure(serve(h.connect, hello: h.hello, store: store, now: t0 - .seconds(1))) == .challengeNotValid)
  }

  // MARK: - Secrets

  @Test func typesHoldingKeysNeverShowThem() throws {
    let store = ChallengeStore()
    let client = AuthClient(apiKey: Self.key, requireAuthenticatedFrames: true)
    let h = try start(store: store, client: client)
    let success = try serve(h.connect, hello: h.hello, store: store).get()
    let session = try h.client.complete(with: .connected(success.connected))
    let channel = try #require(session.channel)
    let keys = FrameKeys(clientToServer: channel.sendKey, serverToClient: channel.receiveKey)
    // The key as text, the frame keys in hex and as Swift prints arrays, and the names of the members
    // that hold them (a default mirror would list those).
    let secrets = [
      Self.key, Hex.encode(channel.sendKey), Hex.encode(channel.receiveKey), "\(channel.sendKey)",
      "\(channel.receiveKey)", "sendKey", "receiveKey", "clientToServer", "serverToClient", "apiKey",
    ]
    var dumped = ""
    dump(channel, to: &dumped)
    dump(keys, to: &dumped)
    dump(h.client, to: &dumped)
    dump(session, to: &dumped)
    dump(success, to: &dumped)
    let shown = [
      String(describing: channel), String(reflecting: channel), "\(keys)", String(reflecting: keys),
      String(describing: h.client), String(reflecting: h.client), String(describing: session),
      String(describing: success), dumped,
    ]
    for text in shown {
      for secret in secrets { #expect(!text.contains(secret), "\(text)") }
    }
    #expect(!String(describing: keys.clientToServer).isEmpty)  // the keys exist; only the descriptions hide them
  }

  // MARK: - Vectors

  /// The vector files cover what STANDARDS.md promises: RFC 5869 cases 1-3, an accepted frame and
  /// every rejection, and a handshake for every member a man in the middle might change. Each vector
  /// is played by `vcproto vectors` (VectorsCommandTests) and cross-checked by tools/crosscheck_auth.py.
  @Test func vectorFilesCoverEveryCase() throws {
    func load(_ name: String) throws -> [JSONValue] {
      let data = try Data(contentsOf: Self.root.appendingPathComponent("Vectors/auth/\(name)"))
      return try #require(try JSONReader(limits: VectorsCommand.vectorFileLimits).parse(Array(data)).arrayValue)
    }
    let hkdf = try load("hkdf.json")
    #expect(hkdf.compactMap { $0["id"]?.stringValue } == ["rfc5869.1", "rfc5869.2", "rfc5869.3"])
    let frames = try load("frames.json")
    let expects = Set(frames.flatMap { $0["messages"]?.arrayValue ?? [] }.compactMap { $0["expect"]?.stringValue })
    #expect(
      expects == [
        "accept", "not_authenticated", "malformed", "mac_mismatch", "replayed", "sequence_gap", "channel_closed",
      ])
    let handshakes = try load("handshakes.json")
    let outcomes = Set(handshakes.compactMap { $0["expected_outcome"]?.stringValue })
    #expect(outcomes == ["ok", "auth_error", "server_proof_mismatch", "server_proof_missing", "downgrade_refused"])
    let changed = Set(
      handshakes.flatMap { v in
        ["received", "received_hello", "received_connected"].flatMap { v[$0]?.objectValue?.keys.map { "\($0)" } ?? [] }
      })
    for member in [
      "capabilities", "protocol_version", "protocol_versions", "session_id", "recent_sessions_limit", "auth_version",
      "challenge", "auth_versions", "version", "message", "negotiated_protocol_version", "server_proof",
    ] {
      #expect(changed.contains(member), "no vector changes \(member)")
    }
    for (kind, list) in [("auth_hkdf", hkdf), ("auth_frames", frames), ("auth", handshakes)] {
      for v in list {
        let id = v["id"]?.stringValue ?? "?"
        let run = VectorsCommand.verdict(ConformanceTestCase(name: id, kind: kind, vector: v))
        #expect(run.passed, "\(id): \(run.why)")
      }
    }
  }
}
