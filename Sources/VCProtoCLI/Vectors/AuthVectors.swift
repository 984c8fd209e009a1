import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `Vectors/auth/`: auth handshakes (`handshakes.json`), HKDF-SHA256 (`hkdf.json`, `kind: "hkdf"`) and
/// authenticated frames (`frames.json`, `kind: "frames"`), played through the library's auth API
/// (``AuthClient``, ``ClientHandshake``, ``AuthServer``, ``ChallengeStore``, ``AuthMAC``, ``FrameKeys``,
/// ``AuthenticatedChannel``, ``Negotiator``) rather than a copy of the layout, so the runner follows
/// the library.
///
/// As ``SwiftPeer`` answers them, an auth v2 vector is one handshake. The client (key
/// `client_api_key`, else `api_key`) answers the `hello` as it saw it (`received_hello` overrides)
/// with the vector's nonce and `connect`: its MAC input and `auth_response` are results (and
/// ``AuthClient`` must write the same `connect` when it carries `auth_version` 2). A man in the
/// middle may replace `connect` members (`received`, `null` = removed). The server (key `api_key`,
/// offer `server`) negotiates over what it received and runs ``AuthServer`` on a ``ChallengeStore``
/// holding the challenge (`age_seconds`, `lifetime_seconds`, `replay`); its proof is a result. The
/// client then completes its handshake with the `connected` it received (`received_connected`
/// overrides); with authenticated frames, both ends' keys are results. Inputs without a nonce are
/// auth v1 (`connect_api_key`) or a client deciding whether to send its key (`allow_auth_v1`).
///
/// The result's `outcome` is `ok`, `auth_error` (with the server's reason as `failure`),
/// `server_proof_mismatch`, `server_proof_missing` or `downgrade_refused`.
enum AuthVectors {
  /// The result for a handshake's inputs, or why there is none (the library disagrees with itself,
  /// or the input cannot be played).
  static func answer(_ input: JSONValue) -> Result<JSONValue, SwiftPeer.Refusal> {
    do throws(Problem) {
      return .success(.object(try handshake(input)))
    } catch {
      return .failure(.init(error.text))
    }
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

  /// Plays a handshake; the result's members (``ConformanceKind/authOutputs``, `outcome`, `failure`).
  static func handshake(_ v: JSONValue) throws(Problem) -> JSONObject {
    guard let key = v["api_key"]?.stringValue else { throw Problem(text: "the input has no \"api_key\"") }
    let offer = offer(v["server"])
    let clientKey = v["client_api_key"]?.stringValue ?? key
    let sentHello =
      try v["hello"]?.objectValue.map { o throws(Problem) in try hello(o).get() } ?? offer.hello(challenge: nil)
    let t0 = ContinuousClock.now
    var out = JSONObject()
    func set(_ name: String, _ value: JSONValue) { out[name] = value }
    func ended(_ outcome: String, failure: String? = nil) -> JSONObject {
      var result = out
      result["outcome"] = .string(outcome)
      if let failure { result["failure"] = .string(failure) }
      return result
    }

    guard let nonce = v["client_nonce"]?.stringValue else {
      // No MAC: an auth v1 connect, or a client deciding what to send for a hello without a usable challenge.
      if let apiKey = v["connect_api_key"]?.stringValue {
        let connect = ConnectMessage(apiKey: apiKey)
        let outcome = try negotiate(offer, ClientAnnouncement(connect: connect))
        set("auth_version", .number(JSONNumber(outcome.authVersion)))
        let result = AuthServer(apiKey: key, acceptedAuthVersions: Set(offer.authVersions)).verify(
          connect, hello: sentHello, store: ChallengeStore(), outcome: outcome, sessionId: "", now: t0)
        switch result {
        case .failure(let failure): return ended("auth_error", failure: name(failure))
        case .success(let success):
          set("auth_version", .number(JSONNumber(success.authVersion)))
          return ended("ok")
        }
      }
      let client = AuthClient(apiKey: clientKey, allowAuthV1: v["allow_auth_v1"]?.boolValue ?? false)
      do throws(AuthClient.Refusal) {
        _ = try client.begin(hello: sentHello, sessionId: nil, announcement: ClientAnnouncement())
      } catch {
        return ended(name(error))
      }
      return ended("ok")
    }

    // Auth v2. The client's answer, computed over the hello it saw (the MAC input leaves out
    // `auth_response`, so a placeholder stands in for it until it is known).
    guard let helloObject = v["hello"]?.objectValue, let connectObject = v["connect"]?.objectValue else {
      throw Problem(text: "an auth v2 input needs \"hello\" and \"connect\"")
    }
    let seenHello = try hello(overlay(helloObject, v["received_hello"])).get()
    guard let challenge = sentHello.challenge, let seenChallenge = seenHello.challenge else {
      throw Problem(text: "the auth v2 input's hello has no challenge")
    }
    let draft = try connect(connectObject, nonce: nonce, response: String(repeating: "0", count: 64)).get()
    let clientInput = AuthMAC.clientInput(
      challenge: seenChallenge, clientNonce: nonce, connect: draft, hello: seenHello)
    let response = AuthMAC.mac(apiKey: clientKey, input: clientInput)
    set("mac_input_hex", .string(Hex.encode(clientInput)))
    set("auth_response", .string(response))
    let sent = try connect(connectObject, nonce: nonce, response: response).get()
    guard
      AuthMAC.clientInput(challenge: seenChallenge, clientNonce: nonce, connect: sent, hello: seenHello) == clientInput
    else { throw Problem(text: "the client's MAC input depends on auth_response") }
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
      guard written == sent else { throw Problem(text: "AuthClient writes another connect than the input's") }
    }

    // What the server received, through the wire.
    guard
      case .connect(let onWire) = try? MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decodeClientMessage(
        MessageEncoder().encode(.connect(sent))),
      onWire == sent
    else { throw Problem(text: "the connect does not survive encode and decode") }
    let received = try connect(overlay(connectObject, v["received"]), nonce: nonce, response: response).get()
    set(
      "received_mac_input_hex",
      .string(
        Hex.encode(AuthMAC.clientInput(challenge: challenge, clientNonce: nonce, connect: received, hello: sentHello))))

    // The server: negotiation, then the real AuthServer on a store holding the vector's challenge.
    let negotiated = try negotiate(offer, ClientAnnouncement(connect: received))
    set("negotiated_protocol_version", .string(negotiated.version.rawValue))
    set("accepted_capabilities", .array(negotiated.capabilities.map { .string($0) }))
    set("auth_version", .number(JSONNumber(negotiated.authVersion)))
    let lifetime = v["lifetime_seconds"]?.intValue.map { Duration.seconds($0) } ?? ChallengeStore.defaultLifetime
    guard lifetime > .zero else { throw Problem(text: "\"lifetime_seconds\" must be positive") }
    let store = ChallengeStore(lifetime: lifetime)
    store.register(challenge, replacing: store.issue(now: t0))
    let server = AuthServer(apiKey: key, acceptedAuthVersions: Set(offer.authVersions))
    let sessionId = v["connected_session_id"]?.stringValue ?? ""
    let answeredAt = t0 + .seconds(v["age_seconds"]?.intValue ?? 0)
    let accepted: AuthServer.Success
    switch server.verify(
      received, hello: sentHello, store: store, outcome: negotiated, sessionId: sessionId, now: answeredAt)
    {
    case .failure(let failure): return ended("auth_error", failure: name(failure))
    case .success(let success): accepted = success
    }

    // The server's proof over the connected it sends (a fake server computes it with its own key).
    var sentConnected = ConnectedMessage(
      message: "Session registered", sessionId: sessionId, negotiatedProtocolVersion: negotiated.version.rawValue,
      capabilities: negotiated.capabilities, authVersion: 2)
    let proofInput = AuthMAC.serverInput(
      challenge: challenge, clientNonce: nonce, authResponse: response, connected: sentConnected)
    set("server_proof_input_hex", .string(Hex.encode(proofInput)))
    if let fakeKey = v["server_api_key"]?.stringValue {
      sentConnected.serverProof = AuthMAC.mac(apiKey: fakeKey, input: proofInput)
    } else {
      sentConnected.serverProof = AuthMAC.mac(apiKey: key, input: proofInput)
      guard accepted.connected == sentConnected else {
        throw Problem(text: "AuthServer's connected (and its server_proof) differs from the one computed here")
      }
    }
    set("server_proof", sentConnected.serverProof.map { .string($0) } ?? .null)
    if v["replay"]?.boolValue == true {
      // The same answer again: the challenge is spent.
      switch server.verify(
        received, hello: sentHello, store: store, outcome: negotiated, sessionId: sessionId, now: answeredAt)
      {
      case .failure(let failure): return ended("auth_error", failure: name(failure))
      case .success: throw Problem(text: "AuthServer accepted the same answer twice")
      }
    }

    // Back at the client: the connected as it arrived.
    var arrivedObject = JSONObject()
    if case .object(let o) = JSONReader.parseOrNull(MessageEncoder().encode(.connected(sentConnected))) {
      arrivedObject = o
    }
    let arrived = try connected(overlay(arrivedObject, v["received_connected"])).get()
    set(
      "client_proof_input_hex",
      .string(
        Hex.encode(
          AuthMAC.serverInput(challenge: seenChallenge, clientNonce: nonce, authResponse: response, connected: arrived))
      ))
    let handshake = ClientHandshake(
      connect: sent, apiKey: clientKey, v2: .init(challenge: seenChallenge, nonce: nonce, response: response),
      requireAuthenticatedFrames: false)
    let session: ClientSession
    do throws(AuthClient.Refusal) {
      session = try handshake.complete(with: .connected(arrived))
    } catch {
      return ended(name(error))
    }
    try frameKeys(session: session, server: accepted, key: key, challenge: challenge, nonce: nonce, response: response)
      .forEach { set($0.key, $0.value) }
    return ended("ok")
  }

  /// With authenticated frames in force (both ends hold a channel): the salt, both infos and both
  /// keys, as results; without (neither does), none.
  static func frameKeys(
    session: ClientSession, server: AuthServer.Success, key: String, challenge: String, nonce: String,
    response: String
  ) throws(Problem) -> [JSONObject.Member] {
    guard session.channel != nil || server.channel != nil else { return [] }
    guard session.channel != nil, server.channel != nil else {
      throw Problem(text: "only one end holds an authenticated-frames channel")
    }
    guard let connected = session.connected else { throw Problem(text: "a channel without a connected") }
    var out: [JSONObject.Member] = [
      .init(
        key: "frame_keys_salt_hex", value: .string(Hex.encode(FrameKeys.salt(challenge: challenge, clientNonce: nonce)))
      )
    ]
    for direction in ["client_to_server", "server_to_client"] {
      let info = FrameKeys.info(direction: direction, authResponse: response, connected: connected)
      out.append(.init(key: "frame_keys_info_\(direction)_hex", value: .string(Hex.encode(info))))
    }
    let keys = FrameKeys.derive(
      apiKey: key, challenge: challenge, clientNonce: nonce, authResponse: response, connected: connected)
    out.append(.init(key: "frame_key_client_to_server_hex", value: .string(Hex.encode(keys.clientToServer))))
    out.append(.init(key: "frame_key_server_to_client_hex", value: .string(Hex.encode(keys.serverToClient))))
    return out
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
