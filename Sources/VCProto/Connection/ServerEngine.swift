/// The server side of one voice-code connection as a pure state machine: the host feeds it
/// ``ServerEvent``s with the current time and performs the ``ServerAction``s it returns.
///
/// ```swift
/// var engine = ServerEngine(ServerConfiguration(offer: offer, apiKey: key), memory: memories[client] ?? ServerMemory())
/// var actions = try engine.handle(.transportOpened(challenge: freshChallenge()), now: clock.now)  // hello
/// actions = try engine.handle(.frameReceived(connect), now: clock.now)  // connected, .authenticated
/// actions = try engine.handle(.send(sessionList), now: clock.now)
/// ```
///
/// It answers `ping`, runs negotiation and auth (v1 key or v2 challenge, constant-time), refuses
/// everything but `ping`/`connect` before authentication (`auth_error` + close), validates
/// `subscribe` per protocol version, sends heartbeats, buffers frames for replay and answers repeated
/// idempotency keys from a bounded window. It refuses (``IllegalEvent``) an application frame to an
/// unauthenticated client, session data for a session the client did not subscribe to (0.4.0 and
/// later), and extension frames the client did not negotiate. It grants `authenticated_frames` only
/// to an auth v2 `connect` (the auth performed, whatever `auth_version` says), and then seals every
/// frame it sends after `connected` and opens every frame it receives first; a plain, altered,
/// replayed or reordered one closes the connection (``CloseReason/authenticatedFrame(_:)``) and
/// reaches no application.
public struct ServerEngine: Sendable {
  /// The configuration, held to the ranges ``ServerConfiguration`` documents.
  public let configuration: ServerConfiguration
  /// The current state.
  public internal(set) var state: ServerState = .idle
  /// The negotiated outcome once authenticated.
  public internal(set) var outcome: NegotiationOutcome? {
    didSet { capabilityFlags = CapabilityFlags(outcome?.capabilities ?? []) }
  }
  /// The negotiated capabilities as bits, for the per-frame checks.
  var capabilityFlags = CapabilityFlags()
  /// What survives this connection for the same client (replay buffer, idempotency keys).
  public internal(set) var memory: ServerMemory
  /// The sessions this connection subscribed to (a set made on each read from the table the engine
  /// keeps them in). The engine keeps ids by their exact bytes, `String`'s `Set` by canonical
  /// equivalence: two subscribed ids that are canonically equivalent are one element here and two in
  /// ``subscribedCount``.
  public var subscribed: Set<String> {
    Set(subscribedSessions.indices.lazy.map { subscribedSessions.id(at: $0) })
  }
  /// How many sessions this connection subscribed to (without making ``subscribed``).
  public var subscribedCount: Int { subscribedSessions.count }
  /// The sessions this connection subscribed to, by ``SessionKey`` (no SipHash of the id's bytes per
  /// `subscribe` or per frame of session data sent).
  var subscribedSessions = SessionTable<Void>()

  var challenge: String?
  var connectionId: String?
  var challengeIssuedAt: Int64 = 0
  var challengeUsed = false
  var armed: [ConnectionTimer: Int64] = [:]
  var family: VersionFamily = .messageId
  /// With `authenticated_frames` granted: seals every frame sent after `connected` and opens every
  /// frame received (STANDARDS.md section 8). `nil` otherwise.
  var channel: AuthenticatedChannel?
  /// The channel used its last sequence number while sending: the connection closes at the end of
  /// the event.
  var sealingExhausted = false

  /// Creates an engine for a new socket, with what is remembered of the client (if anything).
  public init(_ configuration: ServerConfiguration, memory: ServerMemory = ServerMemory()) {
    self.configuration = configuration.clamped
    self.memory = memory
  }

  /// Takes one event at time `now` (milliseconds since 1970, the host's clock) and returns what to
  /// do, in order. An event the state does not accept throws ``IllegalEvent`` and changes nothing. A
  /// closed engine returns no action. (``handle(_:now:into:)`` does the same into a reused buffer.)
  public mutating func handle(_ event: ServerEvent, now: Int64) throws(IllegalEvent) -> [ServerAction] {
    var out: [ServerAction] = []
    try handle(event, now: now, into: &out)
    return out
  }

  /// Takes one event at time `now` and appends what to do, in order, to `actions` (which the caller
  /// owns and may reuse with `removeAll(keepingCapacity: true)`, so no event allocates an array). An
  /// event the state does not accept throws ``IllegalEvent``, changes nothing and appends nothing.
  public mutating func handle(
    _ event: ServerEvent, now: Int64, into actions: inout [ServerAction]
  ) throws(IllegalEvent) {
    let targets = ServerTransitions.mask(state, event.kind)
    guard targets != 0 else {
      throw IllegalEvent(state: state.rawValue, event: event.name, reason: illegalReason(event))
    }
    if state == .closed { return }
    switch event {
    case .transportOpened(let challenge, let connectionId):
      self.connectionId = connectionId
      self.challenge = configuration.offer.authVersions.contains(2) ? challenge : nil
      challengeIssuedAt = now
      state = .awaitingConnect
      actions.append(.send(hello()))
      arm(.authDeadline, at: now.addingSaturating(configuration.authTimeoutMs), &actions)
    case .frameReceived(let frame): receive(frame, now: now, &actions)
    case .malformedFrame(let detail):
      if channel != nil {
        // Not JSON where an authenticated frame was due (STANDARDS.md section 8): close.
        finish(.authenticatedFrame(.malformed(reason: "not a JSON text")), close: true, &actions)
      } else {
        answerMalformed(detail, &actions)
      }
    case .transportClosed: finish(.transportClosed, close: false, &actions)
    case .timerFired(let timer): fire(timer, now: now, &actions)
    case .send(let frame): try send(frame, now: now, &actions)
    case .drain(let retryAfter, let message):
      if state == .authenticated, outcome?.allows(Capability.draining) == true {
        emit(
          .frame(
            "draining", ["message": .string(message), "retry_after_ms": JSONValue(integerLiteral: max(0, retryAfter))]),
          &actions)
      }
      finish(.draining, close: true, &actions)
    case .close: finish(.serverClose, close: true, &actions)
    }
    if sealingExhausted {
      sealingExhausted = false
      if state != .closed { finish(.authenticatedFrame(.sequenceExhausted), close: true, &actions) }
    }
    assert(targets & 1 << state.ordinal != 0, "\(event.name) led to \(state), not in the table")
  }

  func illegalReason(_ event: ServerEvent) -> String {
    switch (state, event) {
    case (.awaitingConnect, .send): return "the client has not authenticated: only the engine's own frames may be sent"
    case (.closed, .send): return "the connection is closed"
    default: return "not in the transition table"
    }
  }

  /// The `hello` for this offer: the real server's four members, then vcproto's negotiation members
  /// only when the offer has something to negotiate (``ServerOffer/offersExtensions``, the rule of
  /// ``ServerOffer/hello(challenge:)``), so that a plain server's `hello` is the real backend's
  /// exactly (STANDARDS.md section 8).
  func hello() -> JSONObject {
    let offer = configuration.offer
    var hello = JSONObject.frame(
      "hello",
      [
        "message": "Welcome to voice-code backend",
        "version": .string(offer.versions.advertised.description),
        "auth_version": JSONValue(integerLiteral: offer.authVersions.contains(1) ? 1 : (offer.authVersions.max() ?? 1)),
        "instructions": "Send connect message with api_key",
      ])
    guard offer.offersExtensions else { return hello }
    hello["protocol_versions"] = .array(offer.versions.reachable.map { .string($0.description) })
    hello["auth_versions"] = .array(offer.authVersions.map { JSONValue(integerLiteral: $0) })
    hello["capabilities"] = .array(offer.capabilities.map { .string($0) })
    if let challenge { hello["challenge"] = .string(challenge) }
    return hello
  }

  mutating func arm(_ timer: ConnectionTimer, at deadline: Int64, _ out: inout [ServerAction]) {
    armed[timer] = deadline
    out.append(.armTimer(timer, at: deadline))
  }

  mutating func finish(_ reason: CloseReason, close: Bool, _ out: inout [ServerAction]) {
    for timer in armed.keys.sorted(by: { $0.description < $1.description }) { out.append(.cancelTimer(timer)) }
    armed = [:]
    if close { out.append(.closeTransport(reason)) }
    state = .closed
    out.append(.deliver(.closed(reason)))
  }

  mutating func fire(_ timer: ConnectionTimer, now: Int64, _ out: inout [ServerAction]) {
    guard let deadline = armed[timer], deadline <= now else { return }
    armed[timer] = nil
    switch timer {
    case .authDeadline:
      if state == .awaitingConnect { finish(.authTimeout, close: true, &out) }
    case .heartbeat:
      guard state == .authenticated else { return }
      emit(.frame("heartbeat", ["timestamp": .string(RFC3339.string(millisecondsSince1970: now))]), &out)
      arm(.heartbeat, at: now.addingSaturating(configuration.heartbeatIntervalMs), &out)
    default: return
    }
  }

  mutating func send(_ frame: JSONObject, now: Int64, _ out: inout [ServerAction]) throws(IllegalEvent) {
    let type = frame["type"]?.stringValue ?? ""
    if let missing = missingCapability(type, in: frame) {
      throw IllegalEvent(
        state: state.rawValue, event: "send",
        reason: "\(missing.what) needs the \(missing.gate.name) capability, not negotiated")
    }
    if family != .messageId, type == "session_history" || type == "session_updated",
      let id = frame["session_id"]?.stringValue, !subscribedSessions.contains(SessionKey(id))
    {
      throw IllegalEvent(
        state: state.rawValue, event: "send", reason: "session data for \(id), which this client has not subscribed to")
    }
    if capabilityFlags.contains(.messageAck), let id = frame["message_id"]?.stringValue {
      var message = JSONObject()
      message["role"] = "assistant"
      message["text"] = .string(
        frame["text"]?.stringValue ?? frame["message"]?.stringValue ?? frame["error"]?.stringValue ?? "")
      if let session = frame["session_id"]?.stringValue { message["session_id"] = .string(session) }
      message["timestamp"] = .string(RFC3339.string(millisecondsSince1970: now))
      let cost =
        id.utf8.count + (message["text"]?.stringValue?.utf8.count ?? 0)
        + (message["session_id"]?.stringValue?.utf8.count ?? 0)
      let evicted = memory.keep(
        ServerMemory.Unacknowledged(messageId: id, message: message, cost: cost),
        budget: configuration.replayBufferBytes)
      emit(frame, &out)
      for dropped in evicted { out.append(.deliver(.replayEvicted(messageId: dropped))) }
      return
    }
    emit(frame, &out)
  }

  /// Sends `frame`: sealed when authenticated frames are in force (STANDARDS.md section 8), else as
  /// it is. A channel that used its last sequence number sends nothing more and closes the connection
  /// at the end of the event.
  mutating func emit(_ frame: JSONObject, _ out: inout [ServerAction]) {
    if let wire = AuthenticatedChannel.outgoing(frame, channel: &channel, exhausted: &sealingExhausted) {
      out.append(.send(wire))
    }
  }

  /// The answer to a frame that is not JSON: the real server's `error`, quoting at most 200 Unicode
  /// scalars of the parser's message; the socket stays open.
  mutating func answerMalformed(_ detail: String, _ out: inout [ServerAction]) {
    emit(
      .frame("error", ["message": .string("Error processing message: " + String(detail.unicodeScalars.prefix(200)))]),
      &out)
  }
}
