extension ServerEngine {
  /// The client frames a server accepts before authentication, from the catalog
  /// (``ClientTransitions/framesBeforeAuthentication``: `ping` and `connect`).
  static let acceptedBeforeAuthentication: Set<FrameType> = Set(
    ClientTransitions.framesBeforeAuthentication.map(FrameType.init)
  ).subtracting([.other])

  mutating func receive(_ wire: JSONObject, now: Int64, _ out: inout [ServerAction]) {
    var frame = wire
    if channel != nil {
      // Authenticated frames (STANDARDS.md section 8): every frame after `connected` is opened first;
      // a plain, malformed, altered, replayed or reordered one closes the connection unseen.
      let text: String
      do {
        text = try channel!.open(object: wire)
      } catch {
        finish(.authenticatedFrame(error), close: true, &out)
        return
      }
      guard case .object(let inner)? = try? JSONReader().parse(Array(text.utf8)) else {
        answerMalformed("the authenticated frame does not hold a JSON object", &out)
        return
      }
      frame = inner
    }
    let type = FrameType(frame["type"]?.stringValue ?? "")
    guard (state == .authenticated && outcome != nil) || Self.acceptedBeforeAuthentication.contains(type) else {
      // Before authentication only what the catalog allows (ping and connect): anything else, a frame
      // without `type` too, is refused.
      out.append(.send(.frame("auth_error", ["message": "Authentication failed"])))
      finish(.notAuthenticated, close: true, &out)
      return
    }
    if type == .ping {
      emit(.frame("pong"), &out)
      return
    }
    if type == .connect {
      guard channel == nil else {
        // The frame keys belong to the first handshake: a second one is refused (STANDARDS.md section 8).
        refuseAuth(&out)
        return
      }
      onConnect(frame, now: now, &out)
      return
    }
    switch type {
    case .subscribe: onSubscribe(frame, &out)
    case .unsubscribe:
      guard let id = frame["session_id"]?.stringValue else { break }
      subscribedSessions.remove(SessionKey(id))
      out.append(.deliver(.unsubscribe(sessionId: id)))
      return
    case .messageAck where capabilityFlags.contains(.messageAck):
      guard let id = frame["message_id"]?.stringValue else { break }
      if !memory.acknowledge(id) { out.append(.deliver(.unknownAcknowledgement(messageId: id))) }
      return
    case .disconnect where capabilityFlags.contains(.disconnect):
      out.append(.deliver(.clientDisconnecting(reason: frame["reason"]?.stringValue ?? "")))
      finish(.clientDisconnect, close: true, &out)
      return
    case .prompt where capabilityFlags.contains(.idempotentPrompt):
      guard let key = frame["idempotency_key"]?.stringValue, key.utf8.count <= ServerMemory.maxKeyBytes else { break }
      // By exact scalars: a key canonically equivalent to a remembered one is another prompt.
      guard memory.keys.insert(ExactString(key)) else {
        emit(.frame("ack", "message", "Processing prompt..."), &out)
        out.append(.deliver(.duplicatePrompt(idempotencyKey: key)))
        return
      }
    default: break
    }
    if type != .subscribe { out.append(.deliver(.request(frame))) }
  }

  mutating func onConnect(_ frame: JSONObject, now: Int64, _ out: inout [ServerAction]) {
    func strings(_ key: String) -> [String]? { frame[key]?.arrayValue?.compactMap(\.stringValue) }
    let authResponse = frame["auth_response"]?.stringValue
    let announcement = ClientAnnouncement(
      protocolVersion: frame["protocol_version"]?.stringValue, protocolVersions: strings("protocol_versions"),
      capabilities: strings("capabilities"),
      // The auth this connect performs decides, not its `auth_version` member: a v1 connect that
      // claims 2 is not granted `authenticated_frames` (STANDARDS.md section 8).
      authVersion: authResponse != nil ? 2 : 1)
    let negotiated: NegotiationOutcome
    let negotiation: Result<NegotiationOutcome, NegotiationFailure>
    do {
      negotiation = try Negotiator.negotiate(server: configuration.offer, client: announcement)
    } catch {
      refuseAuth(&out)  // a list over the handshake cap (STANDARDS.md section 8): the generic refusal
      return
    }
    switch negotiation {
    case .failure(let failure):
      // The real backend's refusal frame, exactly (NegotiationFailure.errorMessage).
      out.append(
        .send(
          .frame(
            "error",
            [
              "message": .string(failure.message), "code": .string(NegotiationFailure.code),
              "required": .string(failure.required), "received": .string(failure.received),
            ])))
      finish(.unsupportedVersion, close: true, &out)
      return
    case .success(let o): negotiated = o
    }
    let sessionId = frame["session_id"]?.stringValue
    var v2: (challenge: String, nonce: String, response: String)?
    var authVersion = 1
    if let response = authResponse {
      let issued = challenge
      // Valid from its issue time (inclusive) for `authTimeoutMs` (exclusive); an answer at a time
      // before the issue time (a clock that went backwards, a host's mistake) is refused, not
      // trusted (STANDARDS.md section 8). The difference saturates, so no pair of times overflows.
      let age = now.subtractingSaturating(challengeIssuedAt)
      let fresh = !challengeUsed && age >= 0 && age < configuration.authTimeoutMs
      challengeUsed = true  // consumed by the first answer, right or wrong
      guard let challenge = issued, fresh, let nonce = frame["client_nonce"]?.stringValue,
        EngineFacts.clientNonceLengths.contains(nonce.utf8.count),
        nonce.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
      else { return refuseAuth(&out) }
      // The client's MAC binds the connect as received and the hello this connection sent
      // (STANDARDS.md section 8); a connect the model cannot read is refused like a wrong answer.
      let received: ConnectMessage
      let sent: HelloMessage
      do {
        received = try ConnectMessage(json: frame)
        sent = try HelloMessage(json: hello())
      } catch {
        return refuseAuth(&out)
      }
      guard received.authVersion == nil || received.authVersion == 2 else { return refuseAuth(&out) }
      let expected = AuthMAC.mac(
        apiKey: configuration.apiKey,
        input: AuthMAC.clientInput(challenge: challenge, clientNonce: nonce, connect: received, hello: sent))
      guard constantTimeEquals(Array(expected.utf8), Array(response.utf8)) else { return refuseAuth(&out) }
      authVersion = 2
      v2 = (challenge, nonce, response)
    } else {
      guard configuration.offer.authVersions.contains(1), let key = frame["api_key"]?.stringValue,
        constantTimeEquals(Array(key.utf8), Array(configuration.apiKey.utf8))
      else { return refuseAuth(&out) }
    }
    var accepted = negotiated
    var sealWith: AuthenticatedChannel?
    accepted.authVersion = authVersion
    // Its keys come from auth v2: never granted with the plain key (also the negotiator's rule).
    if authVersion != 2 { accepted.capabilities.removeAll { $0 == Capability.authenticatedFrames } }
    outcome = accepted
    family = VersionFamily(ProtocolVersion(accepted.version) ?? .legacy)
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
      let echoed = sessionId ?? (accepted.version == KnownVersion.v0_2_0.rawValue ? connectionId : nil)
      var connected = JSONObject.frame(
        "connected",
        [
          "message": "Session registered", "session_id": echoed.map(JSONValue.string) ?? .null,
          "negotiated_protocol_version": .string(accepted.version),
        ])
      // vcproto's members only for a client that negotiated something (STANDARDS.md section 8):
      // one that asked for nothing gets the real backend's `connected` exactly.
      if accepted.confirmsExtensions {
        connected["capabilities"] = .array(accepted.capabilities.map { .string($0) })
        connected["auth_version"] = JSONValue(integerLiteral: authVersion)
      }
      if let v2 {
        // server_proof covers every member of `connected` as sent (a null session_id is absent).
        let typed = ConnectedMessage(
          message: "Session registered", sessionId: echoed,
          negotiatedProtocolVersion: accepted.version, capabilities: accepted.capabilities, authVersion: authVersion)
        var proven = typed
        proven.serverProof = AuthMAC.mac(
          apiKey: configuration.apiKey,
          input: AuthMAC.serverInput(
            challenge: v2.challenge, clientNonce: v2.nonce, authResponse: v2.response, connected: typed))
        connected["server_proof"] = proven.serverProof.map(JSONValue.string)
        if accepted.allows(Capability.authenticatedFrames) {
          // Every frame after this `connected` is sealed and every frame received opened.
          sealWith = AuthenticatedChannel(
            keys: FrameKeys.derive(
              apiKey: configuration.apiKey, challenge: v2.challenge, clientNonce: v2.nonce, authResponse: v2.response,
              connected: proven),
            role: .server)
        }
      }
      out.append(.send(connected))
    }
    channel = sealWith
    let limit = EngineFacts.recentSessionsLimit(frame["recent_sessions_limit"]?.intValue)
    out.append(.deliver(.authenticated(accepted, sessionId: sessionId, recentSessionsLimit: limit)))
    if accepted.allows(Capability.heartbeat) {
      arm(.heartbeat, at: now.addingSaturating(configuration.heartbeatIntervalMs), &out)
    }
    if accepted.allows(Capability.messageAck) {
      for entry in memory.unacknowledged {
        emit(.frame("replay", ["message_id": .string(entry.messageId), "message": .object(entry.message)]), &out)
      }
    }
  }

  mutating func refuseAuth(_ out: inout [ServerAction]) {
    emit(.frame("auth_error", ["message": "Authentication failed"]), &out)
    finish(.authFailed, close: true, &out)
  }

  mutating func onSubscribe(_ frame: JSONObject, _ out: inout [ServerAction]) {
    func refuse(_ message: String, code: String? = nil) {
      var error = JSONObject.frame("error")
      if let code { error["code"] = .string(code) }
      error["message"] = .string(message)
      emit(error, &out)
    }
    guard let id = frame["session_id"]?.stringValue else {
      return refuse("session_id required in subscribe message")
    }
    guard id.utf8.count <= configuration.maxSessionIdBytes else {
      return refuse("session_id is longer than \(configuration.maxSessionIdBytes) bytes")
    }
    func count(_ key: String) -> Int?? {  // nil: bad; .some(nil): absent or null
      guard let value = frame[key], !value.isNull else { return .some(nil) }
      guard let n = value.intValue, n >= 0 else { return nil }
      return .some(n)
    }
    let cursor: SubscriptionCursor?
    switch family {
    case .messageId:
      cursor = frame["last_message_id"]?.stringValue.map(SubscriptionCursor.lastMessageId)
    case .seq:
      if let v = frame["last_message_id"], !v.isNull {
        return refuse(
          "last_message_id is not supported in protocol v0.4.0; use last_seq instead",
          code: "unsupported_subscribe_field")
      }
      guard let last = count("last_seq") else {
        return refuse("last_seq must be a non-negative integer", code: "invalid_subscribe")
      }
      cursor = .lastSeq(last ?? 0)
    case .offset:
      guard let from = count("from_offset") else {
        return refuse("from_offset must be a non-negative integer", code: "invalid_subscribe")
      }
      var seen: String?
      if let v = frame["file_signature_seen"], !v.isNull {
        guard let s = v.stringValue else {
          return refuse("file_signature_seen must be a string when provided", code: "invalid_subscribe")
        }
        seen = s
      }
      cursor = .offset(from ?? 0, signature: seen)
    }
    // The count first: under the bound, no lookup is needed before the insert.
    let key = SessionKey(id)
    guard subscribedSessions.count < configuration.maxSubscriptions || subscribedSessions.contains(key) else {
      return refuse("Too many subscriptions on this connection")
    }
    subscribedSessions.append(key, ())
    out.append(.deliver(.subscribe(sessionId: id, cursor: cursor)))
  }
}
