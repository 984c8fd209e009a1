import VCProtoCore
import VCProtoJSON

extension ServerEngine {
  /// The client frames a server accepts before authentication, from the catalog
  /// (`ClientTransitions.framesBeforeAuthentication`: `ping` and `connect`).
  static let acceptedBeforeAuthentication: Set<FrameType> = Set(
    ClientTransitions.framesBeforeAuthentication.map(FrameType.init)
  ).subtracting([.other])

  /// The `pong` answering every `ping`, encoded once (each answer shares its bytes).
  static let pongFrame = MessageEncoder().encode(.pong(PongMessage()))

  /// Acts on a validated client message (STANDARDS.md#state-machine): `ping` and `connect` in any live
  /// state, everything else once authenticated, where the engine's own requests (`subscribe`,
  /// `unsubscribe`, and the negotiated `message_ack`, `disconnect` and repeated idempotency keys)
  /// are handled here and every other request goes to the application, typed. The message is moved
  /// along, never copied: a request reaches the application as it was decoded.
  mutating func dispatch(_ message: consuming ClientMessage, now: Int64, _ out: inout ServerActions) {
    // `authenticated` implies a negotiated outcome (set with it in `onConnect`): the state alone is
    // checked, so no frame copies the outcome. Before authentication only what the catalog allows
    // and the engine handles then: `ping` and `connect`.
    guard state == .authenticated || Self.handledBeforeAuthentication(message) else {
      return refuseBeforeAuthentication(type: message.type, &out)
    }
    if capabilityFlags.contains(.idempotentPrompt), answeredRepeatedPrompt(message, &out) { return }
    switch consume message {
    case .ping: emit(frame: Self.pongFrame, &out)
    case .connect(let connect):
      // The frame keys belong to the first handshake: a second one is refused (STANDARDS.md#authenticated-frames).
      guard channel == nil else { return refuseAuth(&out) }
      onConnect(connect, now: now, &out)
    case .subscribe(let subscribe): onSubscribe(subscribe, &out)
    case .unsubscribe(let unsubscribe):
      guard let id = unsubscribe.sessionId else { return out.append(.deliver(.request(.unsubscribe(unsubscribe)))) }
      subscribedSessions.remove(id)
      out.append(.deliver(.unsubscribe(sessionId: id)))
    case .messageAck(let ack) where capabilityFlags.contains(.messageAck):
      if !memory.acknowledge(ack.messageId) { out.append(.deliver(.unknownAcknowledgement(messageId: ack.messageId))) }
    case .disconnect(let disconnect) where capabilityFlags.contains(.disconnect):
      out.append(.deliver(.clientDisconnecting(reason: disconnect.reason)))
      finish(.clientDisconnect, close: true, &out)
    case let request: out.append(.deliver(.request(request)))
    }
  }

  /// Whether the engine acts on `message` before authentication: a `ping` or a `connect`, when the
  /// catalog allows it then (``acceptedBeforeAuthentication``).
  static func handledBeforeAuthentication(_ message: ClientMessage) -> Bool {
    switch message {
    case .ping, .connect: return acceptedBeforeAuthentication.contains(FrameType(message.type))
    default: return false
    }
  }

  /// With `idempotent_prompt` negotiated: `true` for a `prompt` whose `idempotency_key` is in the
  /// window, answered with `ack` and reported as ``ServerApplicationEvent/duplicatePrompt(idempotencyKey:)``
  /// instead of delivered; `false` for anything else (a new key is remembered).
  @inline(never)
  mutating func answeredRepeatedPrompt(_ message: ClientMessage, _ out: inout ServerActions) -> Bool {
    guard case .prompt(let prompt) = message, let key = prompt.idempotencyKey,
      key.utf8.count <= ServerMemory.maxKeyBytes
    else { return false }
    // By exact scalars: a key canonically equivalent to a remembered one is another prompt.
    guard memory.keys.insert(ExactString(key)) else {
      emit(.ack(AckMessage(message: "Processing prompt...")), &out)
      out.append(.deliver(.duplicatePrompt(idempotencyKey: key)))
      return true
    }
    return false
  }

  /// A valid `connect`: negotiation, then the credentials, then `connected` and the application's
  /// `.authenticated` (STANDARDS.md#negotiation-and-auth and STANDARDS.md#state-machine).
  mutating func onConnect(_ connect: ConnectMessage, now: Int64, _ out: inout ServerActions) {
    let authResponse = connect.authResponse
    let announcement = ClientAnnouncement(
      protocolVersion: connect.protocolVersion, protocolVersions: connect.protocolVersions,
      capabilities: connect.capabilities,
      // The auth this connect performs decides, not its `auth_version` member: a v1 connect that
      // claims 2 is not granted `authenticated_frames` (STANDARDS.md#authenticated-frames).
      authVersion: authResponse != nil ? 2 : 1)
    let negotiated: NegotiationOutcome
    let negotiation: Result<NegotiationOutcome, NegotiationFailure>
    do {
      negotiation = try Negotiator.negotiate(server: configuration.offer, client: announcement)
    } catch {
      refuseAuth(&out)  // a list over the handshake cap (STANDARDS.md#negotiation-and-auth): the generic refusal
      return
    }
    switch negotiation {
    case .failure(let failure):
      // The real backend's refusal frame, exactly (NegotiationFailure.errorMessage).
      emit(
        .error(
          ErrorMessage(
            message: failure.message, code: NegotiationFailure.code, required: failure.required,
            received: failure.received)), &out)
      finish(.unsupportedVersion, close: true, &out)
      return
    case .success(let o): negotiated = o
    }
    let sessionId = connect.sessionId
    var v2: (challenge: String, nonce: String, response: String)?
    var authVersion = 1
    if let response = authResponse {
      let issued = challenge
      // Valid from its issue time (inclusive) for `authTimeoutMs` (exclusive); an answer at a time
      // before the issue time (a clock that went backwards, a host's mistake) is refused, not
      // trusted (STANDARDS.md#negotiation-and-auth). The difference saturates, so no pair of times overflows.
      let age = now.subtractingSaturating(challengeIssuedAt)
      let fresh = !challengeUsed && age >= 0 && age < configuration.authTimeoutMs
      challengeUsed = true  // consumed by the first answer, right or wrong
      guard let challenge = issued, fresh, let nonce = connect.clientNonce,
        EngineFacts.clientNonceLengths.contains(nonce.utf8.count),
        nonce.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
      else { return refuseAuth(&out) }
      // The client's MAC binds the connect as received and the hello this connection sent
      // (STANDARDS.md#negotiation-and-auth).
      guard connect.authVersion == nil || connect.authVersion == 2 else { return refuseAuth(&out) }
      let expected = AuthMAC.mac(
        apiKey: configuration.apiKey,
        input: AuthMAC.clientInput(challenge: challenge, clientNonce: nonce, connect: connect, hello: hello()))
      guard constantTimeEquals(Array(expected.utf8), Array(response.utf8)) else { return refuseAuth(&out) }
      authVersion = 2
      v2 = (challenge, nonce, response)
    } else {
      guard configuration.offer.authVersions.contains(1), let key = connect.apiKey,
        constantTimeEquals(Array(key.utf8), Array(configuration.apiKey.utf8))
      else { return refuseAuth(&out) }
    }
    var accepted = negotiated
    var sealWith: AuthenticatedChannel?
    accepted.authVersion = authVersion
    // Its keys come from auth v2: never granted with the plain key (also the negotiator's rule).
    if authVersion != 2 { accepted.capabilities.removeAll { $0 == Capability.authenticatedFrames } }
    outcome = accepted
    family = VersionFamily(accepted.version)
    decoder = Self.decoder(for: accepted.version)
    state = .authenticated
    subscribedSessions.removeAll()  // a second connect re-runs the handshake and starts over, as in the real server
    if armed.removeValue(forKey: .authDeadline) != nil { out.append(.cancelTimer(.authDeadline)) }
    let announced =
      announcement.protocolVersion != nil || announcement.protocolVersions != nil
      || announcement.capabilities != nil || authVersion == 2
    if announced || family != .messageId {
      // The real server echoes the connect's session_id, else null (0.3.0 made it nullable); on
      // 0.2.0, whose `connected` needs a string and which no real server ever sent, the host's
      // connection id stands in.
      let echoed = sessionId ?? (accepted.version == .v0_2_0 ? connectionId : nil)
      var connected = ConnectedMessage(
        message: "Session registered", sessionId: echoed, negotiatedProtocolVersion: accepted.version.rawValue)
      // vcproto's members only for a client that negotiated something (STANDARDS.md#negotiation):
      // one that asked for nothing gets the real backend's `connected` exactly.
      if accepted.confirmsExtensions {
        connected.capabilities = accepted.capabilities
        connected.authVersion = authVersion
      }
      if let v2 {
        // server_proof covers every member of `connected` as sent (a null session_id is absent).
        let typed = ConnectedMessage(
          message: "Session registered", sessionId: echoed,
          negotiatedProtocolVersion: accepted.version.rawValue, capabilities: accepted.capabilities,
          authVersion: authVersion)
        var proven = typed
        proven.serverProof = AuthMAC.mac(
          apiKey: configuration.apiKey,
          input: AuthMAC.serverInput(
            challenge: v2.challenge, clientNonce: v2.nonce, authResponse: v2.response, connected: typed))
        connected.serverProof = proven.serverProof
        if accepted.allows(Capability.authenticatedFrames) {
          // Every frame after this `connected` is sealed and every frame received opened.
          sealWith = AuthenticatedChannel(
            keys: FrameKeys.derive(
              apiKey: configuration.apiKey, challenge: v2.challenge, clientNonce: v2.nonce, authResponse: v2.response,
              connected: proven),
            role: .server)
        }
      }
      emit(.connected(connected), &out)
    }
    channel = sealWith
    let limit = EngineFacts.recentSessionsLimit(connect.recentSessionsLimit)
    out.append(.deliver(.authenticated(accepted, sessionId: sessionId, recentSessionsLimit: limit)))
    if accepted.allows(Capability.heartbeat) {
      arm(.heartbeat, at: now.addingSaturating(configuration.heartbeatIntervalMs), &out)
    }
    if accepted.allows(Capability.messageAck) {
      for entry in memory.unacknowledged {
        var writer = JSONWriter()
        writer.write(
          JSONObject.frame("replay", ["message_id": .string(entry.messageId), "message": .object(entry.message)]))
        emit(frame: writer.bytes, &out)
      }
    }
  }

  /// The generic refusal of a handshake (`auth_error`, then close): a wrong credential, or a
  /// `connect` the engine cannot act on.
  mutating func refuseAuth(_ out: inout ServerActions) {
    emit(.authError(AuthErrorMessage(message: "Authentication failed")), &out)
    finish(.authFailed, close: true, &out)
  }

  /// A valid `subscribe` of the connection's version: refused when its id is too long or the
  /// connection holds too many subscriptions, else remembered and delivered with its cursor.
  mutating func onSubscribe(_ subscribe: consuming SubscribeMessage, _ out: inout ServerActions) {
    // The id and the cursor's string are moved out of the message (`swap`, `take`), which is dropped
    // here: copying them would retain each and release it again with the message.
    var id = ""
    let cursor: SubscriptionCursor?
    switch consume subscribe {
    case .v0_2_0(var m):
      swap(&id, &m.sessionId)
      cursor = m.lastMessageId.take().map(SubscriptionCursor.lastMessageId)
    case .v0_4_0(var m):
      swap(&id, &m.sessionId)
      cursor = .lastSeq(m.lastSeq ?? 0)
    case .v0_5_0(var m):
      swap(&id, &m.sessionId)
      cursor = .offset(m.fromOffset ?? 0, signature: m.fileSignatureSeen.take())
    }
    guard id.utf8.count <= configuration.maxSessionIdBytes else {
      return emit(.error(Self.sessionIdTooLong(configuration.maxSessionIdBytes)), &out)
    }
    // The count first: under the bound, no lookup is needed before the insert.
    guard subscribedSessions.count < configuration.maxSubscriptions || subscribedSessions.contains(id) else {
      return emit(.error(ErrorMessage(message: "Too many subscriptions on this connection")), &out)
    }
    subscribedSessions.insert(lending: &id)
    out.append(.deliver(.subscribe(sessionId: consume id, cursor: cursor)))
  }

  /// The refusal of a `subscribe` whose id is longer than `limit` bytes.
  static func sessionIdTooLong(_ limit: Int) -> ErrorMessage {
    ErrorMessage(message: "session_id is longer than \(limit) bytes")
  }

  /// The real server's refusal of a `subscribe` that failed validation (STANDARDS.md#errors), read
  /// from the tree in the server's order: no string `session_id`, one too long, then the version's
  /// cursor members; `nil` when none applies (the violation is elsewhere in the frame).
  func subscribeRefusal(_ frame: JSONObject) -> ErrorMessage? {
    func refusal(_ message: String, code: String) -> ErrorMessage { ErrorMessage(message: message, code: code) }
    guard let id = frame["session_id"]?.stringValue else {
      return ErrorMessage(message: "session_id required in subscribe message")
    }
    guard id.utf8.count <= configuration.maxSessionIdBytes else {
      return Self.sessionIdTooLong(configuration.maxSessionIdBytes)
    }
    func isCount(_ key: String) -> Bool {  // absent, null, or an integer >= 0
      guard let value = frame[key], !value.isNull else { return true }
      guard let n = value.intValue else { return false }
      return n >= 0
    }
    switch family {
    case .messageId: return nil
    case .seq:
      if let v = frame["last_message_id"], !v.isNull {
        return refusal(
          "last_message_id is not supported in protocol v0.4.0; use last_seq instead",
          code: "unsupported_subscribe_field")
      }
      return isCount("last_seq") ? nil : refusal("last_seq must be a non-negative integer", code: "invalid_subscribe")
    case .offset:
      guard isCount("from_offset") else {
        return refusal("from_offset must be a non-negative integer", code: "invalid_subscribe")
      }
      if let v = frame["file_signature_seen"], !v.isNull, v.stringValue == nil {
        return refusal("file_signature_seen must be a string when provided", code: "invalid_subscribe")
      }
      return nil
    }
  }
}
