import VCProto

/// `Vectors/auth/`: auth handshakes (`handshakes.json`), HKDF-SHA256 (`hkdf.json`, `kind: "hkdf"`) and
/// authenticated frames (`frames.json`, `kind: "frames"`), played through the library's auth API
/// (``AuthClient``, ``ClientHandshake``, ``AuthServer``, ``ChallengeStore``, ``AuthMAC``, ``FrameKeys``,
/// ``AuthenticatedChannel``, ``Negotiator``) rather than a copy of the layout, so the runner follows
/// the library.
///
/// An auth v2 vector is one handshake. The client (key `client_api_key`, else `api_key`) answers the
/// `hello` as it saw it (`received_hello` overrides) with the vector's nonce and `connect`; its MAC
/// input and `auth_response` must be the vector's (and ``AuthClient`` must write the same `connect`
/// when it carries `auth_version` 2). A man in the middle may replace `connect` members (`received`,
/// `null` = removed). The server (key `api_key`, offer `server`) negotiates over what it received,
/// which must give `negotiated_protocol_version` and `accepted_capabilities`, and runs ``AuthServer``
/// on a ``ChallengeStore`` holding the challenge (`age_seconds`, `lifetime_seconds`, `replay`). The
/// client then completes its handshake with the `connected` it received (`received_connected`
/// overrides); with `authenticated_frames`, both ends' keys must be the vector's. Vectors without a
/// nonce are auth v1 (`connect_api_key`) or a client refusing to send its key (`allow_auth_v1`).
///
/// The outcome — `ok`, `auth_error` (with the server's reason as `failure`), `server_proof_mismatch`,
/// `server_proof_missing` or `downgrade_refused` — must be the vector's `expected_outcome` and `failure`.
enum AuthVectors {
  /// `nil` when the vector passes, else what differed.
  static func check(_ vector: JSONValue) -> String? {
    switch vector["kind"]?.stringValue {
    case "hkdf": return checkHKDF(vector)
    case "frames": return checkFrames(vector)
    case nil: break
    case let kind?: return "unknown vector kind \"\(kind)\""
    }
    guard let valid = vector["valid"]?.boolValue else { return "vector has no boolean \"valid\"" }
    guard let expected = vector["expected_outcome"]?.stringValue ?? (valid ? "ok" : nil) else {
      return "invalid vector has no \"expected_outcome\""
    }
    guard valid == (expected == "ok") else { return "\"valid\" contradicts expected_outcome \"\(expected)\"" }
    let got: Played
    switch play(vector) {
    case .success(let played): got = played
    case .failure(let problem): return problem.text
    }
    let wantFailure = vector["failure"]?.stringValue
    if got.outcome == expected, wantFailure == nil || wantFailure == got.failure { return nil }
    let want = expected + (wantFailure.map { " (\($0))" } ?? "")
    return "expected \(want), got \(got.outcome)" + (got.failure.map { " (\($0))" } ?? "")
      + (got.why.isEmpty ? "" : ": \(got.why)")
  }

  /// What playing a vector gave.
  struct Played {
    /// `ok`, `auth_error`, `server_proof_mismatch`, ...
    var outcome: String
    /// The server's reason for `auth_error` (``AuthFailure`` in snake case).
    var failure: String? = nil
    /// Where it happened, for people.
    var why: String = ""
  }

  /// A vector that disagrees with the library before any outcome (a MAC input, a recomputed MAC, the
  /// negotiated outcome), or that cannot be played.
  struct Problem: Error {
    var text: String
  }

  /// The server offer of a vector's `server` object (auth v2 vectors without one: a 0.2.0 server
  /// accepting auth v1 and v2).
  static func offer(_ server: JSONValue?) -> ServerOffer {
    guard let server else { return ServerOffer(protocolVersions: ["0.2.0"], authVersions: [1, 2]) }
    return ServerOffer(
      protocolVersions: strings(server["protocol_versions"]) ?? [],
      authVersions: server["auth_versions"]?.arrayValue?.compactMap(\.intValue) ?? [1],
      capabilities: strings(server["capabilities"]) ?? [], floor: server["floor"]?.stringValue)
  }

  static func strings(_ value: JSONValue?) -> [String]? {
    value?.arrayValue?.compactMap(\.stringValue)
  }

  /// `base` with `changes` applied (`null` = member removed).
  static func overlay(_ base: JSONObject, _ changes: JSONValue?) -> JSONObject {
    var out = base
    for member in changes?.objectValue?.members ?? [] {
      out.members.removeAll { $0.key == member.key }
      if !member.value.isNull { out.members.append(member) }
    }
    return out
  }

  /// The message of `type` with the members of `object`, decoded by the library.
  static func message(_ type: String, _ object: JSONObject) -> Result<AnyMessage, Problem> {
    var frame = JSONObject([JSONObject.Member(key: "type", value: .string(type))])
    frame.members += object.members.filter { $0.key != "type" }
    do {
      return .success(
        try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(
          Array(JSONValue.object(frame).jsonText.utf8)))
    } catch {
      return .failure(Problem(text: "the vector's \(type) does not decode: \(error.findings.map(\.code))"))
    }
  }

  static func hello(_ object: JSONObject) -> Result<HelloMessage, Problem> {
    message("hello", object).flatMap {
      guard case .server(.hello(let h)) = $0 else { return .failure(Problem(text: "not a hello")) }
      return .success(h)
    }
  }

  /// The vector's `connect` members with the auth v2 answer (`client_nonce`, `auth_response`) added.
  static func connect(_ object: JSONObject, nonce: String, response: String) -> Result<ConnectMessage, Problem> {
    var object = object
    object.members.removeAll { $0.key == "client_nonce" || $0.key == "auth_response" }
    object.members += [
      JSONObject.Member(key: "client_nonce", value: .string(nonce)),
      JSONObject.Member(key: "auth_response", value: .string(response)),
    ]
    return message("connect", object).flatMap {
      guard case .client(.connect(let c)) = $0 else { return .failure(Problem(text: "not a connect")) }
      return .success(c)
    }
  }

  static func connected(_ object: JSONObject) -> Result<ConnectedMessage, Problem> {
    message("connected", object).flatMap {
      guard case .server(.connected(let c)) = $0 else { return .failure(Problem(text: "not a connected")) }
      return .success(c)
    }
  }

  /// Plays the vector's handshake.
  static func play(_ v: JSONValue) -> Result<Played, Problem> {
    do {
      return .success(try playOrThrow(v))
    } catch {
      return .failure(error)
    }
  }

  static func playOrThrow(_ v: JSONValue) throws(Problem) -> Played {
    guard let key = v["api_key"]?.stringValue else { throw Problem(text: "vector has no \"api_key\"") }
    let offer = offer(v["server"])
    let clientKey = v["client_api_key"]?.stringValue ?? key
    let sentHello =
      try v["hello"]?.objectValue.map { o throws(Problem) in try hello(o).get() } ?? offer.hello(challenge: nil)
    let t0 = ContinuousClock.now

    guard let nonce = v["client_nonce"]?.stringValue else {
      // No MAC: an auth v1 connect, or a client deciding what to send for a hello without a usable challenge.
      if let apiKey = v["connect_api_key"]?.stringValue {
        let connect = ConnectMessage(apiKey: apiKey)
        let outcome = try negotiate(offer, ClientAnnouncement(connect: connect))
        let result = AuthServer(apiKey: key, acceptedAuthVersions: Set(offer.authVersions)).verify(
          connect, hello: sentHello, store: ChallengeStore(), outcome: outcome, sessionId: "", now: t0)
        switch result {
        case .failure(let failure): return Played(outcome: "auth_error", failure: name(failure))
        case .success(let success):
          if let want = v["auth_version"]?.intValue, want != success.authVersion {
            throw Problem(text: "expected auth v\(want), the server accepted auth v\(success.authVersion)")
          }
          return Played(outcome: "ok")
        }
      }
      let client = AuthClient(apiKey: clientKey, allowAuthV1: v["allow_auth_v1"]?.boolValue ?? false)
      do throws(AuthClient.Refusal) {
        _ = try client.begin(hello: sentHello, sessionId: nil, announcement: ClientAnnouncement())
      } catch {
        return Played(outcome: name(error), why: "the client refused to answer the hello")
      }
      return Played(outcome: "ok")
    }

    // Auth v2. The client's answer, recomputed over the hello it saw.
    guard let helloObject = v["hello"]?.objectValue, let response = v["auth_response"]?.stringValue,
      let connectObject = v["connect"]?.objectValue
    else { throw Problem(text: "auth v2 vector needs \"hello\", \"connect\" and \"auth_response\"") }
    let seenHello = try hello(overlay(helloObject, v["received_hello"])).get()
    guard let challenge = sentHello.challenge, let seenChallenge = seenHello.challenge else {
      throw Problem(text: "auth v2 vector's hello has no challenge")
    }
    let sent = try connect(connectObject, nonce: nonce, response: response).get()
    let clientInput = AuthMAC.clientInput(challenge: seenChallenge, clientNonce: nonce, connect: sent, hello: seenHello)
    if let hex = v["mac_input_hex"]?.stringValue, hex != Hex.encode(clientInput) {
      throw Problem(text: "the client's MAC input differs from mac_input_hex")
    }
    guard AuthMAC.mac(apiKey: clientKey, input: clientInput) == response else {
      throw Problem(text: "auth_response differs from the MAC recomputed with the client's key")
    }
    if sent.authVersion == 2 {
      // The library's client writes exactly this connect.
      let written: ConnectMessage
      do throws(AuthClient.Refusal) {
        written =
          try AuthClient(apiKey: clientKey).begin(
            hello: seenHello, sessionId: sent.sessionId, recentSessionsLimit: sent.recentSessionsLimit,
            announcement: ClientAnnouncement(
              protocolVersion: sent.protocolVersion, protocolVersions: sent.protocolVersions,
              capabilities: sent.capabilities), nonce: nonce
          ).connect
      } catch {
        throw Problem(text: "AuthClient refused the hello: \(name(error))")
      }
      guard written == sent else { throw Problem(text: "AuthClient writes another connect than the vector's") }
    }

    // What the server received, through the wire.
    guard
      case .connect(let onWire) = try? MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decodeClientMessage(
        MessageEncoder().encode(.connect(sent))),
      onWire == sent
    else { throw Problem(text: "the connect does not survive encode and decode") }
    let receivedObject = overlay(connectObject, v["received"])
    let received = try connect(receivedObject, nonce: nonce, response: response).get()
    if let hex = v["received_mac_input_hex"]?.stringValue,
      hex
        != Hex.encode(
          AuthMAC.clientInput(challenge: challenge, clientNonce: nonce, connect: received, hello: sentHello))
    {
      throw Problem(text: "the server's MAC input differs from received_mac_input_hex")
    }

    // The server: negotiation, then the real AuthServer on a store holding the vector's challenge.
    let negotiated = try negotiate(offer, ClientAnnouncement(connect: received))
    if v["negotiated_protocol_version"]?.stringValue.map({ $0 != negotiated.version.rawValue }) ?? false
      || strings(v["accepted_capabilities"]).map({ $0 != negotiated.capabilities }) ?? false
      || v["auth_version"]?.intValue.map({ $0 != negotiated.authVersion }) ?? false
    {
      throw Problem(
        text: "the server negotiated \(negotiated.version) with [\(negotiated.capabilities.joined(separator: ", "))] "
          + "and auth v\(negotiated.authVersion), not what the vector says")
    }
    let lifetime = v["lifetime_seconds"]?.intValue.map { Duration.seconds($0) } ?? ChallengeStore.defaultLifetime
    guard lifetime > .zero else { throw Problem(text: "\"lifetime_seconds\" must be positive") }
    let store = ChallengeStore(lifetime: lifetime)
    store.register(challenge, replacing: store.issue(now: t0))
    let server = AuthServer(apiKey: key, acceptedAuthVersions: Set(offer.authVersions))
    let sessionId = v["connected_session_id"]?.stringValue ?? ""
    let answeredAt = t0 + .seconds(v["age_seconds"]?.intValue ?? 0)
    var accepted: AuthServer.Success?
    for attempt in 1...(v["replay"]?.boolValue == true ? 2 : 1) {
      switch server.verify(
        received, hello: sentHello, store: store, outcome: negotiated, sessionId: sessionId, now: answeredAt)
      {
      case .failure(let failure):
        return Played(outcome: "auth_error", failure: name(failure), why: "answer \(attempt)")
      case .success(let success): accepted = accepted ?? success
      }
    }

    // The server's proof over the connected it sends (a fake server computes it with its own key).
    guard let proof = v["server_proof"]?.stringValue else {
      throw Problem(text: "an accepted auth v2 vector needs \"server_proof\"")
    }
    var sentConnected = ConnectedMessage(
      message: "Session registered", sessionId: sessionId, negotiatedProtocolVersion: negotiated.version.rawValue,
      capabilities: negotiated.capabilities, authVersion: 2)
    let proofInput = AuthMAC.serverInput(
      challenge: challenge, clientNonce: nonce, authResponse: response, connected: sentConnected)
    if let hex = v["server_proof_input_hex"]?.stringValue, hex != Hex.encode(proofInput) {
      throw Problem(text: "the server's proof input differs from server_proof_input_hex")
    }
    if let fakeKey = v["server_api_key"]?.stringValue {
      guard AuthMAC.mac(apiKey: fakeKey, input: proofInput) == proof else {
        throw Problem(text: "server_proof differs from the one recomputed with server_api_key")
      }
      sentConnected.serverProof = proof
    } else {
      guard let accepted, accepted.connected.serverProof == proof else {
        throw Problem(text: "AuthServer's server_proof differs from the vector's")
      }
      guard
        accepted.connected
          == {
            var c = sentConnected; c.serverProof = proof; return c
          }()
      else {
        throw Problem(text: "AuthServer's connected differs from the one the vector describes")
      }
      sentConnected = accepted.connected
    }

    // Back at the client: the connected as it arrived.
    var arrivedObject = JSONObject()
    if case .object(let o) = JSONReader.parseOrNull(MessageEncoder().encode(.connected(sentConnected))) {
      arrivedObject = o
    }
    let arrived = try connected(overlay(arrivedObject, v["received_connected"])).get()
    if let hex = v["client_proof_input_hex"]?.stringValue,
      hex
        != Hex.encode(
          AuthMAC.serverInput(challenge: seenChallenge, clientNonce: nonce, authResponse: response, connected: arrived))
    {
      throw Problem(text: "the client's proof input differs from client_proof_input_hex")
    }
    let handshake = ClientHandshake(
      connect: sent, apiKey: clientKey, v2: .init(challenge: seenChallenge, nonce: nonce, response: response),
      requireAuthenticatedFrames: false)
    let session: ClientSession
    do throws(AuthClient.Refusal) {
      session = try handshake.complete(with: .connected(arrived))
    } catch {
      return Played(outcome: name(error), why: "the client checked server_proof")
    }
    if let problem = checkKeys(v, session: session, server: accepted, key: key, response: response) {
      throw Problem(text: problem)
    }
    return Played(outcome: "ok")
  }

  /// With `authenticated_frames`: the salt, both infos and both keys are the vector's, and both ends
  /// hold a channel; without, neither does.
  static func checkKeys(
    _ v: JSONValue, session: ClientSession, server: AuthServer.Success?, key: String, response: String
  ) -> String? {
    guard let c2s = v["frame_key_client_to_server_hex"]?.stringValue,
      let s2c = v["frame_key_server_to_client_hex"]?.stringValue
    else {
      return session.channel == nil && server?.channel == nil ? nil : "a channel without frame keys in the vector"
    }
    guard let connected = session.connected, let challenge = v["hello"]?["challenge"]?.stringValue,
      let nonce = v["client_nonce"]?.stringValue
    else { return "no connected" }
    if Hex.encode(FrameKeys.salt(challenge: challenge, clientNonce: nonce)) != v["frame_keys_salt_hex"]?.stringValue {
      return "frame_keys_salt_hex differs"
    }
    for direction in ["client_to_server", "server_to_client"]
    where Hex.encode(FrameKeys.info(direction: direction, authResponse: response, connected: connected))
      != v["frame_keys_info_\(direction)_hex"]?.stringValue
    {
      return "frame_keys_info_\(direction)_hex differs"
    }
    let keys = FrameKeys.derive(
      apiKey: key, challenge: challenge, clientNonce: nonce, authResponse: response, connected: connected)
    guard Hex.encode(keys.clientToServer) == c2s, Hex.encode(keys.serverToClient) == s2c else {
      return "the derived frame keys differ from the vector's"
    }
    guard session.channel != nil, server?.channel != nil else { return "authenticated_frames without a channel" }
    return nil
  }

  static func negotiate(_ offer: ServerOffer, _ client: ClientAnnouncement) throws(Problem) -> NegotiationOutcome {
    let negotiation: Result<NegotiationOutcome, NegotiationFailure>
    do {
      negotiation = try Negotiator.negotiate(server: offer, client: client)
    } catch {
      throw Problem(text: "negotiation failed: \(error)")
    }
    switch negotiation {
    case .success(let outcome): return outcome
    case .failure(let failure): throw Problem(text: "negotiation failed: \(failure.message)")
    }
  }

  /// A case name in snake case, as the vectors spell outcomes and failures (`downgradeRefused` →
  /// `downgrade_refused`, `authV1Refused` → `auth_v1_refused`); associated values are dropped.
  static func name(_ value: some Any) -> String {
    var out = ""
    for character in String(describing: value).prefix(while: { $0 != "(" }) {
      if character.isUppercase {
        out += "_" + character.lowercased()
      } else {
        out.append(character)
      }
    }
    return out
  }
}

extension JSONReader {
  /// The parsed value, or `.null` when the bytes are not JSON (the runner's own frames always are).
  static func parseOrNull(_ bytes: [UInt8]) -> JSONValue {
    (try? JSONReader().parse(bytes)) ?? .null
  }
}
