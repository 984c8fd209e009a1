import Foundation
import Testing

@testable import VCProto

@Suite struct AuthTests {
  static let key = "untethered-00112233445566778899aabbccddeeff"
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let t0 = ContinuousClock.now
  let outcome = NegotiationOutcome(version: "0.2.0", capabilities: ["heartbeat", "message_ack"])

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
    let connected = outcome.connected(sessionId: "s", authVersion: 2, serverProof: success.serverProof)
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
    let fake = outcome.connected(sessionId: "s", authVersion: 2, serverProof: String(repeating: "0", count: 64))
    #expect(throws: AuthClient.Refusal.serverProofMismatch) {
      try AuthClient(apiKey: Self.key).verify(fake, sent: connect, challenge: challenge)
    }
    let silent = outcome.connected(sessionId: "s", authVersion: 2, serverProof: nil)
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

  @Test func storeCapacityEvictsTheOldest() {
    let store = ChallengeStore(capacity: 3)
    let first = store.issue(now: t0)
    for _ in 0..<3 { _ = store.issue(now: t0) }
    #expect(store.outstanding == 3)
    #expect(!store.consume(first, now: t0))
  }

  /// Every handshake vector (computed with Python's hmac) against the Swift implementation.
  @Test func everyAuthVector() throws {
    let data = try Data(contentsOf: Self.root.appendingPathComponent("Vectors/auth/handshakes.json"))
    let vectors = try #require(try JSONReader().parse(Array(data)).arrayValue)
    #expect(vectors.count >= 10)
    for v in vectors {
      let id = v["id"]?.stringValue ?? "?"
      let key = v["api_key"]?.stringValue ?? ""
      guard let challenge = v["challenge"]?.stringValue, let nonce = v["client_nonce"]?.stringValue else {
        // The downgrade vector: a client refusing v1 facing a v1-only hello.
        #expect(throws: AuthClient.Refusal.downgradeRefused, "\(id)") {
          try AuthClient(apiKey: key, allowAuthV1: false).connect(
            for: ServerOffer.legacy.hello(challenge: nil), sessionId: nil, announcement: ClientAnnouncement(), nonce: ""
          )
        }
        continue
      }
      let strings = { (x: JSONValue?) in x?.arrayValue?.compactMap(\.stringValue) ?? [] }
      let sessionId = v["session_id"]?.stringValue
      let input = AuthMAC.clientInput(
        challenge: challenge, clientNonce: nonce, sessionId: sessionId,
        protocolVersion: v["protocol_version"]?.stringValue,
        protocolVersions: strings(v["protocol_versions"]), capabilities: strings(v["capabilities"]))
      #expect(Hex.encode(input) == v["mac_input_hex"]?.stringValue, "\(id)")
      let serverInput = AuthMAC.serverInput(
        challenge: challenge, clientNonce: nonce, sessionId: sessionId, negotiatedVersion: "0.2.0",
        acceptedCapabilities: strings(v["accepted_capabilities"]), authResponse: v["auth_response"]?.stringValue ?? "")
      #expect(Hex.encode(serverInput) == v["server_proof_input_hex"]?.stringValue, "\(id)")

      // Run the server as the vector describes.
      let store = ChallengeStore()
      let issued = store.issue(now: t0)
      let received = v["received_capabilities"].map(strings) ?? strings(v["capabilities"])
      let connect = ConnectMessage(
        sessionId: sessionId, protocolVersion: v["protocol_version"]?.stringValue,
        protocolVersions: strings(v["protocol_versions"]), capabilities: received, authVersion: 2, clientNonce: nonce,
        authResponse: v["auth_response"]?.stringValue)
      // The vector's challenge stands in for the store's random one.
      let storeWithVectorChallenge = VectorChallengeStore(store: store, issued: issued, vectorChallenge: challenge)
      let age = Duration.seconds(v["age_seconds"]?.intValue ?? 0)
      let result = AuthServer(apiKey: Self.key).verify(
        connect, challenge: storeWithVectorChallenge.challenge, store: store,
        outcome: NegotiationOutcome(version: "0.2.0", capabilities: strings(v["accepted_capabilities"])), now: t0 + age)
      let expected = v["expected_outcome"]?.stringValue
      if v["replay"]?.boolValue == true {
        #expect((try? result.get()) != nil, "\(id): first use")
        let second = AuthServer(apiKey: Self.key).verify(
          connect, challenge: storeWithVectorChallenge.challenge, store: store, outcome: outcome(v), now: t0)
        #expect((try? second.get()) == nil, "\(id): replay accepted")
      } else if expected == "auth_error" {
        #expect((try? result.get()) == nil, "\(id): accepted")
      } else if expected == "server_proof_mismatch" {
        let connected = ConnectedMessage(
          message: "Session registered", sessionId: sessionId ?? "", negotiatedProtocolVersion: "0.2.0",
          capabilities: strings(v["accepted_capabilities"]), authVersion: 2, serverProof: v["server_proof"]?.stringValue
        )
        #expect(throws: AuthClient.Refusal.serverProofMismatch, "\(id)") {
          try AuthClient(apiKey: Self.key).verify(connected, sent: connect, challenge: challenge)
        }
      } else {
        let success = try #require(try? result.get(), "\(id): refused \(result)")
        #expect(success.serverProof == v["server_proof"]?.stringValue, "\(id)")
      }
    }
  }

  func outcome(_ v: JSONValue) -> NegotiationOutcome {
    NegotiationOutcome(
      version: "0.2.0", capabilities: v["accepted_capabilities"]?.arrayValue?.compactMap(\.stringValue) ?? [])
  }
}

/// Registers a vector's fixed challenge in a store (replacing the random one it issued).
struct VectorChallengeStore {
  let challenge: String

  init(store: ChallengeStore, issued: String, vectorChallenge: String) {
    store.register(vectorChallenge, replacing: issued)
    challenge = vectorChallenge
  }
}
