import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `Vectors/sessions/` as ``SwiftPeer`` answers them: conversation vectors (Vectors/README.md). Each
/// builds a client or server engine from its `config`, feeds the inputs of its `steps` in order and
/// answers what the engine did after each (``ConformanceKind/sessions`` compares that with the
/// step's `expect` or `error`).
///
/// Client vectors give each received WebSocket message as its text exactly as received (`received`,
/// `text` or `binary_base64`), each message the engine sends as its text (`send`, `text`, compared
/// as a JSON value), and each delivered message as the typed message's canonical JSON (what
/// ``MessageEncoder`` writes).
///
/// Times in vectors are milliseconds after `config.clock_start_ms`. An `advance` input moves the
/// clock forward and fires, in deadline order (ties in arming order), every timer the engine armed
/// and did not cancel whose deadline has come, each at its own deadline.
enum SessionVectors {
  /// The result for `{role, config, steps}` (`steps`: the inputs): `{"steps": [...]}`, one entry
  /// per input, `{"actions": [...]}` (what the engine did) or `{"error": {"state", "event"}}` (an
  /// illegal event); or why there is none.
  static func answer(_ input: JSONValue) -> Result<JSONValue, SwiftPeer.Refusal> {
    guard let role = input["role"]?.stringValue, let steps = input["steps"]?.arrayValue else {
      return .failure(.init("the input needs \"role\" and \"steps\""))
    }
    let config = input["config"]?.objectValue ?? JSONObject()
    var runner: Runner
    switch role {
    case "client": runner = Runner(client: ClientEngine(clientConfiguration(config)))
    case "server": runner = Runner(server: ServerEngine(serverConfiguration(config)))
    default: return .failure(.init("unknown role \"\(role)\""))
    }
    runner.start = config["clock_start_ms"]?.int64Value ?? 0
    runner.now = runner.start
    var answers: [JSONValue] = []
    for (index, step) in steps.enumerated() {
      guard let input = step.objectValue else { return .failure(.init("step \(index): the input is not an object")) }
      do {
        answers.append(["actions": .array(try runner.feed(input))])
      } catch let error as IllegalEvent {
        answers.append(["error": ["state": .string(error.state), "event": .string(error.event)]])
      } catch {
        return .failure(.init("step \(index): \(error)"))
      }
    }
    return .success(["steps": .array(answers)])
  }

  /// `actions` with the `text` of each `send` action replaced by the JSON value it holds, so that a
  /// sent message is compared as a JSON value, whatever the order of its members.
  static func sentTextsParsed(_ actions: JSONValue) -> JSONValue {
    guard case .array(let list) = actions else { return actions }
    return .array(
      list.map { action in
        guard case .object(var object) = action, object["action"]?.stringValue == "send",
          let text = object["text"]?.stringValue, let value = try? JSONReader().parse(Array(text.utf8))
        else { return action }
        object["text"] = value
        return .object(object)
      })
  }

  static func strings(_ value: JSONValue?) -> [String]? { value?.arrayValue?.compactMap(\.stringValue) }

  static func clientConfiguration(_ c: JSONObject) -> ClientConfiguration {
    var timing = ClientTiming()
    if let j = c["jitter"]?.doubleValue { timing.jitter = j }
    timing.maxReconnectAttempts = c["max_reconnect_attempts"]?.intValue
    if let ms = c["ping_interval_ms"]?.int64Value { timing.pingIntervalMs = ms }
    if let ms = c["pong_timeout_ms"]?.int64Value { timing.pongTimeoutMs = ms }
    if let ms = c["heartbeat_timeout_ms"]?.int64Value { timing.heartbeatTimeoutMs = ms }
    if let ms = c["connect_timeout_ms"]?.int64Value { timing.connectTimeoutMs = ms }
    if let ms = c["request_timeout_ms"]?.int64Value { timing.requestTimeoutMs = ms }
    if let ms = c["slow_request_timeout_ms"]?.int64Value { timing.slowRequestTimeoutMs = ms }
    return ClientConfiguration(
      apiKey: c["api_key"]?.stringValue ?? "", minimumVersion: version(c["min_version"]) ?? .v0_2_0,
      maximumVersion: version(c["max_version"]) ?? .v0_5_0,
      capabilities: strings(c["capabilities"]) ?? [],
      allowAuthV1: c["allow_auth_v1"]?.boolValue ?? AuthClient.allowsAuthV1ByDefault,
      sessionId: c["session_id"]?.stringValue, recentSessionsLimit: c["recent_sessions_limit"]?.intValue,
      maxMessageSizeKB: c["max_message_size_kb"]?.intValue, timing: timing,
      randomSeed: UInt64(truncatingIfNeeded: c["random_seed"]?.int64Value ?? 0),
      maxPendingRequests: max(0, c["max_pending_requests"]?.intValue ?? 256),
      outboxCapacity: c["outbox_capacity"]?.intValue ?? 32, envelopes: EnvelopeCodec())
  }

  static func serverConfiguration(_ c: JSONObject) -> ServerConfiguration {
    var configuration = ServerConfiguration(
      offer: ServerOffer(
        protocolVersions: strings(c["protocol_versions"]) ?? ["0.2.0"],
        authVersions: c["auth_versions"]?.arrayValue?.compactMap(\.intValue) ?? [1],
        capabilities: strings(c["capabilities"]) ?? [], floor: c["floor"]?.stringValue),
      apiKey: c["api_key"]?.stringValue ?? "", envelopes: EnvelopeCodec())
    // Absent members keep ServerConfiguration's defaults; the engine holds each value to its range.
    if let ms = c["heartbeat_interval_ms"]?.int64Value { configuration.heartbeatIntervalMs = ms }
    if let ms = c["auth_timeout_ms"]?.int64Value { configuration.authTimeoutMs = ms }
    if let n = c["max_subscriptions"]?.intValue { configuration.maxSubscriptions = n }
    if let n = c["max_session_id_bytes"]?.intValue { configuration.maxSessionIdBytes = n }
    if let n = c["replay_buffer_bytes"]?.intValue { configuration.replayBufferBytes = n }
    return configuration
  }

  static func version(_ value: JSONValue?) -> ProtocolVersion? { value?.stringValue.flatMap(ProtocolVersion.init) }

  /// Drives one engine and keeps the host's timers.
  struct Runner {
    var client: ClientEngine?
    var server: ServerEngine?
    var start: Int64 = 0
    var now: Int64 = 0
    /// Armed timers: deadline and arming order.
    var timers: [ConnectionTimer: (at: Int64, order: Int)] = [:]
    var order = 0

    init(client: ClientEngine) { self.client = client }
    init(server: ServerEngine) { self.server = server }

    mutating func feed(_ input: JSONObject) throws -> [JSONValue] {
      let kind = input["kind"]?.stringValue ?? ""
      if kind == "advance" {
        let target = now + (input["ms"]?.int64Value ?? 0)
        var out: [JSONValue] = []
        while let next = timers.filter({ $0.value.at <= target }).min(by: {
          ($0.value.at, $0.value.order) < ($1.value.at, $1.value.order)
        }) {
          timers[next.key] = nil
          now = max(now, next.value.at)
          out += try event(timer: next.key)
        }
        now = target
        return out
      }
      if client != nil { return try clientInput(kind, input) }
      return try serverInput(kind, input)
    }

    mutating func event(timer: ConnectionTimer) throws -> [JSONValue] {
      if client != nil { return record(try client!.handle(.timerFired(timer), now: now)) }
      return record(try server!.handle(.timerFired(timer), now: now))
    }

    mutating func clientInput(_ kind: String, _ input: JSONObject) throws -> [JSONValue] {
      let event: ClientEvent
      switch kind {
      case "start": event = .start
      case "resume": event = .resume
      case "stop": event = .stop(reason: input["reason"]?.stringValue ?? "user")
      case "transport_opened":
        event = .transportOpened(
          SessionVectors.transport(input["transport"]), clientNonce: input["client_nonce"]?.stringValue ?? "")
      case "transport_closed":
        event = .transportClosed(
          SessionVectors.transport(input["transport"]), detail: input["detail"]?.stringValue ?? "")
      case "received":
        if let text = input["text"]?.stringValue {
          event = .received(.text(text))
        } else {
          event = .received(.binary(Base64.decode(input["binary_base64"]?.stringValue ?? "") ?? []))
        }
      case "subscribe":
        event = .subscribe(
          sessionId: input["session_id"]?.stringValue ?? "", cursor: SessionVectors.cursor(input["cursor"]))
      case "unsubscribe": event = .unsubscribe(sessionId: input["session_id"]?.stringValue ?? "")
      case "send":
        event = .send(clientMessage(input["text"]?.stringValue ?? ""), requestId: input["request_id"]?.stringValue)
      default: throw UnknownInput(kind: kind)
      }
      return record(try client!.handle(event, now: now))
    }

    /// What the application sends: `text` decoded as a client message of the negotiated version (else
    /// of 0.5.0), kept whole when it does not decode.
    func clientMessage(_ text: String) -> ClientMessage {
      let version = client?.negotiatedVersion ?? .v0_5_0
      let decoder = MessageDecoder(options: ValidationOptions(direction: .clientToServer, version: version))
      if let message = try? decoder.decodeClientMessage(Array(text.utf8)) { return message }
      return .unknown((try? JSONReader().parse(Array(text.utf8)))?.objectValue ?? JSONObject())
    }

    mutating func serverInput(_ kind: String, _ input: JSONObject) throws -> [JSONValue] {
      let event: ServerEvent
      switch kind {
      case "transport_opened":
        event = .transportOpened(
          challenge: input["challenge"]?.stringValue, connectionId: input["connection_id"]?.stringValue)
      case "received":
        if let text = input["text"]?.stringValue {
          event = .received(.text(text))
        } else {
          event = .received(.binary(Base64.decode(input["binary_base64"]?.stringValue ?? "") ?? []))
        }
      case "transport_closed": event = .transportClosed
      case "send": event = .send(SessionVectors.serverMessage(input["text"]?.stringValue ?? "", for: server!))
      case "drain":
        event = .drain(
          retryAfterMs: input["retry_after_ms"]?.intValue ?? 0, message: input["message"]?.stringValue ?? "")
      case "close": event = .close
      default: throw UnknownInput(kind: kind)
      }
      return record(try server!.handle(event, now: now))
    }

    mutating func record(_ actions: [ClientAction]) -> [JSONValue] {
      actions.map { action in
        switch action {
        case .openTransport(let id): return ["action": "open_transport", "transport": SessionVectors.int(id)]
        case .send(let message): return SessionVectors.sent(message)
        case .closeTransport(let id, let reason):
          return ["action": "close", "transport": SessionVectors.int(id), "reason": .string(reason.code)]
        case .armTimer(let timer, let at): return arm(timer, at)
        case .cancelTimer(let timer): return cancel(timer)
        case .deliver(.reconnectScheduled(let attempt, let at)):
          return SessionVectors.event("reconnect_scheduled", [("attempt", int(attempt)), ("at", int(at - start))])
        case .deliver(let event): return SessionVectors.encode(event)
        }
      }
    }

    mutating func record(_ actions: [ServerAction]) -> [JSONValue] {
      actions.map { action in
        switch action {
        case .send(.text(let bytes)):
          return ["action": "send", "text": .string(String(decoding: bytes, as: UTF8.self))]
        case .send(.binary(let bytes)): return ["action": "send", "binary_base64": .string(Base64.encode(bytes))]
        case .closeTransport(let reason): return ["action": "close", "reason": .string(reason.code)]
        case .armTimer(let timer, let at): return arm(timer, at)
        case .cancelTimer(let timer): return cancel(timer)
        case .deliver(let event): return SessionVectors.encode(event)
        }
      }
    }

    mutating func arm(_ timer: ConnectionTimer, _ at: Int64) -> JSONValue {
      order += 1
      timers[timer] = (at, order)
      return ["action": "arm_timer", "timer": .string(timer.description), "at": int(at - start)]
    }

    mutating func cancel(_ timer: ConnectionTimer) -> JSONValue {
      timers[timer] = nil
      return ["action": "cancel_timer", "timer": .string(timer.description)]
    }
  }

  struct UnknownInput: Error, CustomStringConvertible {
    var kind: String
    var description: String { "unknown input kind \"\(kind)\"" }
  }

  static func int(_ n: Int64) -> JSONValue { JSONValue(integerLiteral: Int(n)) }
  static func int(_ n: Int) -> JSONValue { JSONValue(integerLiteral: n) }
  static func int(_ id: TransportID) -> JSONValue { int(Int64(clamping: id.rawValue)) }

  /// A client input's `transport`: the number of the transport it reports on (0, which no engine
  /// allocates, when absent).
  static func transport(_ value: JSONValue?) -> TransportID {
    TransportID(UInt64(clamping: value?.int64Value ?? 0))
  }

  static func cursor(_ value: JSONValue?) -> SubscriptionCursor? {
    guard let c = value?.objectValue else { return nil }
    if let id = c["last_message_id"]?.stringValue { return .lastMessageId(id) }
    if let n = c["last_seq"]?.intValue { return .lastSeq(n) }
    if let n = c["offset"]?.intValue { return .offset(n, signature: c["signature"]?.stringValue) }
    return nil
  }

  static func encode(_ cursor: SubscriptionCursor?) -> JSONValue {
    switch cursor {
    case nil: return .null
    case .lastMessageId(let id)?: return ["last_message_id": .string(id)]
    case .lastSeq(let n)?: return ["last_seq": int(n)]
    case .offset(let n, let signature)?:
      return ["offset": int(n), "signature": signature.map(JSONValue.string) ?? .null]
    }
  }

  static func event(_ name: String, _ members: [(String, JSONValue)]) -> JSONValue {
    .object(
      JSONObject(
        [.init(key: "action", value: "event"), .init(key: "event", value: .string(name))]
          + members.map { .init(key: $0.0, value: $0.1) }))
  }

  static func encode(_ e: ClientApplicationEvent) -> JSONValue {
    switch e {
    case .connected(let version, let caps, let auth):
      return event(
        "connected",
        [
          ("version", .string(version.rawValue)), ("capabilities", .array(caps.map { .string($0) })),
          ("auth_version", int(auth)),
        ])
    case .disconnected(let reason): return event("disconnected", [("reason", .string(reason.code))])
    case .reconnectScheduled(let attempt, let at):
      return event("reconnect_scheduled", [("attempt", int(attempt)), ("at", int(at))])
    case .gaveUp(let attempts): return event("gave_up", [("attempts", int(attempts))])
    case .stopped(let reason): return event("stopped", [("reason", .string(reason))])
    case .reauthRequired(let reason): return event("reauth_required", [("reason", .string(reason.code))])
    case .upgradeRequired(let required):
      return event("upgrade_required", [("required", required.map(JSONValue.string) ?? .null)])
    case .sessionUpdate(let u):
      let purge: JSONValue
      switch u.purge {
      case nil: purge = .null
      case .all?: purge = "all"
      case .from(let n)?: purge = ["from": int(n)]
      }
      var gap = JSONValue.null
      if let g = u.gap {
        var writer = JSONWriter()
        g.encode(to: &writer)
        gap = json(writer.bytes)
      }
      return event(
        "session_update",
        [
          ("session_id", .string(u.sessionId)), ("purge", purge),
          ("insert", .array(u.insert.encodedMessages.map(json))),
          ("replace", .array(u.replace.encodedMessages.map(json))),
          ("cursor", encode(u.cursor)), ("is_complete", .bool(u.isComplete)), ("gap", gap), ("dropped", int(u.dropped)),
        ])
    case .answered(let id, let message):
      return event("answered", [("request_id", .string(id)), ("message", json(MessageEncoder().encode(message)))])
    case .requestFailed(let id, let reason):
      return event("request_failed", [("request_id", .string(id)), ("reason", .string(reason.rawValue))])
    case .received(let message): return event("received", [("message", json(MessageEncoder().encode(message)))])
    case .violation(let v): return encode(v)
    }
  }

  /// A message the client engine sends: its text (a vector compares it as a JSON value).
  static func sent(_ message: WebSocketMessage) -> JSONValue {
    switch message {
    case .text(let bytes): return ["action": "send", "text": .string(String(decoding: bytes, as: UTF8.self))]
    case .binary(let bytes): return ["action": "send", "binary_base64": .string(Base64.encode(bytes))]
    }
  }

  /// A frame's bytes as a JSON value (`null` when they are not JSON).
  static func json(_ bytes: [UInt8]) -> JSONValue { (try? JSONReader().parse(bytes)) ?? .null }

  /// The typed message a server application sends, from a vector's `text`: decoded with the
  /// connection's version (the offer's advertised one before negotiation), else kept whole as
  /// `.unknown`.
  static func serverMessage(_ text: String, for engine: ServerEngine) -> ServerMessage {
    let version = engine.outcome?.version ?? engine.configuration.offer.versions.advertised
    let decoder = MessageDecoder(options: ValidationOptions(direction: .serverToClient, version: version))
    if let message = try? decoder.decodeServerMessage(Array(text.utf8)) { return message }
    return .unknown((try? JSONReader().parse(Array(text.utf8)))?.objectValue ?? JSONObject())
  }

  /// A violation event: the type, the error findings (code and pointer, sorted by pointer then code,
  /// so that the order an implementation finds them in does not matter) and the disposition
  /// (`"dropped"` or `{"closed": code}`).
  static func encode(_ violation: ProtocolViolation) -> JSONValue {
    let disposition: JSONValue
    switch violation.disposition {
    case .dropped: disposition = "dropped"
    case .closed(let reason): disposition = ["closed": .string(reason.code)]
    }
    let errors = violation.findings.filter { $0.severity == .error }
    let findings = errors.sorted { ($0.pointer, $0.code.rawValue) < ($1.pointer, $1.code.rawValue) }.map {
      finding -> JSONValue in
      ["code": .string(finding.code.rawValue), "pointer": .string(finding.pointer)]
    }
    return event(
      "violation",
      [
        ("message_type", violation.messageType.map(JSONValue.string) ?? .null), ("findings", .array(findings)),
        ("disposition", disposition),
      ])
  }

  static func encode(_ e: ServerApplicationEvent) -> JSONValue {
    switch e {
    case .authenticated(let outcome, let sessionId, let limit):
      return event(
        "authenticated",
        [
          ("version", .string(outcome.version.rawValue)),
          ("capabilities", .array(outcome.capabilities.map { .string($0) })),
          ("auth_version", int(outcome.authVersion)), ("session_id", sessionId.map(JSONValue.string) ?? .null),
          ("recent_sessions_limit", int(limit)),
        ])
    case .subscribe(let id, let cursor):
      return event("subscribe", [("session_id", .string(id)), ("cursor", encode(cursor))])
    case .unsubscribe(let id): return event("unsubscribe", [("session_id", .string(id))])
    case .request(let message): return event("request", [("message", json(MessageEncoder().encode(message)))])
    case .violation(let violation): return encode(violation)
    case .duplicatePrompt(let key): return event("duplicate_prompt", [("idempotency_key", .string(key))])
    case .unknownAcknowledgement(let id): return event("unknown_ack", [("message_id", .string(id))])
    case .replayEvicted(let id): return event("replay_evicted", [("message_id", .string(id))])
    case .clientDisconnecting(let reason): return event("client_disconnecting", [("reason", .string(reason))])
    case .closed(let reason): return event("closed", [("reason", .string(reason.code))])
    }
  }
}
