import VCProto

/// Drives the connection engines with event sequences chosen by a stream of bytes (a fuzzer's input or
/// a seeded generator's output) and checks their invariants after every event. Used by the fuzz target
/// `fuzz-engine` and by the tests; not a stable API.
///
/// Invariants: no crash; an illegal event leaves the state unchanged and appends nothing to the
/// caller's action buffer (a legal one only appends); every state reached is one the transition table
/// allows (each engine asserts it at the end of every event it handles, in the debug builds the tests
/// and the fuzz target use, so the exerciser needs only the public API); every tracked request ends at most once, with its own id; nothing but `connect`/`ping` goes
/// out before authentication (server: only `hello`, `pong`, `auth_error`, `error`, and `connected`
/// when it authenticates); every bounded table within its bound; a client that is stopped, refused or
/// told to upgrade, and a closed server, emit nothing (until the application starts the client again;
/// a refused client that the application stops says `stopped`, once).
public struct EngineExerciser {
  var bytes: [UInt8]
  var index = 0
  /// Events fed so far.
  public private(set) var events = 0

  /// An exerciser reading its choices from `bytes` (zeros once they run out).
  public init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func byte() -> Int {
    defer { index += 1 }
    return index < bytes.count ? Int(bytes[index]) : 0
  }

  mutating func pick<T>(_ options: [T]) -> T { options[byte() % options.count] }

  var exhausted: Bool { index >= bytes.count }

  static let key = "untethered-0123456789abcdef0123456789abcdef"
  /// What a client sends before authentication, and what a server does: the catalog's types that do
  /// not ``MessageSpec/requiresAuthentication``, as the engines read them.
  static let clientFramesBeforeAuthentication = ProtocolCatalog.declaration.framesBeforeAuthentication(.clientToServer)
  static let serverFramesBeforeAuthentication = ProtocolCatalog.declaration.framesBeforeAuthentication(.serverToClient)
  static let sessions = ["s-1", "s-2", "s-3", "s-\u{E9}", "s-e\u{301}"]
  /// Integers a peer may send beyond the usual: Int.min, Int.min+1, -1, 0, 2^53+1, Int.max-1,
  /// Int.max (issue 29: a `next_seq` of Int.min trapped the client; 2.2 M runs never drew one).
  static let extremes: [Int] = [.min, .min + 1, -1, 0, 9_007_199_254_740_993, .max - 1, .max]
  /// Ids that are canonically equivalent to each other but differ in bytes (`é` precomposed and
  /// decomposed; `Å`, `A` + ring, Angstrom sign): engines compare peer ids by exact bytes (issue 29).
  static let equivalentIds = ["\u{E9}", "e\u{301}", "\u{C5}", "A\u{30A}", "\u{212B}"]

  /// An id: `prefix` and a number, or one of ``equivalentIds``.
  mutating func id(_ prefix: String, _ number: Int) -> String {
    byte() % 4 == 0 ? pick(Self.equivalentIds) : "\(prefix)\(number)"
  }

  /// `TransportID(opened)` mostly; one before or after it one time in eight.
  mutating func transport(_ opened: UInt64) -> TransportID {
    switch byte() % 16 {
    case 0: return TransportID(opened &- 1)
    case 1: return TransportID(opened &+ 1)
    default: return TransportID(opened)
    }
  }

  /// Runs the client engine on the bytes; returns the first invariant broken, or `nil`.
  public mutating func runClient() -> String? {
    let config = ClientConfiguration(
      apiKey: Self.key, minimumVersion: .v0_2_0, maximumVersion: .v0_5_0,
      capabilities: byte() % 2 == 0 ? Capability.all : [], allowAuthV1: byte() % 4 != 0, maxMessageSizeKB: 200,
      randomSeed: UInt64(byte()), maxPendingRequests: 4, maxSubscriptions: 2, dedupWindow: 8,
      envelopes: EnvelopeCodec())
    var engine = ClientEngine(config)
    var waiting: [String] = []
    var opened: UInt64 = 0  // the number of the last transport the engine asked for
    return drive(
      &engine, advances: [0, 1, 500, 1_000, 15_000, 30_000, 45_000, 90_000],
      event: { $0.clientEvent(armed: $1, opened: opened) },
      check: { engine, before, event, actions, armed in
        for case .openTransport(let id) in actions { opened = id.rawValue }
        return Self.checkClient(engine, before: before, event: event, actions: actions, armed: &armed)
          ?? Self.checkRequests(event: event, actions: actions, waiting: &waiting, queued: before != .ready)
      })
  }

  /// Every tracked request ends at most once, with its own id: `answered` and `requestFailed` only
  /// for a request id sent and not yet ended (ids may repeat; each send counts once; ids compared by
  /// their exact UTF-8 bytes). A request made while not ready (`queued`) may end in the outbox,
  /// whatever its type.
  static func checkRequests(
    event: ClientEvent, actions: [ClientAction], waiting: inout [String], queued: Bool = false
  ) -> String? {
    if case .send(let message, let id?) = event, queued || ClientEngine.answerTypes[message.type] != nil {
      waiting.append(id)
    }
    for action in actions {
      let ended: String
      switch action {
      case .deliver(.answered(let id, _)): ended = id
      case .deliver(.requestFailed(let id, _)): ended = id
      default: continue
      }
      // By exact bytes, as the engine matches them: two canonically equivalent ids are two requests.
      guard let index = waiting.firstIndex(where: { $0.utf8.elementsEqual(ended.utf8) }) else {
        return "request \(ended) ended but was not waiting"
      }
      waiting.remove(at: index)
    }
    return nil
  }

  /// Feeds `engine` events until the bytes run out. Before each event the clock moves on by one of
  /// `advances`; `event` draws the event from the bytes (and the timers armed); an event the engine
  /// refuses must leave its state alone, and one it handles must lead where its transition table
  /// allows; `check` judges the rest (from the state before the event and the actions) and keeps the
  /// armed timers up to date. Returns the first invariant broken, or `nil`.
  mutating func drive<Engine: ExercisedEngine>(
    _ engine: inout Engine, advances: [Int], event: (inout EngineExerciser, [ConnectionTimer]) -> Engine.Event,
    check: (Engine, Engine.State, Engine.Event, [Engine.Action], inout [ConnectionTimer]) -> String?
  ) -> String? {
    var now: Int64 = 1_768_150_000_000
    var armed: [ConnectionTimer] = []
    // Actions go into a reused buffer that already holds one action the engine must leave alone.
    var buffer: [Engine.Action] = []
    while !exhausted {
      now += Int64(pick(advances))
      let next = event(&self, armed)
      let before = engine.state
      let ignored = engine.ignores(next)
      buffer.removeAll(keepingCapacity: true)
      buffer.append(Engine.sentinel)
      do {
        try engine.handle(next, now: now, into: &buffer)
      } catch {
        if engine.state != before { return "illegal \(next.name) changed the state" }
        if buffer != [Engine.sentinel] { return "illegal \(next.name) appended actions" }
        continue
      }
      guard buffer.first == Engine.sentinel else { return "\(next.name) changed the caller's actions" }
      let actions = Array(buffer.dropFirst())
      events += 1
      if ignored {
        if engine.state != before || !actions.isEmpty { return "ignored \(next.name) changed something" }
        continue
      }
      if let problem = check(engine, before, next, actions, &armed) { return problem }
    }
    return nil
  }

  /// The client's invariants after one event it handled (listed in the type's documentation).
  static func checkClient(
    _ engine: ClientEngine, before: ClientState, event: ClientEvent, actions: [ClientAction],
    armed: inout [ConnectionTimer]
  ) -> String? {
    let parked: Set<ClientState> = [.stopped, .reauthRequired, .upgradeRequired]
    if parked.contains(before), !actions.isEmpty {
      switch event {
      case .start, .resume: break
      // A refused client stopped by the application is told so, once (nothing else).
      case .stop(let reason) where before != .stopped && actions == [.deliver(.stopped(reason: reason))]: break
      default: return "\(before) emitted \(actions.count) actions on \(event.name)"
      }
    }
    var authenticated = before == .ready
    for action in actions {
      switch action {
      case .deliver(.connected): authenticated = true
      case .closeTransport, .deliver(.disconnected): authenticated = false
      case .send(let message):
        let type = (try? JSONReader().parse(message.bytes))?["type"]?.stringValue ?? ""
        if !authenticated, !Self.clientFramesBeforeAuthentication.contains(type) {
          return "sent \(type) before authentication"
        }
      case .armTimer(let timer, _): if !armed.contains(timer) { armed.append(timer) }
      case .cancelTimer(let timer): armed.removeAll { $0 == timer }
      default: break
      }
    }
    let o = engine.occupancy
    let c = engine.configuration
    if o.pendingRequests > c.maxPendingRequests { return "pending requests \(o.pendingRequests)" }
    if o.subscriptions > c.maxSubscriptions { return "subscriptions \(o.subscriptions)" }
    if o.largestDedupWindow > c.dedupWindow || o.messageIds > c.dedupWindow { return "dedup window overflow" }
    if o.pendingNewSessions > 16 { return "pending new sessions \(o.pendingNewSessions)" }
    if o.armedTimers > 5 + o.subscriptions + 3 { return "armed timers \(o.armedTimers)" }
    return nil
  }

  /// A client event; transport events name the last transport opened (`opened`), or now and then an
  /// earlier or a never-opened one.
  mutating func clientEvent(armed: [ConnectionTimer], opened: UInt64) -> ClientEvent {
    switch byte() % 12 {
    case 0: return .start
    case 1: return byte() % 4 == 0 ? .resume : .stop(reason: "user")
    case 2: return .transportOpened(transport(opened), clientNonce: "00112233445566778899aabbccddeeff")
    case 3: return .transportClosed(transport(opened), detail: "reset")
    case 4, 5, 6: return .received(.text(Array(JSONValue.object(serverFrame()).jsonText.utf8)))
    case 7, 8:
      if !armed.isEmpty, byte() % 4 != 0 { return .timerFired(pick(armed)) }
      return .timerFired(
        pick([.ping, .pongDeadline, .reconnect, .connectDeadline, .handshakeDeadline, .heartbeatDeadline, .heartbeat]))
    case 9:
      let cursors: [SubscriptionCursor?] = [
        nil, .offset(byte(), signature: "10:u"), .lastSeq(byte()), .lastMessageId("u"),
      ]
      return .subscribe(sessionId: pick(Self.sessions), cursor: pick(cursors))
    case 10: return .unsubscribe(sessionId: pick(Self.sessions))
    default: return .send(.unknown(clientFrame()), requestId: byte() % 2 == 0 ? id("r", byte()) : nil)
    }
  }

  /// A value for an integer member: small, large, an extreme, or not an integer at all.
  mutating func number() -> JSONValue {
    switch byte() % 6 {
    case 0: return .null
    case 1: return .string("5")
    case 2: return JSONValue(integerLiteral: byte() * 1000)
    case 3: return JSONValue(integerLiteral: pick(Self.extremes))
    default: return JSONValue(integerLiteral: byte())
    }
  }

  mutating func messages(_ key: String) -> JSONValue {
    var out: [JSONValue] = []
    for _ in 0..<(byte() % 4) {
      var m = JSONObject([.init(key: "role", value: "assistant"), .init(key: "text", value: "x")])
      m[key] = key == "uuid" ? .string(id("u", byte() % 16)) : number()
      if byte() % 5 == 0 { m["session_id"] = .string(pick(Self.sessions)) }
      out.append(.object(m))
    }
    if byte() % 9 == 0 { out.append("junk") }
    return .array(out)
  }

  mutating func serverFrame() -> JSONObject {
    let session = JSONValue.string(pick(Self.sessions))
    var f = JSONObject()
    switch byte() % 16 {
    case 0:
      f["type"] = "hello"
      f["version"] = pick(["0.2.0", "0.3.0", "0.4.0", "0.5.0", "9", "0.5.0-rc1"])
      f["auth_version"] = 1
      if byte() % 2 == 0 {
        f["protocol_versions"] = ["0.4.0", "0.5.0"]
        f["capabilities"] = .array(Capability.all.map { .string($0) })
      }
      if byte() % 3 == 0 {
        f["auth_versions"] = [1, 2]
        f["challenge"] = "a1a1"
      }
    case 1:
      f["type"] = "connected"
      f["negotiated_protocol_version"] = pick(["0.2.0", "0.4.0", "0.5.0", "7.0.0", nil])
      if byte() % 2 == 0 { f["capabilities"] = .array([.string(pick(Capability.all))]) }
      if byte() % 2 == 0 { f["server_proof"] = "00" }
    case 2: f["type"] = "auth_error"
    case 3:
      f = JSONObject([.init(key: "type", value: "error"), .init(key: "code", value: "unsupported_protocol_version")])
    case 4:
      f["type"] = pick(["pong", "heartbeat", "session_list", "session_ready", "turn_complete", "command_started"])
    case 5:
      f["type"] = "draining"
      f["retry_after_ms"] = number()
    case 6, 7:
      f["type"] = "session_history"
      f["messages"] = messages("offset")
      f["next_offset"] = number()
      f["end_of_file"] = .bool(byte() % 3 != 0)
      f["file_signature"] = pick(["10:u", "20:u", "5:v", nil])
      if byte() % 6 == 0 { f["file_replaced"] = true }
    case 8:
      f["type"] = "session_history"
      f["messages"] = messages("seq")
      f["last_seq"] = number()
      f["next_seq"] = number()
      f["is_complete"] = .bool(byte() % 3 != 0)
      if byte() % 4 == 0 {
        f["gap"] = .object(
          JSONObject([
            .init(key: "reason", value: "client_ahead"), .init(key: "requested_last_seq", value: number()),
            .init(key: "min_available_seq", value: number()),
          ]))
      }
    case 9:
      f["type"] = pick(["session_history", "session_updated"])
      f["messages"] = messages("uuid")
      f["newest_message_id"] = pick(["u1", nil])
    case 10, 11:
      f["type"] = pick(["response", "replay", "error"])
      f["message_id"] = .string(id("m", byte() % 16))
    case 12: f["type"] = pick(["command_error", "session_name_inferred", "command_output_full", "ack"])
    case 13:
      f["type"] = "error"
      f["message"] = pick([
        "working_directory required in execute_command message", "Unknown message type: get_command_output",
        "Command output not found: cmd-1", "text required in prompt message", "Error processing message: x",
      ])
    default: f["type"] = .string(pick(["", "x", "hello", "connected"]))
    }
    if f["session_id"] == nil, byte() % 4 != 0 { f["session_id"] = session }
    return f
  }

  mutating func clientFrame() -> JSONObject {
    var f = JSONObject()
    f["type"] = .string(
      pick(["execute_command", "get_command_output", "infer_session_name", "prompt", "ping", "refresh_sessions"]))
    f["session_id"] = .string(pick(Self.sessions))
    if byte() % 3 == 0 { f["new_session_id"] = .string("n\(byte())") }
    return f
  }

  // MARK: server

  /// Runs the server engine on the bytes; returns the first invariant broken, or `nil`.
  public mutating func runServer() -> String? {
    // A 0.2.0 server, a default one (0.4.0 to 0.5.0) and one rolled back (0.3.0 to 0.5.0).
    let versions: [ServerVersions] = [
      .legacy, .negotiating(floor: .v0_4_0, ceiling: .v0_5_0), .negotiating(floor: .v0_3_0, ceiling: .v0_5_0),
    ]
    let offer = ServerOffer(
      versions: pick(versions),
      authVersions: pick([[1], [1, 2], [2]]), capabilities: byte() % 2 == 0 ? Capability.all : [])
    var engine = ServerEngine(
      ServerConfiguration(
        offer: offer, apiKey: Self.key, maxSubscriptions: 2, replayBufferBytes: 256, envelopes: EnvelopeCodec()))
    return drive(
      &engine, advances: [0, 1, 1_000, 45_000, 60_000], event: { $0.serverEvent(armed: $1) }, check: Self.checkServer)
  }

  /// The server's invariants after one event it handled (listed in the type's documentation).
  static func checkServer(
    _ engine: ServerEngine, before: ServerState, event: ServerEvent, actions: [ServerAction],
    armed: inout [ConnectionTimer]
  ) -> String? {
    if before == .closed, !actions.isEmpty { return "a closed server emitted \(actions.count) actions" }
    var authenticated = before == .authenticated
    // `connected` is the handshake's last frame: it must be followed by the authenticated event.
    let authenticates = actions.contains {
      if case .deliver(.authenticated) = $0 { return true } else { return false }
    }
    for action in actions {
      switch action {
      case .deliver(.authenticated): authenticated = true
      case .send(let message):
        let type = (try? JSONReader().parse(message.bytes))?["type"]?.stringValue ?? ""
        let allowed =
          Self.serverFramesBeforeAuthentication.contains(type) && (type != "connected" || authenticates)
        if !authenticated, !allowed {
          return "server sent \(type) before authentication"
        }
      case .armTimer(let timer, _): if !armed.contains(timer) { armed.append(timer) }
      case .cancelTimer(let timer): armed.removeAll { $0 == timer }
      default: break
      }
    }
    if engine.memory.unacknowledged.count > ServerMemory.replayCapacity
      || engine.memory.replayBytes > engine.configuration.replayBufferBytes
    {
      return "replay buffer overflow"
    }
    if engine.memory.idempotencyKeyCount > ServerMemory.idempotencyCapacity { return "idempotency window overflow" }
    if engine.subscribedCount > engine.configuration.maxSubscriptions { return "subscriptions overflow" }
    return nil
  }

  mutating func serverEvent(armed: [ConnectionTimer]) -> ServerEvent {
    switch byte() % 10 {
    case 0: return .transportOpened(challenge: byte() % 2 == 0 ? "a1a1" : nil)
    case 1, 2, 3, 4: return .received(.text(JSONValue.object(clientRequest()).jsonText))
    case 5: return .received(.text("bad"))
    case 6: return .timerFired(armed.isEmpty ? .heartbeat : pick(armed))
    case 7:
      var f = JSONObject([
        .init(
          key: "type",
          value: .string(pick(["session_history", "response", "heartbeat", "draining", "replay", "session_list"])))
      ])
      f["session_id"] = .string(pick(Self.sessions))
      if byte() % 2 == 0 { f["message_id"] = .string(id("m", byte())) }
      // Typed when the frame is a valid 0.5.0 message, else kept whole (as a newer server's type).
      let decoder = MessageDecoder(options: ValidationOptions(direction: .serverToClient, version: .v0_5_0))
      return .send((try? decoder.decodeServerMessage(Array(JSONValue.object(f).jsonText.utf8))) ?? .unknown(f))
    case 8: return pick([.drain(retryAfterMs: byte(), message: "bye"), .close, .transportClosed])
    default: return .received(.text(JSONValue.object(clientRequest()).jsonText))
    }
  }

  mutating func clientRequest() -> JSONObject {
    var f = JSONObject()
    switch byte() % 9 {
    case 0, 1:
      f["type"] = "connect"
      if byte() % 4 != 0 { f["api_key"] = .string(byte() % 3 == 0 ? "wrong" : Self.key) }
      if byte() % 2 == 0 { f["protocol_version"] = .string(pick(["0.2.0", "0.3.0", "0.4.0", "0.5.0", "x"])) }
      if byte() % 3 == 0 { f["capabilities"] = .array(Capability.all.map { .string($0) }) }
      if byte() % 4 == 0 {
        f["auth_response"] = .string(String(repeating: "0", count: 64))
        f["client_nonce"] = .string(String(repeating: "a", count: 32))
      }
    case 2: f["type"] = "ping"
    case 3:
      f["type"] = "subscribe"
      f["session_id"] = .string(pick(Self.sessions))
      f[pick(["from_offset", "last_seq", "last_message_id", "file_signature_seen"])] = number()
    case 4:
      f["type"] = pick(["unsubscribe", "message_ack", "disconnect"])
      f["session_id"] = .string(pick(Self.sessions))
      f["message_id"] = .string(id("m", byte()))
    case 5:
      f["type"] = "prompt"
      f["text"] = "go"
      f["idempotency_key"] = .string(id("k", byte()))
    default: f["type"] = .string(pick(["", "execute_command", "refresh_sessions", "junk"]))
    }
    return f
  }
}

/// What ``EngineExerciser/drive(_:advances:event:check:)`` needs of an engine; both engines have it.
protocol ExercisedEngine {
  associatedtype State: Hashable
  associatedtype Event: NamedEvent
  associatedtype Action: Equatable
  var state: State { get }
  mutating func handle(_ event: Event, now: Int64, into actions: inout [Action]) throws(IllegalEvent)
  /// An action the exerciser puts in the buffer before each event, which the engine must leave alone.
  static var sentinel: Action { get }
  /// Whether the engine ignores `event` before its transition table is consulted (a client transport
  /// event naming another transport than the current one): nothing may change.
  func ignores(_ event: Event) -> Bool
}

/// An engine event with its name in the transition tables.
protocol NamedEvent {
  var name: String { get }
}

extension ClientEngine: ExercisedEngine {
  static var sentinel: ClientAction { .cancelTimer(.continuation(sessionId: "sentinel")) }
  /// The engine's ``ClientActions`` form, its actions then appended to `actions` in order.
  mutating func handle(_ event: ClientEvent, now: Int64, into actions: inout [ClientAction]) throws(IllegalEvent) {
    var buffer = ClientActions()
    try handle(event, now: now, into: &buffer)
    buffer.drain { actions.append($0) }
  }
  func ignores(_ event: ClientEvent) -> Bool {
    switch event {
    case .transportOpened(let id, _), .transportClosed(let id, _): return id != currentTransport
    default: return false
    }
  }
}

extension ServerEngine: ExercisedEngine {
  static var sentinel: ServerAction { .cancelTimer(.continuation(sessionId: "sentinel")) }
  /// The engine's ``ServerActions`` form, its actions then appended to `actions` in order.
  mutating func handle(_ event: ServerEvent, now: Int64, into actions: inout [ServerAction]) throws(IllegalEvent) {
    var buffer = ServerActions()
    try handle(event, now: now, into: &buffer)
    buffer.drain { actions.append($0) }
  }
  func ignores(_ event: ServerEvent) -> Bool { false }
}
extension ClientEvent: NamedEvent {}
extension ServerEvent: NamedEvent {}
