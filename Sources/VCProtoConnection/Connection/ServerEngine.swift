import VCProtoCore
import VCProtoJSON

/// The server side of one voice-code connection as a pure state machine: the host feeds it
/// ``ServerEvent``s with the current time and performs the ``ServerAction``s it returns. It is the
/// server's validation boundary: the host hands it each WebSocket message as it arrived, and the
/// application gets only validated, typed ``ClientMessage``s or an explicit
/// ``ServerApplicationEvent/violation(_:)``; the application sends typed ``ServerMessage``s, which
/// the engine encodes once.
///
/// ```swift
/// var engine = ServerEngine(ServerConfiguration(offer: offer, apiKey: key), memory: memories[client] ??
/// ServerMemory()) var actions = try engine.handle(.transportOpened(challenge: freshChallenge()), now: clock.now)  //
/// hello actions = try engine.handle(.received(message), now: clock.now)  // connect: connected, .authenticated
/// actions = try engine.handle(.send(.sessionList(list)), now: clock.now)
/// ```
///
/// It answers `ping`, runs negotiation and auth (v1 key or v2 challenge, constant-time), refuses
/// everything but `ping`/`connect` before authentication (`auth_error` + close), validates every
/// frame with the connection's negotiated version (`subscribe` refused with the real server's
/// errors), sends heartbeats, buffers frames for replay and answers repeated
/// idempotency keys from a bounded window. It refuses (``IllegalEvent``) an application frame to an
/// unauthenticated client, session data for a session the client did not subscribe to (0.4.0 and
/// later), and extension frames the client did not negotiate. It grants `authenticated_frames` only
/// to an auth v2 `connect` (the auth performed, whatever `auth_version` says), and then seals every
/// frame it sends after `connected` and opens every frame it receives first; a plain, altered,
/// replayed or reordered one closes the connection (``CloseReason/authenticatedFrame(_:)``) and
/// reaches the application only as a violation.
public struct ServerEngine: Sendable {
  /// The configuration, held to the ranges ``ServerConfiguration`` documents.
  public let configuration: ServerConfiguration
  /// The current state.
  public internal(set) var state: ServerState = .idle
  /// The negotiated outcome once authenticated.
  public internal(set) var outcome: NegotiationOutcome? {
    didSet {
      capabilityFlags = CapabilityFlags(outcome?.capabilities ?? [])
      let granted = outcome?.capabilities ?? []
      envelopes = (granted.contains(Capability.compressionText), granted.contains(Capability.compressionBinary))
    }
  }
  /// Which envelope forms were negotiated (`compression_text`, `compression_binary`): read for every
  /// message received, so kept as two flags rather than looked up by name.
  var envelopes: (text: Bool, binary: Bool) = (false, false)
  /// The negotiated capabilities as bits, for the per-frame checks.
  var capabilityFlags = CapabilityFlags()
  /// What survives this connection for the same client (replay buffer, idempotency keys).
  public internal(set) var memory: ServerMemory
  /// The sessions this connection subscribed to, by their exact scalars (``ExactString``), as the
  /// engine keeps them: two ids that are canonically equivalent but differ in bytes are two sessions
  /// (a set made on each read from the engine's table; its count is ``subscribedCount``).
  public var subscribed: Set<ExactString> { Set(subscribedSessions.ids.lazy.map(ExactString.init)) }
  /// Whether this connection subscribed to the session `sessionId` (by its exact scalars).
  public func isSubscribed(_ sessionId: String) -> Bool { subscribedSessions.contains(sessionId) }
  /// How many sessions this connection subscribed to (without making ``subscribed``).
  public var subscribedCount: Int { subscribedSessions.count }
  /// The sessions this connection subscribed to, by their ids' bytes (no SipHash of the id per
  /// `subscribe` or per frame of session data sent, and no `String` kept per subscription).
  var subscribedSessions = SessionIDSet()

  var challenge: String?
  var connectionId: String?
  var challengeIssuedAt: Int64 = 0
  var challengeUsed = false
  var armed: [ConnectionTimer: Int64] = [:]
  var family: VersionFamily = .messageId
  /// With `authenticated_frames` granted: seals every frame sent after `connected` and opens every
  /// frame received (STANDARDS.md#negotiation-and-auth). `nil` otherwise.
  var channel: AuthenticatedChannel?
  /// The channel used its last sequence number while sending: the connection closes at the end of
  /// the event.
  var sealingExhausted = false
  /// Decodes what the client sends: before negotiation with ``handshakeVersion``, then with the
  /// negotiated version. Asked only for a frame its ``directPath`` does not read.
  var decoder: MessageDecoder {
    didSet { directPath = decoder.directPath }
  }
  /// The decoder's direct path (bytes straight to the typed message), held apart: asking it copies
  /// no decoder (`MessageDecoder.DirectPath`, ServerEngine+Receive.swift).
  var directPath: MessageDecoder.DirectPath?

  /// Creates an engine for a new socket, with what is remembered of the client (if anything).
  public init(_ configuration: ServerConfiguration, memory: ServerMemory = ServerMemory()) {
    self.configuration = configuration.clamped
    self.memory = memory
    decoder = Self.decoder(for: Self.handshakeVersion)
    directPath = decoder.directPath
  }

  /// The version frames are decoded with before negotiation. `ping` and `connect`, the only types
  /// acted on then, are the same in every version; 0.3.0 is the newest version whose rules do not
  /// refuse a `connect` announcing a version below 0.4.0, which the engine answers itself with the
  /// real server's too-old refusal (STANDARDS.md#negotiation-and-auth) rather than as a violation.
  static let handshakeVersion = ProtocolVersion.v0_3_0

  /// A decoder of client frames of `version`, checking no negotiated capability (an extension
  /// request from a client that did not negotiate it is an ordinary request, STANDARDS.md#state-machine).
  static func decoder(for version: ProtocolVersion) -> MessageDecoder {
    MessageDecoder(options: ValidationOptions(direction: .clientToServer, version: version))
  }

  /// Takes one event at time `now` (milliseconds since 1970, the host's clock) and returns what to
  /// do, in order. An event the state does not accept throws ``IllegalEvent`` and changes nothing. A
  /// closed engine returns no action. (``handle(_:now:into:)`` does the same into a reused buffer.)
  public mutating func handle(_ event: ServerEvent, now: Int64) throws(IllegalEvent) -> [ServerAction] {
    var buffer = ServerActions(capacity: 4)
    try handle(event, now: now, into: &buffer)
    var out: [ServerAction] = []
    out.reserveCapacity(buffer.count)
    buffer.drain { out.append($0) }
    return out
  }

  /// Takes one event at time `now` and appends what to do, in order, to `actions`, a buffer the
  /// caller owns and reuses (``ActionBuffer/drain(_:)`` hands the actions over and empties it, so
  /// no event allocates). An event the state does not accept throws ``IllegalEvent``, changes
  /// nothing and appends nothing.
  public mutating func handle(
    _ event: ServerEvent, now: Int64, into actions: inout ServerActions
  ) throws(IllegalEvent) {
    // Almost every event: a text message on an authenticated connection without authenticated
    // frames, which the table accepts (it leads to `authenticated` or `closed`), decoded where it
    // arrives. Without a channel nothing is sealed, so nothing can exhaust one.
    if state == .authenticated, channel == nil, case .received(.text(let frame)) = event {
      receive(frame: frame, text: true, now: now, &actions)
      assert(!sealingExhausted, "a channel exhausted without a channel")
      assert(
        ServerTransitions.mask(.authenticated, .received) & 1 << state.ordinal != 0,
        "received led to \(state), not in the table")
      return
    }
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
      emitPlain(.hello(hello()), &actions)
      arm(.authDeadline, at: now.addingSaturating(configuration.authTimeoutMs), &actions)
    case .received(let message): receive(message, now: now, &actions)
    case .transportClosed: finish(.transportClosed, close: false, &actions)
    case .timerFired(let timer): fire(timer, now: now, &actions)
    case .send(let message): try send(message, now: now, &actions)
    case .drain(let retryAfter, let message):
      if state == .authenticated, outcome?.allows(Capability.draining) == true {
        emit(.draining(DrainingMessage(message: message, retryAfterMs: max(0, retryAfter))), &actions)
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
  /// exactly (STANDARDS.md#negotiation-and-auth).
  func hello() -> HelloMessage {
    let offer = configuration.offer
    var hello = HelloMessage(
      message: "Welcome to voice-code backend", version: offer.versions.advertised.description,
      authVersion: offer.authVersions.contains(1) ? 1 : (offer.authVersions.max() ?? 1),
      instructions: "Send connect message with api_key")
    guard offer.offersExtensions else { return hello }
    hello.protocolVersions = offer.versions.reachable.map(\.description)
    hello.authVersions = offer.authVersions
    hello.capabilities = offer.capabilities
    hello.challenge = challenge
    return hello
  }

  mutating func arm(_ timer: ConnectionTimer, at deadline: Int64, _ out: inout ServerActions) {
    armed[timer] = deadline
    out.append(.armTimer(timer, at: deadline))
  }

  mutating func finish(_ reason: CloseReason, close: Bool, _ out: inout ServerActions) {
    for timer in armed.keys.sorted(by: { $0.description < $1.description }) { out.append(.cancelTimer(timer)) }
    armed = [:]
    if close { out.append(.closeTransport(reason)) }
    state = .closed
    out.append(.deliver(.closed(reason)))
  }

  mutating func fire(_ timer: ConnectionTimer, now: Int64, _ out: inout ServerActions) {
    guard let deadline = armed[timer], deadline <= now else { return }
    armed[timer] = nil
    switch timer {
    case .authDeadline:
      if state == .awaitingConnect { finish(.authTimeout, close: true, &out) }
    case .heartbeat:
      guard state == .authenticated else { return }
      emit(.heartbeat(HeartbeatMessage(timestamp: RFC3339.string(millisecondsSince1970: now))), &out)
      arm(.heartbeat, at: now.addingSaturating(configuration.heartbeatIntervalMs), &out)
    default: return
    }
  }

  mutating func send(_ message: ServerMessage, now: Int64, _ out: inout ServerActions) throws(IllegalEvent) {
    if let missing = missingCapability(message) {
      throw IllegalEvent(
        state: state.rawValue, event: "send",
        reason: "\(missing.what) needs the \(missing.name) capability, not negotiated")
    }
    if family != .messageId, let id = message.sessionDataId, !subscribedSessions.contains(id) {
      throw IllegalEvent(
        state: state.rawValue, event: "send", reason: "session data for \(id), which this client has not subscribed to")
    }
    let frame = MessageEncoder().encode(message)
    guard capabilityFlags.contains(.messageAck), let kept = message.replayFields else {
      return emit(frame: frame, &out)
    }
    var replayed = JSONObject()
    replayed["role"] = "assistant"
    replayed["text"] = .string(kept.text)
    if let session = kept.sessionId { replayed["session_id"] = .string(session) }
    replayed["timestamp"] = .string(RFC3339.string(millisecondsSince1970: now))
    let cost = kept.messageId.utf8.count + kept.text.utf8.count + (kept.sessionId?.utf8.count ?? 0)
    let evicted = memory.keep(
      ServerMemory.Unacknowledged(messageId: kept.messageId, message: replayed, cost: cost),
      budget: configuration.replayBufferBytes)
    emit(frame: frame, &out)
    for dropped in evicted { out.append(.deliver(.replayEvicted(messageId: dropped))) }
  }

  /// Sends `message`, encoded once: sealed when authenticated frames are in force (STANDARDS.md#authenticated-frames),
  /// else as it is. A channel that used its last sequence number sends nothing more and
  /// closes the connection at the end of the event.
  mutating func emit(_ message: ServerMessage, _ out: inout ServerActions) {
    emit(frame: MessageEncoder().encode(message), &out)
  }

  /// Sends the encoded frame `frame` (sealed when authenticated frames are in force).
  mutating func emit(frame: [UInt8], _ out: inout ServerActions) {
    guard channel != nil else { return out.append(.send(.text(frame))) }
    guard !sealingExhausted else { return }
    do {
      out.append(.send(.text(try channel!.seal(frame))))
    } catch {
      sealingExhausted = true
    }
  }

  /// Sends `message` unsealed: the handshake's frames, which go before any channel exists.
  mutating func emitPlain(_ message: ServerMessage, _ out: inout ServerActions) {
    out.append(.send(.text(MessageEncoder().encode(message))))
  }
}
