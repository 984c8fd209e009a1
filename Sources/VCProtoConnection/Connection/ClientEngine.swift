import VCProtoCore
import VCProtoJSON

/// The client side of a voice-code conversation as a pure state machine (sans I/O, in the manner of
/// Python's h11): the host feeds it ``ClientEvent``s with the current time and performs the
/// ``ClientAction``s it returns. It owns no socket, thread or clock, and its only randomness (backoff
/// jitter) comes from a seeded generator, so the same inputs always give the same outputs.
///
/// ```swift
/// var engine = ClientEngine(ClientConfiguration(apiKey: key, capabilities: ["heartbeat"]))
/// var actions = try engine.handle(.start, now: clock.now)          // [.openTransport(transport 1)]
/// actions = try engine.handle(.transportOpened(TransportID(1), clientNonce: AuthClient.freshNonce()), now: clock.now)
/// actions = try engine.handle(.received(message), now: clock.now)  // [.send(connect), ...]
/// actions = try engine.handle(.subscribe(sessionId: id, cursor: nil), now: clock.now)
/// ```
///
/// What it guarantees (STANDARDS.md, "Conversation state machine"): nothing but `connect` and `ping`
/// is sent before authentication, and with auth v2 nothing is acted on before the server's proof is
/// verified; keepalive and dead-peer detection; reconnect with jittered exponential backoff;
/// subscriptions re-sent with their cursor after every reconnect; messages deduplicated by
/// `(session, position)`; every tracked request answered or failed, never left hanging. With
/// `authenticated_frames` granted on a verified auth v2 handshake, every frame it sends after
/// `connected` is sealed and every frame it receives is opened first (``AuthenticatedChannel``); a
/// plain, altered, replayed or reordered one closes the connection
/// (``CloseReason/authenticatedFrame(_:)``) and reaches no application. The host never parses JSON:
/// it passes each WebSocket message as it arrived (``ClientEvent/received(_:)``) and sends the
/// messages it is handed (``ClientAction/send(_:)``).
///
/// It is a validation boundary: each frame is decoded once, with the connection's negotiated
/// version, into a ``ServerMessage``; one that fails validation reaches the application only as
/// ``ClientApplicationEvent/violation(_:)`` (dropped; during the handshake, or for a handshake
/// message, the connection also closes).
public struct ClientEngine: Sendable {
  /// The configuration, its ``ClientConfiguration/timing`` held to the ranges ``ClientTiming`` documents.
  public let configuration: ClientConfiguration
  /// The current state.
  public internal(set) var state: ClientState = .idle
  /// The transport the engine is opening or using (``ClientAction/openTransport(_:)``), `nil` when it
  /// has none (it closed it, or it was reported closed). Transport events naming another are ignored.
  public internal(set) var currentTransport: TransportID?
  /// How many transports the engine asked for: the number of the last ``TransportID``.
  var transportsOpened: UInt64 = 0
  /// The version negotiated on the current connection (`nil` when not ready).
  public internal(set) var negotiatedVersion: ProtocolVersion?
  /// The capabilities accepted on the current connection.
  public internal(set) var capabilities: Set<String> = [] {
    didSet { capabilityFlags = CapabilityFlags(capabilities) }
  }
  /// ``capabilities`` as bits, for the per-frame checks.
  var capabilityFlags = CapabilityFlags()
  /// How the negotiated version identifies messages (set with ``negotiatedVersion``).
  var family: VersionFamily = .messageId
  /// The family of the positions the subscriptions remember as delivered (`nil` before the first
  /// connection): a connection on another family forgets them, since a `seq` and an `offset` (or a
  /// uuid's hash) with the same number are different messages.
  var deliveredFamily: VersionFamily?

  var rng: SplitMix64
  /// Reconnect attempts since the last authenticated connection.
  var attempts = 0
  var authFailures = 0
  /// Timers armed, with their deadlines (fires of anything else are stale and ignored).
  var armed: [ConnectionTimer: Int64] = [:]
  /// How many of ``armed`` are continuation timers: while none is, cancelling one needs no lookup
  /// (a hash of the session id), which is the common case of every `subscribe` and `unsubscribe`.
  var armedContinuations = 0
  var lastFrameAt: Int64 = 0
  var pingSentAt: Int64?
  var clientNonce: String?
  var handshake: ClientHandshake?
  /// With `authenticated_frames` granted: seals every frame sent after the verified `connected` and
  /// opens every frame received (STANDARDS.md#negotiation-and-auth). `nil` otherwise.
  var channel: AuthenticatedChannel?
  /// The channel used its last sequence number while sending: the connection closes at the end of
  /// the event.
  var sealingExhausted = false
  var sentConnect: JSONObject?
  /// The writer of the engine's own typed frames (`emit(_:_:)` of a `ClientMessage`: `subscribe`,
  /// `unsubscribe`, `message_ack`), emptied and reused for each: a writer made per frame cost an
  /// allocation and a release of its storage on top of the frame's bytes, two of each for every
  /// session an application opens and closes (its `subscribe` and `unsubscribe`). It holds no
  /// secret: only those frames, whose members are session and message ids.
  var ownFrameWriter = JSONWriter(reservingCapacity: ownFrameCapacity)
  /// The decoder of the negotiated version (`nil` until `ready`): ``readyDecoder`` once
  /// ``hasReadyDecoder``.
  var negotiatedDecoder: MessageDecoder? {
    get { hasReadyDecoder ? readyDecoder : nil }
    set {
      hasReadyDecoder = newValue != nil
      readyDecoder = newValue ?? Self.handshakeDecoder
    }
  }
  /// The negotiated version's decoder when ``hasReadyDecoder`` (else the handshake's, unused), kept
  /// out of an optional so that every frame is decoded with it in place: unwrapping the optional
  /// copied the decoder's 160 bytes twice a frame, through two out-of-line tag reads.
  private(set) var readyDecoder = handshakeDecoder
  /// Whether a version was negotiated (``negotiatedDecoder``).
  private(set) var hasReadyDecoder = false
  /// The version the handshake is heading for once `hello` came (the lower of the server's ceiling
  /// and the client's maximum): what the frames before `connected` are checked against.
  var handshakeVersion: ProtocolVersion?
  var usedAuthVersion = 1
  /// A 0.2.0/0.3.0 server sends no `connected`: any frame but `auth_error` means success.
  var implicitAuthVersion: ProtocolVersion?
  var drainRetryAfterMs: Int64?

  /// The subscriptions; their order (``Subscription/serial``) is the order `subscribe` is sent in
  /// after a reconnect.
  var subscriptions = SubscriptionTable()
  /// The ``Subscription/serial`` of the next subscription.
  var nextSubscriptionSerial = 0
  /// Sessions a `prompt` created (`new_session_id`) whose `session_ready` may be lost by a drop.
  var pendingNewSessions: [String] = []
  var pending: [PendingRequest] = []
  /// Requests made while not ready, oldest first (at most ``ClientConfiguration/outboxCapacity``).
  var outbox: [QueuedRequest] = []
  /// The `message_id`s delivered (``ClientConfiguration/dedupWindow`` of them, oldest forgotten), as
  /// 8-byte keyed hashes: a server chooses each id's length, up to the frame limit.
  var seenMessageIds: MessageIDMemory

  /// Creates an engine in ``ClientState/idle``.
  public init(_ configuration: ClientConfiguration) {
    var configuration = configuration
    configuration.timing = configuration.timing.clamped
    configuration.outboxCapacity = max(0, configuration.outboxCapacity)
    configuration.capabilities = Capability.negotiable(configuration.capabilities, envelopes: configuration.envelopes)
    self.configuration = configuration
    rng = SplitMix64(state: configuration.randomSeed)
    seenMessageIds = MessageIDMemory(capacity: min(configuration.dedupWindow, PositionWindow.maxCapacity))
  }

  /// Takes one event at time `now` (milliseconds on the host's clock) and returns what to do, in
  /// order. An event the current state does not accept throws ``IllegalEvent`` and changes nothing.
  /// (``handle(_:now:into:)`` does the same into a buffer the caller reuses, without allocating.)
  public mutating func handle(_ event: ClientEvent, now: Int64) throws(IllegalEvent) -> [ClientAction] {
    var buffer = ClientActions(capacity: 4)
    try handle(event, now: now, into: &buffer)
    var out: [ClientAction] = []
    out.reserveCapacity(buffer.count)
    buffer.drain { out.append($0) }
    return out
  }

  /// Takes one event at time `now` and appends what to do, in order, to `actions`, a buffer the
  /// caller owns and reuses (``ActionBuffer/drain(_:)`` hands the actions over and empties it, so
  /// no event allocates). An event the current state does not accept throws ``IllegalEvent``,
  /// changes nothing and appends nothing.
  public mutating func handle(
    _ event: ClientEvent, now: Int64, into actions: inout ClientActions
  ) throws(IllegalEvent) {
    // A message received on a ready connection (every frame of a session, always allowed there)
    // goes straight to `receive`: the hot path runs no transition-table lookup and no second
    // switch, so that it adds few lines of code to the decoder's (ClientEngine+History.swift).
    if state == .ready {
      switch event {
      case .received(let message):
        receive(message, now: now, &actions)
        endEvent(now: now, &actions)
        assert(ClientTransitions.mask(.ready, .frame) & 1 << state.ordinal != 0, "received led to \(state)")
        return
      // The application's subscribe and unsubscribe (every session it opens and closes), always
      // allowed when ready: no transition-table lookup either.
      case .subscribe(let id, let cursor):
        subscribe(id, cursor: cursor, now: now, &actions)
        endEvent(now: now, &actions)
        assert(ClientTransitions.mask(.ready, .subscribe) & 1 << state.ordinal != 0, "subscribe led to \(state)")
        return
      case .unsubscribe(let id):
        unsubscribe(id, &actions)
        endEvent(now: now, &actions)
        assert(ClientTransitions.mask(.ready, .unsubscribe) & 1 << state.ordinal != 0, "unsubscribe led to \(state)")
        return
      default: break
      }
    }
    switch event {
    case .transportOpened(let id, _), .transportClosed(let id, _):
      // Another transport's late news (one the engine closed or gave up on): not this conversation's.
      guard id == currentTransport else { return }
    default: break
    }
    let targets = ClientTransitions.mask(state, event.kind)
    guard targets != 0 else {
      throw IllegalEvent(state: state.rawValue, event: event.name, reason: "not in the transition table")
    }
    switch event {
    case .start: start(now: now, out: &actions)
    case .resume: resume(now: now, out: &actions)
    case .stop(let reason): stop(reason: reason, now: now, out: &actions)
    case .transportOpened(_, let nonce):
      cancel(.connectDeadline, &actions)
      clientNonce = nonce
      lastFrameAt = now
      state = .awaitingHello
      arm(.handshakeDeadline, at: now.addingSaturating(configuration.timing.handshakeTimeoutMs), &actions)
    case .transportClosed(_, let detail):
      // (Only a live state has a current transport.)
      connectionLost(
        CloseReason(code: CloseReason.transportClosed.code, detail: detail), now: now, close: false, &actions)
    case .received(let message): receive(message, now: now, &actions)
    case .timerFired(let timer): fire(timer, now: now, &actions)
    case .subscribe(let id, let cursor): subscribe(id, cursor: cursor, now: now, &actions)
    case .unsubscribe(let id): unsubscribe(id, &actions)
    case .send(let message, let requestId): try send(event: message, requestId: requestId, now: now, &actions)
    }
    endEvent(now: now, &actions)
    assert(targets & 1 << state.ordinal != 0, "\(event.name) led to \(state), not in the table")
  }

  /// What every event ends with: a client that stopped reconnecting by itself fails what it queued;
  /// a channel that used its last sequence number closes the connection.
  @inline(__always)
  mutating func endEvent(now: Int64, _ actions: inout ClientActions) {
    if !outbox.isEmpty, state == .reauthRequired || state == .upgradeRequired || state == .stopped {
      // The client stopped reconnecting by itself: what it queued will never be sent.
      failOutbox(.notReconnecting, &actions)
    }
    if sealingExhausted {
      sealingExhausted = false
      if state == .ready {
        connectionLost(.authenticatedFrame(.sequenceExhausted), now: now, close: true, &actions)
      }
    }
    assert(
      armedContinuations == armed.keys.count(where: { if case .continuation = $0 { true } else { false } }),
      "armedContinuations out of step with the armed timers")
  }

  /// The `send` event (out of line, as every event but `received` is: the code of a received frame,
  /// the hot path, stays short and evicts less of the decoder's from the instruction cache).
  @inline(never)
  mutating func send(
    event message: ClientMessage, requestId: String?, now: Int64, _ actions: inout ClientActions
  ) throws(IllegalEvent) {
    let type = message.type
    if type == "connect" || type == "subscribe" || type == "unsubscribe" || type == "message_ack" {
      throw IllegalEvent(
        state: state.rawValue, event: "send",
        reason: "\"\(type)\" is the engine's own frame (use start/subscribe/unsubscribe)")
    }
    if state == .ready {
      send(message, requestId: requestId, now: now, &actions)
    } else if let requestId {
      enqueue(message, requestId: requestId, now: now, &actions)
    } else {
      throw IllegalEvent(
        state: state.rawValue, event: "send",
        reason: "only a request with a request id waits for the connection (the outbox); this one has none")
    }
  }

  // MARK: helpers shared by the extensions

  /// Sends `frame`: sealed when authenticated frames are in force (STANDARDS.md#authenticated-frames), else as
  /// it is. A channel that used its last sequence number sends nothing more and closes the connection
  /// at the end of the event.
  mutating func emit(_ frame: JSONObject, _ out: inout ClientActions) {
    var writer = JSONWriter()
    writer.write(frame)
    emit(bytes: writer.bytes, &out)
  }

  /// Sends the engine's own typed `message` (`subscribe`, `unsubscribe`, `message_ack`), encoded once
  /// by the generated encoder (member names written as fragments, only the values escaped), and sent
  /// as a frame built as a tree is.
  mutating func emit(_ message: ClientMessage, _ out: inout ClientActions) {
    ownFrameWriter.removeAll()
    MessageEncoder().encode(message, into: &ownFrameWriter)
    emit(bytes: ownFrameWriter.bytes, &out)
  }

  /// The first capacity of the writer of the engine's own frames: a `subscribe` with a UUID session
  /// id and a resume member is under a hundred bytes (a longer id grows the writer once or twice).
  static let ownFrameCapacity = 128

  /// Sends the frame `bytes` (compact JSON text), sealed when authenticated frames are in force.
  mutating func emit(bytes: [UInt8], _ out: inout ClientActions) {
    guard channel != nil else {
      out.append(.send(.text(bytes)))
      return
    }
    guard !sealingExhausted else { return }
    do {
      out.append(.send(.text(try channel!.seal(bytes))))
    } catch {
      sealingExhausted = true
    }
  }

  /// Asks the host for a new transport, which becomes the current one, and arms the connect deadline.
  mutating func openTransport(now: Int64, _ out: inout ClientActions) {
    assert(currentTransport == nil, "a new transport while \(currentTransport!) is current")
    transportsOpened &+= 1
    let id = TransportID(transportsOpened)
    currentTransport = id
    state = .connecting
    out.append(.openTransport(id))
    arm(.connectDeadline, at: now.addingSaturating(configuration.timing.connectTimeoutMs), &out)
  }

  /// Asks the host to close the current transport; the engine is then done with it
  /// (``resetConnection()`` forgets it).
  mutating func closeTransport(_ reason: CloseReason, _ out: inout ClientActions) {
    if let id = currentTransport { out.append(.closeTransport(id, reason)) }
  }

  mutating func arm(_ timer: ConnectionTimer, at deadline: Int64, _ out: inout ClientActions) {
    if armed.updateValue(deadline, forKey: timer) == nil, case .continuation = timer { armedContinuations += 1 }
    out.append(.armTimer(timer, at: deadline))
  }

  mutating func cancel(_ timer: ConnectionTimer, _ out: inout ClientActions) {
    if case .continuation = timer {
      guard armedContinuations > 0, armed.removeValue(forKey: timer) != nil else { return }
      armedContinuations -= 1
    } else {
      guard armed.removeValue(forKey: timer) != nil else { return }
    }
    out.append(.cancelTimer(timer))
  }

  mutating func cancelConnectionTimers(_ out: inout ClientActions) {
    for timer in armed.keys.sorted(by: { $0.description < $1.description })
    where timer != .reconnect && timer != .outboxDeadline {
      cancel(timer, &out)
    }
  }

  /// The backoff delay for the current attempt count: `base * 2^attempts`, capped, jittered, floored,
  /// then capped again, so that jitter never takes a delay past ``ClientTiming/backoffCapMs`` (the cap
  /// wins over the floor when the floor is the larger).
  mutating func backoffDelay() -> Int64 {
    let t = configuration.timing
    let exponent = min(attempts, 30)
    let raw = min(Double(t.backoffBaseMs) * Double(1 << exponent), Double(t.backoffCapMs))
    let factor = 1 + t.jitter * (2 * rng.unit() - 1)
    return min(t.backoffCapMs, max(t.backoffFloorMs, Int64(saturatingFloor: raw * factor)))
  }

  @inline(never)
  mutating func start(now: Int64, out: inout ClientActions) {
    switch state {
    case .idle, .backingOff, .reauthRequired, .upgradeRequired, .stopped:
      cancel(.reconnect, &out)
      if state != .backingOff { attempts = 0 }
      authFailures = 0
      openTransport(now: now, &out)
    default: break  // already connecting or connected: nothing to do
    }
  }

  @inline(never)
  mutating func resume(now: Int64, out: inout ClientActions) {
    guard state == .backingOff || state == .stopped else { return }
    attempts = 0
    cancel(.reconnect, &out)
    openTransport(now: now, &out)
  }

  @inline(never)
  mutating func stop(reason: String, now: Int64, out: inout ClientActions) {
    let wasOpen = state == .awaitingHello || state == .awaitingConnected || state == .ready || state == .connecting
    guard wasOpen else {
      // Already down: the disconnection was reported when it happened; only a pending reconnect goes.
      cancel(.reconnect, &out)
      failOutbox(.stopped, &out)
      if state != .stopped { out.append(.deliver(.stopped(reason: reason))) }
      state = .stopped
      return
    }
    if state == .ready, capabilityFlags.contains(.disconnect) {
      emit(.frame("disconnect", ["reason": .string(reason)]), &out)
    }
    failPending(.stopped, &out)
    failOutbox(.stopped, &out)
    cancelConnectionTimers(&out)
    cancel(.reconnect, &out)
    closeTransport(.clientDisconnect, &out)
    resetConnection()
    state = .stopped
    out.append(.deliver(.disconnected(.clientDisconnect)))
    out.append(.deliver(.stopped(reason: reason)))
  }

  /// Forgets everything tied to one connection (subscriptions stay desired, cursors stay).
  mutating func resetConnection() {
    currentTransport = nil
    negotiatedVersion = nil
    capabilities = []
    pingSentAt = nil
    clientNonce = nil
    handshake = nil
    channel = nil
    sealingExhausted = false
    sentConnect = nil
    negotiatedDecoder = nil
    handshakeVersion = nil
    implicitAuthVersion = nil
    drainRetryAfterMs = nil
    for index in subscriptions.indices { subscriptions[index].resetForReconnect() }
  }

  /// The connection is gone: fail what waits, stop keepalive, and back off (or stop).
  @inline(never)
  mutating func connectionLost(_ reason: CloseReason, now: Int64, close: Bool, _ out: inout ClientActions) {
    failPending(.connectionLost, &out)
    cancelConnectionTimers(&out)
    if close { closeTransport(reason, &out) }
    let drain = drainRetryAfterMs
    resetConnection()
    out.append(.deliver(.disconnected(reason)))
    if let drain {
      // A planned restart: wait what the server asked, plus up to `jitter` more so that every client
      // does not come back at the same instant; the attempt count is not a failure and stays.
      let extra = Int64(saturatingFloor: Double(drain) * configuration.timing.jitter * rng.unit())
      scheduleReconnect(at: now.addingSaturating(drain).addingSaturating(extra), attempt: attempts + 1, &out)
      return
    }
    if let limit = configuration.timing.maxReconnectAttempts, attempts >= limit {
      state = .stopped
      out.append(.deliver(.gaveUp(attempts: attempts)))
      return
    }
    let delay = backoffDelay()
    attempts += 1
    scheduleReconnect(at: now.addingSaturating(delay), attempt: attempts, &out)
  }

  mutating func scheduleReconnect(at deadline: Int64, attempt: Int, _ out: inout ClientActions) {
    state = .backingOff
    arm(.reconnect, at: deadline, &out)
    out.append(.deliver(.reconnectScheduled(attempt: attempt, at: deadline)))
  }

  @inline(never)
  mutating func fire(_ timer: ConnectionTimer, now: Int64, _ out: inout ClientActions) {
    guard let deadline = armed[timer], deadline <= now else { return }  // stale or early: ignore
    armed[timer] = nil
    if case .continuation = timer { armedContinuations -= 1 }
    let t = configuration.timing
    switch timer {
    case .reconnect:
      guard state == .backingOff else { return }
      openTransport(now: now, &out)
    case .connectDeadline:
      guard state == .connecting else { return }
      connectionLost(.connectTimeout, now: now, close: true, &out)
    case .handshakeDeadline:
      guard state == .awaitingHello || state == .awaitingConnected else { return }
      connectionLost(.handshakeTimeout, now: now, close: true, &out)
    case .ping:
      guard state == .ready else { return }
      emit(.frame("ping"), &out)
      // The deadline belongs to the oldest unanswered ping: a later ping never pushes it back, or a
      // pong timeout at least the ping interval would never expire (issue 30).
      if armed[.pongDeadline] == nil {
        pingSentAt = now
        arm(.pongDeadline, at: now.addingSaturating(t.pongTimeoutMs), &out)
      }
      arm(.ping, at: now.addingSaturating(t.pingIntervalMs), &out)
    case .pongDeadline:
      guard state == .ready, let sent = pingSentAt else { return }
      if lastFrameAt > sent { return }  // something arrived after the ping: alive
      connectionLost(.pongTimeout, now: now, close: true, &out)
    case .heartbeatDeadline:
      guard state == .ready else { return }
      let due = lastFrameAt.addingSaturating(t.heartbeatTimeoutMs)
      if due > now {
        arm(.heartbeatDeadline, at: due, &out)  // frames arrived meanwhile: look again later
      } else {
        connectionLost(.heartbeatTimeout, now: now, close: true, &out)
      }
    case .continuation(let id):
      guard state == .ready else { return }
      sendSubscribe(id, &out)  // (nothing when the session is no longer subscribed)
    case .requestDeadline:
      guard state == .ready else { return }
      expirePending(now: now, &out)
    case .outboxDeadline:
      expireOutbox(now: now, &out)
    case .heartbeat, .authDeadline: return  // server timers
    }
  }

}
