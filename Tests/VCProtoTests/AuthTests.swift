import Foundation
import Testing

@testable import VCProto

@Suite struct AuthTests {
  static let key = "untethered-00112233445566778899aabbccddeeff"
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let t0 = ContinuousClock.now
  let outcome = NegotiationOutcome(version: "0.2.0", capabilities: ["heartbeat", "message_ack"], authVersion: 2)

  func handshake(allowV1: Bool = true, store: ChallengeStore) throws -> (HelloMessage, ConnectMessage, String) {
    let challenge = store.issue(now: t0)
    let hello = ServerOffer(protocolVersions: ["0.2.0"], authVersions: [1, 2], capabilities: ["heartbeat"])
      .hello(challenge: challenge)
    let connect = try AuthClient(apiKey: Self.key, allowAuthV1: allowV1).connect(
      for: hello, sessionId: "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11",
      announcement: ClientAnnouncement(
        protocolVersion: "0.2.0", protocolVersions: ["0.2.0"], capabilities: ["heartbeat", "message_ack"]),
      nonce: AuthClient.freshNonce())
    return (hello, connect, challenge)
  }

  @Test func v2HandshakeSucceedsAndTheKeyNeverTravels() throws {
    let store = ChallengeStore()
    let (_, connect, challenge) = try handshake(store: store)
    #expect(connect.apiKey == nil && connect.authVersion == 2)
    let frame = String(decoding: MessageEncoder().encode(ClientMessage.connect(connect)), as: UTF8.self)
    #expect(!frame.contains(Self.key))
    #expect(Validator().validate(frame).isValid)
    let result = AuthServer(apiKey: Self.key).verify(
      connect, challenge: challenge, store: store, outcome: outcome, now: t0)
    let success = try result.get()
    #expect(success.authVersion == 2)
    let connected = outcome.connected(sessionId: "s", serverProof: success.serverProof)
    #expect(connected.authVersion == 2)
    try AuthClient(apiKey: Self.key).verify(connected, sent: connect, challenge: challenge)
    // A replay of the same connect fails: the challenge was consumed.
    let replay = AuthServer(apiKey: Self.key).verify(
      connect, challenge: challenge, store: store, outcome: outcome, now: t0)
    #expect(replay == .failure(.challengeNotValid))
  }

  @Test func wrongKeyTamperingAndExpiryFail() throws {
    let store = ChallengeStore(lifetime: .seconds(60))
    let server = AuthServer(apiKey: "untethered-ffeeddccbbaa99887766554433221100")
    let (_, connect, challenge) = try handshake(store: store)
    #expect(
      server.verify(connect, challenge: challenge, store: store, outcome: outcome, now: t0) == .failure(.wrongResponse))

    var (_, stripped, c2) = try handshake(store: store)
    stripped.capabilities = ["heartbeat"]  // a man in the middle removed message_ack
    #expect(
      AuthServer(apiKey: Self.key).verify(stripped, challenge: c2, store: store, outcome: outcome, now: t0)
        == .failure(.wrongResponse))

    let (_, late, c3) = try handshake(store: store)
    #expect(
      AuthServer(apiKey: Self.key).verify(late, challenge: c3, store: store, outcome: outcome, now: t0 + .seconds(60))
        == .failure(.challengeNotValid))
    let (_, onTime, c4) = try handshake(store: store)
    #expect(
      (try? AuthServer(apiKey: Self.key).verify(
        onTime, challenge: c4, store: store, outcome: outcome, now: t0 + .seconds(59)
      ).get())
        != nil)
  }

  /// The two ambiguities of a comma-joined layout, at the byte level: a list of two elements versus
  /// one element containing the separator, and an absent list versus an empty one (also for strings).
  @Test func macInputPinsListBoundariesAndPresence() {
    func input(_ versions: [String]?, _ caps: [String]?, session: String? = "s") -> [UInt8] {
      AuthMAC.clientInput(
        challenge: "c", clientNonce: "n", sessionId: session, protocolVersion: nil, protocolVersions: versions,
        capabilities: caps)
    }
    #expect(input(nil, ["heartbeat", "draining"]) != input(nil, ["heartbeat,draining"]))
    #expect(input(nil, ["a", "b"]) != input(nil, ["ab"]))
    #expect(input(nil, ["a", ""]) != input(nil, ["a"]))
    #expect(input(nil, []) != input(nil, nil))
    #expect(input([], nil) != input(nil, nil))
    #expect(input([], nil) != input(nil, []))  // field names keep equal values in different fields apart
    #expect(input(nil, nil, session: "") != input(nil, nil, session: nil))
    // The layout byte for byte: label, 0x00, then name + tag + length-prefixed content.
    let bytes = AuthMAC.message(label: "L", fields: [("a", .absent), ("s", .string("xy")), ("l", .list(["p", ""]))])
    #expect(
      Hex.encode(bytes)
        == "4c00" + "0000000161" + "00" + "0000000173" + "01" + "000000027879" + "000000016c" + "02" + "00000002"
        + "0000000170" + "00000000")
  }

  /// The attacks above, end to end: the server recomputes the MAC over what it received and refuses.
  @Test func serverRefusesMergedOrPresenceChangedLists() throws {
    for tamper in [
      { (c: inout ConnectMessage) in c.capabilities = ["heartbeat,message_ack"] },
      { (c: inout ConnectMessage) in c.protocolVersions = nil },
      { (c: inout ConnectMessage) in c.capabilities = [] },
    ] {
      let store = ChallengeStore()
      var (_, connect, challenge) = try handshake(store: store)
      tamper(&connect)
      #expect(
        AuthServer(apiKey: Self.key).verify(connect, challenge: challenge, store: store, outcome: outcome, now: t0)
          == .failure(.wrongResponse))
    }
  }

  @Test func downgradeAndV1Rules() throws {
    let legacyHello = ServerOffer.legacy.hello(challenge: nil)
    #expect(throws: AuthClient.Refusal.downgradeRefused) {
      try AuthClient(apiKey: Self.key, allowAuthV1: false).connect(
        for: legacyHello, sessionId: nil, announcement: ClientAnnouncement(), nonce: AuthClient.freshNonce())
    }
    let v1 = try AuthClient(apiKey: Self.key).connect(
      for: legacyHello, sessionId: nil, announcement: ClientAnnouncement(), nonce: "")
    #expect(v1.apiKey == Self.key && v1.authResponse == nil)
    let store = ChallengeStore()
    #expect(
      (try? AuthServer(apiKey: Self.key).verify(v1, challenge: nil, store: store, outcome: outcome, now: t0).get())?
        .authVersion == 1)
    #expect(
      AuthServer(apiKey: Self.key, acceptedAuthVersions: [2]).verify(
        v1, challenge: nil, store: store, outcome: outcome, now: t0)
        == .failure(.authV1Refused))
    var wrong = v1
    wrong.apiKey = Self.key + "0"
    #expect(
      AuthServer(apiKey: Self.key).verify(wrong, challenge: nil, store: store, outcome: outcome, now: t0)
        == .failure(.wrongKey))
    #expect(
      AuthServer(apiKey: Self.key).verify(ConnectMessage(), challenge: nil, store: store, outcome: outcome, now: t0)
        == .failure(.noCredentials))
  }

  @Test func clientRefusesAFakeServer() throws {
    let store = ChallengeStore()
    let (_, connect, challenge) = try handshake(store: store)
    let fake = outcome.connected(sessionId: "s", serverProof: String(repeating: "0", count: 64))
    #expect(throws: AuthClient.Refusal.serverProofMismatch) {
      try AuthClient(apiKey: Self.key).verify(fake, sent: connect, challenge: challenge)
    }
    let silent = outcome.connected(sessionId: "s", serverProof: nil)
    #expect(throws: AuthClient.Refusal.serverProofMissing) {
      try AuthClient(apiKey: Self.key).verify(silent, sent: connect, challenge: challenge)
    }
  }

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
    #expect(store.order.count - store.head <= 2 * store.capacity + 1)
    #expect(store.consume(pending, now: t0 + .seconds(29)))
  }

  // MARK: - Vectors

  /// Every key a vector may carry; an unknown key fails the test, so no field goes unread.
  static let vectorKeys: Set<String> = [
    "id", "description", "api_key", "client_api_key", "server_api_key", "server", "challenge", "client_challenge",
    "client_nonce", "session_id", "protocol_version", "protocol_versions", "capabilities", "mac_input_hex",
    "auth_response", "received", "received_mac_input_hex", "negotiated_protocol_version", "accepted_capabilities",
    "auth_version", "server_proof_input_hex", "server_proof", "received_connected", "client_proof_input_hex",
    "age_seconds", "lifetime_seconds", "replay", "valid", "expected_outcome", "failure", "connect_api_key",
    "allow_auth_v1",
  ]

  static func failure(_ name: String?) -> AuthFailure? {
    switch name {
    case "no_credentials": .noCredentials
    case "auth_v1_refused": .authV1Refused
    case "wrong_key": .wrongKey
    case "challenge_not_valid": .challengeNotValid
    case "bad_nonce": .badNonce
    case "wrong_response": .wrongResponse
    default: nil
    }
  }

  static func strings(_ v: JSONValue?) -> [String]? { v?.arrayValue?.compactMap(\.stringValue) }

  /// Applies a man in the middle's changes (`null` = member removed) to a `connect`.
  static func tamper(_ connect: inout ConnectMessage, with changes: JSONValue?) {
    for member in changes?.objectValue?.members ?? [] {
      let v = member.value
      switch member.key {
      case "session_id": connect.sessionId = v.stringValue
      case "protocol_version": connect.protocolVersion = v.stringValue
      case "protocol_versions": connect.protocolVersions = strings(v)
      case "capabilities": connect.capabilities = strings(v)
      default: Issue.record("unknown received member \(member.key)")
      }
    }
  }

  static func tamper(_ connected: inout ConnectedMessage, with changes: JSONValue?) {
    for member in changes?.objectValue?.members ?? [] {
      switch member.key {
      case "negotiated_protocol_version": connected.negotiatedProtocolVersion = member.value.stringValue
      case "capabilities": connected.capabilities = strings(member.value)
      default: Issue.record("unknown received_connected member \(member.key)")
      }
    }
  }

  /// Every handshake vector (MACs computed with Python's hmac), driven by every field it carries: the
  /// keys each side used, the server's offer, what was sent and what arrived, the negotiated outcome,
  /// the clock, and the expected verdict.
  @Test func everyAuthVector() throws {
    let data = try Data(contentsOf: Self.root.appendingPathComponent("Vectors/auth/handshakes.json"))
    let vectors = try #require(try JSONReader().parse(Array(data)).arrayValue)
    #expect(vectors.count >= 25)
    var seen: Set<String> = []
    for v in vectors {
      let id = try #require(v["id"]?.stringValue)
      seen.insert(try #require(v["expected_outcome"]?.stringValue))
      try run(v, id: id)
    }
    #expect(seen == ["ok", "auth_error", "server_proof_mismatch", "downgrade_refused"])
  }

  func run(_ v: JSONValue, id: String) throws {
    let unknown = Set(v.objectValue?.keys ?? []).subtracting(Self.vectorKeys)
    #expect(unknown.isEmpty, "\(id): unread fields \(unknown)")
    let key = try #require(v["api_key"]?.stringValue, "\(id)")
    let clientKey = v["client_api_key"]?.stringValue ?? key
    let expected = try #require(v["expected_outcome"]?.stringValue, "\(id)")
    #expect(v["valid"]?.boolValue == (expected == "ok"), "\(id): valid")
    let server = try #require(v["server"], "\(id)")
    let offer = ServerOffer(
      protocolVersions: try #require(Self.strings(server["protocol_versions"])),
      authVersions: try #require(server["auth_versions"]?.arrayValue?.compactMap { $0.intValue }),
      capabilities: Self.strings(server["capabilities"]) ?? [], floor: server["floor"]?.stringValue)
    let realServer = AuthServer(apiKey: key, acceptedAuthVersions: Set(offer.authVersions))
    let store = ChallengeStore(lifetime: .seconds(v["lifetime_seconds"]?.intValue ?? 60))
    let now = t0 + .seconds(v["age_seconds"]?.intValue ?? 0)

    guard let nonce = v["client_nonce"]?.stringValue else {
      if let sentKey = v["connect_api_key"]?.stringValue {
        // An auth v1 connect reaching the server.
        let connect = ConnectMessage(apiKey: sentKey)
        let outcome = try Negotiator.negotiate(server: offer, client: ClientAnnouncement(connect: connect)).get()
        let result = realServer.verify(connect, challenge: nil, store: store, outcome: outcome, now: now)
        if expected == "ok" {
          #expect((try? result.get())?.authVersion == v["auth_version"]?.intValue, "\(id)")
          #expect(outcome.authVersion == v["auth_version"]?.intValue, "\(id)")
        } else {
          #expect(result == .failure(try #require(Self.failure(v["failure"]?.stringValue))), "\(id)")
        }
      } else {
        // A client facing a hello (whose challenge may have been stripped).
        let hello = offer.hello(challenge: v["challenge"]?.stringValue)
        let allowV1: Bool? = v["allow_auth_v1"]?.boolValue
        let client = AuthClient(apiKey: clientKey, allowAuthV1: try #require(allowV1 as Bool?, "\(id)"))
        #expect(expected == "downgrade_refused", "\(id): no other client-only verdict")
        #expect(throws: AuthClient.Refusal.downgradeRefused, "\(id)") {
          _ = try client.connect(for: hello, sessionId: nil, announcement: ClientAnnouncement(), nonce: "")
        }
      }
      return
    }

    // Client side: the real AuthClient answers the hello as the client saw it.
    let challenge = try #require(v["challenge"]?.stringValue)
    let clientChallenge = v["client_challenge"]?.stringValue ?? challenge
    let sent = ConnectMessage(
      sessionId: v["session_id"]?.stringValue, protocolVersion: v["protocol_version"]?.stringValue,
      protocolVersions: Self.strings(v["protocol_versions"]), capabilities: Self.strings(v["capabilities"]))
    let connect = try AuthClient(apiKey: clientKey, allowAuthV1: false).connect(
      for: offer.hello(challenge: clientChallenge), sessionId: sent.sessionId,
      announcement: ClientAnnouncement(connect: sent), nonce: nonce)
    #expect(connect.apiKey == nil && connect.authVersion == 2 && connect.clientNonce == nonce, "\(id)")
    #expect(
      Hex.encode(AuthMAC.clientInput(challenge: clientChallenge, clientNonce: nonce, connect: connect))
        == v["mac_input_hex"]?.stringValue, "\(id): mac_input_hex")
    #expect(connect.authResponse == v["auth_response"]?.stringValue, "\(id): auth_response")

    // The wire keeps absent and empty apart, so both ends MAC the same members.
    let wire = MessageEncoder().encode(ClientMessage.connect(connect))
    guard case .connect(var received) = try MessageDecoder().decodeClientMessage(wire) else {
      Issue.record("\(id): connect did not decode as connect")
      return
    }
    #expect(received == connect, "\(id): connect round trip")
    Self.tamper(&received, with: v["received"])
    let serverInput = Hex.encode(AuthMAC.clientInput(challenge: challenge, clientNonce: nonce, connect: received))
    if let tampered = v["received_mac_input_hex"]?.stringValue {
      #expect(serverInput == tampered, "\(id): received_mac_input_hex")
      #expect(tampered != v["mac_input_hex"]?.stringValue, "\(id): tampering must change the bytes")
    } else {
      #expect(serverInput == v["mac_input_hex"]?.stringValue, "\(id): untampered input")
    }

    // Server side: negotiate what arrived, then verify through a real store holding the challenge.
    let outcome = try Negotiator.negotiate(server: offer, client: ClientAnnouncement(connect: received)).get()
    #expect(outcome.version == v["negotiated_protocol_version"]?.stringValue, "\(id): negotiated version")
    #expect(outcome.capabilities == Self.strings(v["accepted_capabilities"]), "\(id): accepted capabilities")
    #expect(outcome.authVersion == v["auth_version"]?.intValue, "\(id): auth version")
    store.register(challenge, replacing: store.issue(now: t0))

    let serverProof: String?
    if let fakeKey = v["server_api_key"]?.stringValue {
      // A fake server does not verify (it cannot); it answers with a proof under the key it has.
      serverProof = AuthMAC.mac(
        apiKey: fakeKey,
        input: AuthMAC.serverInput(
          challenge: challenge, clientNonce: nonce, sessionId: received.sessionId, negotiatedVersion: outcome.version,
          acceptedCapabilities: outcome.capabilities, authResponse: connect.authResponse ?? ""))
    } else {
      let result = realServer.verify(received, challenge: challenge, store: store, outcome: outcome, now: now)
      if expected == "auth_error" && v["replay"]?.boolValue != true {
        #expect(result == .failure(try #require(Self.failure(v["failure"]?.stringValue))), "\(id): \(result)")
        #expect(v["server_proof"] == nil, "\(id): no proof after a refusal")
        return
      }
      let success = try #require(try? result.get(), "\(id): refused \(result)")
      #expect(success.authVersion == 2, "\(id)")
      serverProof = success.serverProof
      if v["replay"]?.boolValue == true {
        let second = realServer.verify(received, challenge: challenge, store: store, outcome: outcome, now: now)
        #expect(second == .failure(try #require(Self.failure(v["failure"]?.stringValue))), "\(id): replay")
        #expect(expected == "auth_error", "\(id)")
      }
    }
    #expect(
      Hex.encode(
        AuthMAC.serverInput(
          challenge: challenge, clientNonce: nonce, sessionId: received.sessionId, negotiatedVersion: outcome.version,
          acceptedCapabilities: outcome.capabilities, authResponse: connect.authResponse ?? ""))
        == v["server_proof_input_hex"]?.stringValue, "\(id): server_proof_input_hex")
    #expect(serverProof == v["server_proof"]?.stringValue, "\(id): server_proof")
    if v["replay"]?.boolValue == true { return }

    // Back at the client: the connected frame as it arrived, checked against what the client sent.
    let connectedWire = MessageEncoder().encode(
      ServerMessage.connected(outcome.connected(sessionId: received.sessionId ?? "", serverProof: serverProof)))
    guard case .connected(var connected) = try MessageDecoder().decodeServerMessage(connectedWire) else {
      Issue.record("\(id): connected did not decode")
      return
    }
    #expect(connected.authVersion == v["auth_version"]?.intValue, "\(id): connected.auth_version")
    Self.tamper(&connected, with: v["received_connected"])
    if let checked = v["client_proof_input_hex"]?.stringValue {
      #expect(
        Hex.encode(
          AuthMAC.serverInput(
            challenge: clientChallenge, clientNonce: nonce, sessionId: connect.sessionId,
            negotiatedVersion: connected.negotiatedProtocolVersion, acceptedCapabilities: connected.capabilities,
            authResponse: connect.authResponse ?? "")) == checked, "\(id): client_proof_input_hex")
    }
    let client = AuthClient(apiKey: clientKey)
    switch expected {
    case "ok":
      #expect(throws: Never.self, "\(id)") { try client.verify(connected, sent: connect, challenge: clientChallenge) }
    case "server_proof_mismatch":
      #expect(throws: AuthClient.Refusal.serverProofMismatch, "\(id)") {
        try client.verify(connected, sent: connect, challenge: clientChallenge)
      }
    default:
      Issue.record("\(id): unexpected outcome \(expected)")
    }
  }
}
