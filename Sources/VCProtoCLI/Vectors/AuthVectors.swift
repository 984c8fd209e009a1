import VCProto

/// `Vectors/auth/`: auth handshakes, played through the library's public auth API (``AuthClient``,
/// ``AuthServer``, ``ChallengeStore``, ``AuthMAC``, ``Negotiator``) rather than a copy of the MAC
/// layout, so the runner follows the library.
///
/// An auth v2 vector is one handshake. The client (key `client_api_key`, else `api_key`) answers the
/// hello it saw (`client_challenge`, else `challenge`) with the vector's nonce and `connect` members;
/// its MAC input and `auth_response` must be the vector's. A man in the middle may replace members
/// (`received`, `null` = removed). The server (key `api_key`, offer `server`) negotiates over what it
/// received, which must give `negotiated_protocol_version` and `accepted_capabilities`, checks the
/// challenge is fresh and unused (`age_seconds`, `lifetime_seconds`, `replay`) and the nonce well
/// formed by running ``AuthServer`` on a ``ChallengeStore``, and recomputes the MAC over what it
/// received. The client then checks `server_proof` against the `connected` it received
/// (`received_connected` overrides). Vectors without a nonce are auth v1 (`connect_api_key`) or a
/// client that refuses to send its key (`allow_auth_v1: false`).
///
/// The outcome — `ok`, `auth_error` (with the server's reason as `failure`), `server_proof_mismatch`,
/// `server_proof_missing` or `downgrade_refused` — must be the vector's `expected_outcome` and `failure`.
enum AuthVectors {
  /// `nil` when the vector passes, else what differed.
  static func check(_ vector: JSONValue) -> String? {
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

  /// Plays the vector's handshake.
  static func play(_ v: JSONValue) -> Result<Played, Problem> {
    guard let key = v["api_key"]?.stringValue else { return .failure(Problem(text: "vector has no \"api_key\"")) }
    let offer = offer(v["server"])
    let clientKey = v["client_api_key"]?.stringValue ?? key
    let client = AuthClient(apiKey: clientKey, allowAuthV1: v["allow_auth_v1"]?.boolValue ?? true)
    let sessionId = v["session_id"]?.stringValue
    let sent = ClientAnnouncement(
      protocolVersion: v["protocol_version"]?.stringValue, protocolVersions: strings(v["protocol_versions"]),
      capabilities: strings(v["capabilities"]))

    guard let nonce = v["client_nonce"]?.stringValue else {
      // No MAC: an auth v1 connect, or a client deciding what to send for a hello without a usable challenge.
      var connect: ConnectMessage
      if let apiKey = v["connect_api_key"]?.stringValue {
        connect = ConnectMessage(apiKey: apiKey, sessionId: sessionId)
      } else {
        do throws(AuthClient.Refusal) {
          connect = try client.connect(
            for: offer.hello(challenge: v["challenge"]?.stringValue), sessionId: sessionId, announcement: sent,
            nonce: AuthClient.freshNonce())
        } catch {
          return .success(Played(outcome: name(error), why: "the client refused to answer the hello"))
        }
      }
      connect.authVersion = connect.authVersion ?? 1
      let outcome = negotiate(offer, ClientAnnouncement(connect: connect))
      let store = ChallengeStore()
      let result = AuthServer(apiKey: key, acceptedAuthVersions: Set(offer.authVersions)).verify(
        connect, challenge: nil, store: store,
        outcome: (try? outcome.get()) ?? NegotiationOutcome(version: "0.2.0", capabilities: []),
        now: .now)
      switch result {
      case .failure(let failure): return .success(Played(outcome: "auth_error", failure: name(failure)))
      case .success(let success):
        if let want = v["auth_version"]?.intValue, want != success.authVersion {
          return .failure(Problem(text: "expected auth v\(want), the server accepted auth v\(success.authVersion)"))
        }
        return .success(Played(outcome: "ok"))
      }
    }

    // Auth v2. The client's answer, recomputed.
    guard let challenge = v["challenge"]?.stringValue, let response = v["auth_response"]?.stringValue else {
      return .failure(Problem(text: "auth v2 vector needs \"challenge\" and \"auth_response\""))
    }
    let clientChallenge = v["client_challenge"]?.stringValue ?? challenge
    let sentConnect: ConnectMessage
    do throws(AuthClient.Refusal) {
      sentConnect = try client.connect(
        for: offer.hello(challenge: clientChallenge), sessionId: sessionId, announcement: sent, nonce: nonce)
    } catch {
      return .success(Played(outcome: name(error), why: "the client refused a hello offering auth v2"))
    }
    if let hex = v["mac_input_hex"]?.stringValue,
      hex != Hex.encode(AuthMAC.clientInput(challenge: clientChallenge, clientNonce: nonce, connect: sentConnect))
    {
      return .failure(Problem(text: "the client's MAC input differs from mac_input_hex"))
    }
    guard sentConnect.authVersion == 2, let answer = sentConnect.authResponse else {
      return .failure(Problem(text: "the client did not answer with auth v2"))
    }
    guard answer == response else {
      return .failure(Problem(text: "auth_response differs from the client's recomputed answer \(answer)"))
    }

    // What the server received.
    var received = sentConnect
    if let changes = v["received"]?.objectValue {
      for member in changes.members {
        switch member.key {
        case "session_id": received.sessionId = member.value.stringValue
        case "protocol_version": received.protocolVersion = member.value.stringValue
        case "protocol_versions": received.protocolVersions = strings(member.value)
        case "capabilities": received.capabilities = strings(member.value)
        default: return .failure(Problem(text: "cannot replay a change of \"\(member.key)\" in \"received\""))
        }
      }
    }
    if let hex = v["received_mac_input_hex"]?.stringValue,
      hex != Hex.encode(AuthMAC.clientInput(challenge: challenge, clientNonce: nonce, connect: received))
    {
      return .failure(Problem(text: "the server's MAC input differs from received_mac_input_hex"))
    }

    // The server: negotiation, then the real AuthServer and ChallengeStore for the challenge's
    // freshness and the nonce (on a challenge the store issued), then the MAC over what it received.
    let negotiated: NegotiationOutcome
    switch negotiate(offer, ClientAnnouncement(connect: received)) {
    case .success(let outcome): negotiated = outcome
    case .failure(let failure): return .failure(Problem(text: "negotiation failed: \(failure.message)"))
    }
    let wantVersion = v["negotiated_protocol_version"]?.stringValue
    let wantCapabilities = strings(v["accepted_capabilities"])
    if wantVersion.map({ $0 != negotiated.version }) ?? false
      || wantCapabilities.map({ $0 != negotiated.capabilities }) ?? false
      || v["auth_version"]?.intValue.map({ $0 != negotiated.authVersion }) ?? false
    {
      return .failure(
        Problem(
          text: "the server negotiated \(negotiated.version) with [\(negotiated.capabilities.joined(separator: ", "))] "
            + "and auth v\(negotiated.authVersion), not what the vector says"))
    }
    let lifetime = v["lifetime_seconds"]?.intValue.map { Duration.seconds($0) } ?? ChallengeStore.defaultLifetime
    guard lifetime > .zero else { return .failure(Problem(text: "\"lifetime_seconds\" must be positive")) }
    let store = ChallengeStore(lifetime: lifetime)
    let issuedAt = ContinuousClock.now
    let issued = store.issue(now: issuedAt)
    var fresh = received
    fresh.authResponse = AuthMAC.mac(
      apiKey: key, input: AuthMAC.clientInput(challenge: issued, clientNonce: nonce, connect: received))
    let server = AuthServer(apiKey: key, acceptedAuthVersions: Set(offer.authVersions))
    let answeredAt = issuedAt + .seconds(v["age_seconds"]?.intValue ?? 0)
    for attempt in 1...(v["replay"]?.boolValue == true ? 2 : 1) {
      if case .failure(let failure) = server.verify(
        fresh, challenge: issued, store: store, outcome: negotiated, now: answeredAt)
      {
        return .success(Played(outcome: "auth_error", failure: name(failure), why: "answer \(attempt)"))
      }
    }
    let expected = AuthMAC.mac(
      apiKey: key, input: AuthMAC.clientInput(challenge: challenge, clientNonce: nonce, connect: received))
    guard constantTimeEquals(Array(expected.utf8), Array(response.utf8)) else {
      return .success(
        Played(
          outcome: "auth_error", failure: name(AuthFailure.wrongResponse),
          why: "auth_response does not match the MAC over what the server received"))
    }

    // The server's proof, recomputed, and the client's check of the connected it received.
    guard let proof = v["server_proof"]?.stringValue else {
      return .failure(Problem(text: "an accepted auth v2 vector needs \"server_proof\""))
    }
    let proofInput = AuthMAC.serverInput(
      challenge: challenge, clientNonce: nonce, sessionId: received.sessionId, negotiatedVersion: negotiated.version,
      acceptedCapabilities: negotiated.capabilities, authResponse: response)
    if let hex = v["server_proof_input_hex"]?.stringValue, hex != Hex.encode(proofInput) {
      return .failure(Problem(text: "the server's proof input differs from server_proof_input_hex"))
    }
    let serverKey = v["server_api_key"]?.stringValue ?? key
    guard AuthMAC.mac(apiKey: serverKey, input: proofInput) == proof else {
      return .failure(Problem(text: "server_proof differs from the one recomputed with the server's key"))
    }
    var connected = negotiated.connected(sessionId: received.sessionId ?? "", serverProof: proof)
    if let changes = v["received_connected"]?.objectValue {
      for member in changes.members {
        switch member.key {
        case "negotiated_protocol_version": connected.negotiatedProtocolVersion = member.value.stringValue
        case "capabilities": connected.capabilities = strings(member.value)
        case "server_proof": connected.serverProof = member.value.stringValue
        default:
          return .failure(Problem(text: "cannot replay a change of \"\(member.key)\" in \"received_connected\""))
        }
      }
    }
    do throws(AuthClient.Refusal) {
      try client.verify(connected, sent: sentConnect, challenge: clientChallenge)
    } catch {
      return .success(Played(outcome: name(error), why: "the client checked server_proof"))
    }
    return .success(Played(outcome: "ok"))
  }

  private static func negotiate(_ offer: ServerOffer, _ client: ClientAnnouncement) -> Result<
    NegotiationOutcome, NegotiationFailure
  > {
    Negotiator.negotiate(server: offer, client: client)
  }

  /// A case name in snake case, as the vectors spell outcomes and failures (`downgradeRefused` →
  /// `downgrade_refused`, `authV1Refused` → `auth_v1_refused`).
  static func name(_ value: some Any) -> String {
    var out = ""
    for character in String(describing: value) {
      if character.isUppercase {
        out += "_" + character.lowercased()
      } else {
        out.append(character)
      }
    }
    return out
  }
}
