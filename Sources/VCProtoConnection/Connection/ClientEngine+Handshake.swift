import VCProtoCore
import VCProtoJSON

extension ClientEngine {
  /// Every validated frame goes through here as its typed message; the state decides what it means.
  /// The message is consumed: once ready, it moves into the action that delivers it (no copy).
  mutating func receive(_ typed: consuming ServerMessage, now: Int64, _ out: inout ClientActions) {
    if case .error(let error) = typed, error.code == NegotiationFailure.code {
      refuseVersion(required: error.required.map(Finding.shownType), &out)
      return
    }
    switch state {
    case .awaitingHello:
      if case .hello(let hello) = typed { onHello(hello, now: now, &out) }  // anything else before hello: ignored
    case .awaitingConnected:
      onAwaitingConnected(typed, now: now, &out)
    default:
      onReady(typed, now: now, &out)
    }
  }

  @inline(never)
  mutating func refuseVersion(required: String?, _ out: inout ClientActions) {
    failPending(.connectionLost, &out)
    cancelConnectionTimers(&out)
    closeTransport(.unsupportedVersion, &out)
    resetConnection()
    state = .upgradeRequired
    out.append(.deliver(.upgradeRequired(required: required)))
  }

  @inline(never)
  mutating func refuseAuth(_ reason: CloseReason, _ out: inout ClientActions) {
    failPending(.connectionLost, &out)
    cancelConnectionTimers(&out)
    closeTransport(reason, &out)
    resetConnection()
    state = .reauthRequired
    out.append(.deliver(.reauthRequired(reason)))
  }

  /// The most entries a `hello` list (`protocol_versions`, `auth_versions`, `capabilities`) may have:
  /// the handshake-list cap the ``Negotiator`` applies to a `connect` (STANDARDS.md#negotiation).
  static let maxHelloListItems = ValidationOptions.defaultMaxHandshakeListItems

  @inline(never)
  mutating func onHello(_ hello: HelloMessage, now: Int64, _ out: inout ClientActions) {
    // A list over the cap is refused before any entry is read: close without `connect`, back off.
    let lists = [
      ("protocol_versions", hello.protocolVersions?.count), ("auth_versions", hello.authVersions?.count),
      ("capabilities", hello.capabilities?.count),
    ]
    for (member, count) in lists {
      if let count, count > Self.maxHelloListItems {
        connectionLost(
          .protocolViolation("hello: \(member) has more than \(Self.maxHelloListItems) entries"), now: now, close: true,
          &out)
        return
      }
    }
    let listed = hello.protocolVersions
    let offered = (listed ?? [hello.version]).compactMap { VersionNumber(announced: $0) }
    guard let serverMax = offered.max(), serverMax >= configuration.minimumVersion.number else {
      refuseVersion(required: nil, &out)
      return
    }
    handshakeVersion = ProtocolVersion(min(serverMax, configuration.maximumVersion.number))
    let authVersions = hello.authVersions ?? [hello.authVersion]
    var connect = JSONObject.frame("connect")
    let v2Challenge = authVersions.contains(2) ? hello.challenge : nil
    if v2Challenge == nil {
      guard configuration.allowAuthV1 else {
        refuseAuth(.downgradeRefused, &out)
        return
      }
      connect["api_key"] = .string(configuration.apiKey)
    }
    if let id = configuration.sessionId { connect["session_id"] = .string(id) }
    if let limit = configuration.recentSessionsLimit {
      connect["recent_sessions_limit"] = JSONValue(integerLiteral: limit)
    }
    connect["protocol_version"] = .string(configuration.maximumVersion.description)
    let negotiating = listed != nil
    if negotiating {
      let mine = ClientEngine.versionsBetween(configuration.minimumVersion, configuration.maximumVersion)
      connect["protocol_versions"] = .array(mine.map { .string($0.description) })
    }
    let wanted = configuration.capabilities
    if hello.capabilities != nil, !wanted.isEmpty {
      connect["capabilities"] = .array(wanted.map { .string($0) })
    }
    usedAuthVersion = 1
    if v2Challenge != nil, let nonce = clientNonce {
      // The library's auth client computes the answer over this connect and the hello as received
      // (STANDARDS.md#negotiation-and-auth); the engine keeps its own member order on the wire.
      let announcement = ClientAnnouncement(
        protocolVersion: connect["protocol_version"]?.stringValue,
        protocolVersions: connect["protocol_versions"]?.arrayValue?.compactMap(\.stringValue),
        capabilities: connect["capabilities"]?.arrayValue?.compactMap(\.stringValue))
      let started: ClientHandshake
      do {
        started = try AuthClient(apiKey: configuration.apiKey, allowAuthV1: configuration.allowAuthV1).begin(
          hello: hello, sessionId: configuration.sessionId, recentSessionsLimit: configuration.recentSessionsLimit,
          announcement: announcement, nonce: nonce)
      } catch {
        refuseAuth(.downgradeRefused, &out)
        return
      }
      // The engine saw a v2 offer: a handshake the library would run as v1 (a hello it reads
      // otherwise) is refused, never sent as a `connect` with neither key nor answer.
      guard started.authVersion == 2 else {
        refuseAuth(.downgradeRefused, &out)
        return
      }
      usedAuthVersion = started.authVersion
      handshake = started
      connect["auth_version"] = 2
      connect["client_nonce"] = .string(nonce)
      connect["auth_response"] = started.connect.authResponse.map(JSONValue.string) ?? .null
    }
    // A server from before `connected` existed (0.2.0/0.3.0, no negotiation members) confirms nothing:
    // its first frame that is not `auth_error` means success (STANDARDS.md#connection-flow).
    if !negotiating, usedAuthVersion == 1, serverMax < VersionFamily.seqFrom {
      // The newest version vcproto knows at or below what both speak (a `0.2.5` server speaks 0.2.0).
      let spoken = min(serverMax, configuration.maximumVersion.number)
      implicitAuthVersion = ProtocolVersion.allCases.last { $0.number <= spoken }
    }
    sentConnect = connect
    state = .awaitingConnected
    emit(connect, &out)
  }

  @inline(never)
  mutating func onAwaitingConnected(_ typed: ServerMessage, now: Int64, _ out: inout ClientActions) {
    switch typed {
    case .authError:
      authFailures += 1
      if authFailures >= configuration.timing.authFailuresBeforeReauth {
        refuseAuth(.authFailed, &out)
      } else {
        connectionLost(.authFailed, now: now, close: true, &out)
      }
    case .connected(let connected):
      onConnected(connected, now: now, &out)
    case .pong, .hello, .error:
      return  // not a verdict (an `error` leaves the socket open and unauthenticated)
    default:
      // Not authenticated yet: act on nothing, unless the application opted into v1 (STANDARDS.md#client-rules)
      // and the server is one that sends no `connected`.
      guard let version = implicitAuthVersion, configuration.allowAuthV1 else { return }
      becomeReady(version: version, capabilities: [], now: now, &out)
      onReady(typed, now: now, &out)
    }
  }

  mutating func onConnected(_ connected: ConnectedMessage, now: Int64, _ out: inout ClientActions) {
    let versionText = connected.negotiatedProtocolVersion
    let accepted = connected.capabilities
    guard usedAuthVersion == 2 || configuration.allowAuthV1 else {
      refuseAuth(.downgradeRefused, &out)  // a `connected` nothing proves, to a client that refuses v1
      return
    }
    var sealWith: AuthenticatedChannel?
    if usedAuthVersion == 2 {
      // The library's handshake verifies server_proof over every member of `connected`.
      // Whatever is wrong (no handshake, a malformed `connected`, a missing or wrong proof), the
      // verdict is the same: the server proved nothing.
      guard let handshake else {
        refuseAuth(.serverProofInvalid, &out)
        return
      }
      do {
        // With `authenticated_frames` granted, the session holds the channel of this handshake's keys.
        sealWith = try handshake.complete(with: .connected(connected)).channel
      } catch {
        refuseAuth(.serverProofInvalid, &out)
        return
      }
    }
    let version: ProtocolVersion
    if let versionText {
      // A version vcproto does not know (`0.4.1`) cannot be checked: refused as outside the range.
      guard let parsed = ProtocolVersion(rawValue: versionText), parsed >= configuration.minimumVersion,
        parsed <= configuration.maximumVersion
      else {
        connectionLost(
          .protocolViolation(
            "negotiated_protocol_version \"\(Redaction.truncated(versionText))\" is outside the client's range"),
          now: now,
          close: true, &out)
        return
      }
      version = parsed
    } else {
      version = implicitAuthVersion ?? min(configuration.maximumVersion, .v0_4_0)
    }
    let caps = accepted ?? []
    if let extra = caps.first(where: { !configuration.capabilities.contains($0) }) {
      connectionLost(
        .protocolViolation("capability \"\(Redaction.truncated(extra))\" was not asked for"), now: now, close: true,
        &out)
      return
    }
    if sealWith == nil, caps.contains(Capability.authenticatedFrames) {
      // Granted without a verified auth v2 handshake, there are no keys: nothing could be sealed.
      connectionLost(
        .protocolViolation("authenticated_frames granted without auth v2"), now: now, close: true, &out)
      return
    }
    channel = sealWith
    becomeReady(version: version, capabilities: caps, now: now, &out)
  }

  mutating func becomeReady(
    version: ProtocolVersion, capabilities caps: [String], now: Int64, _ out: inout ClientActions
  ) {
    let t = configuration.timing
    state = .ready
    negotiatedVersion = version
    negotiatedDecoder = Self.decoder(for: version)
    family = VersionFamily(version)
    if let previous = deliveredFamily, previous != family {
      for index in subscriptions.indices { subscriptions[index].delivered.removeAll() }
    }
    deliveredFamily = family
    capabilities = Set(caps)
    attempts = 0
    authFailures = 0
    implicitAuthVersion = nil
    cancel(.handshakeDeadline, &out)
    out.append(
      .deliver(.connected(version: version, capabilities: caps.sorted(), authVersion: usedAuthVersion)))
    if let kb = configuration.maxMessageSizeKB {
      // Sent through `send` so that its `ack` is matched to it, not to a `prompt` sent right after.
      send(.frame("set_max_message_size", ["size_kb": JSONValue(integerLiteral: kb)]), requestId: nil, now: now, &out)
    }
    // A session created by a prompt whose `session_ready` may have gone to the old connection:
    // subscribe to it, so its messages arrive whether or not `session_ready` ever does.
    for id in pendingNewSessions {
      let key = SessionKey(id)
      if !subscriptions.contains(key) && subscriptions.count < configuration.maxSubscriptions {
        addSubscription(key, cursor: nil)
      }
    }
    pendingNewSessions = []
    for id in subscriptionIdsInOrder() { sendSubscribe(id, &out) }
    // What the application asked while the client was not ready, in order (the outbox).
    flushOutbox(now: now, &out)
    arm(.ping, at: now.addingSaturating(t.pingIntervalMs), &out)
    if capabilityFlags.contains(.heartbeat) {
      arm(.heartbeatDeadline, at: now.addingSaturating(t.heartbeatTimeoutMs), &out)
    }
  }
}

extension ClientEngine {
  /// The protocol versions vcproto defines from `low` to `high`, ascending (both ends included when known).
  static func versionsBetween(_ low: ProtocolVersion, _ high: ProtocolVersion) -> [ProtocolVersion] {
    let inside = ProtocolVersion.allCases.filter { $0 >= low && $0 <= high }
    return inside.isEmpty ? [high] : inside
  }
}
