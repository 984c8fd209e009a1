/// The client's transition table, as data: for each state, the events it accepts and the states each
/// may lead to. An event with no entry is an ``IllegalEvent``; the engine never moves to a state the
/// table does not list (the tests and the fuzz target check it).
///
/// Events that are legal everywhere but change nothing in some states (a frame still in flight after
/// the client closed, a timer that raced its cancellation) are listed with their own state as target.
/// The transport events are those of the engine's current transport: one naming another
/// (``ClientEngine/currentTransport``) is ignored before the table is consulted, in every state, and
/// only a live state has a current transport.
public enum ClientTransitions {
  /// `table[state][event name]` = the states the event may lead to.
  public static let table: [ClientState: [String: Set<ClientState>]] = {
    let down: Set<ClientState> = [.backingOff, .stopped, .reauthRequired, .upgradeRequired]
    let live: [ClientState] = [.connecting, .awaitingHello, .awaitingConnected, .ready]
    let parked: [ClientState] = [.backingOff, .reauthRequired, .upgradeRequired, .stopped]
    var t: [ClientState: [String: Set<ClientState>]] = [:]
    for s in ClientState.allCases {
      t[s] = [
        "subscribe": [s], "unsubscribe": [s], "stop": [.stopped], "timer": [s],
      ]
    }
    t[.idle]!["start"] = [.connecting]
    t[.idle]!["resume"] = [.idle]
    for s in live {
      t[s]!["start"] = [s]
      t[s]!["resume"] = [s]
      t[s]!["transport_closed"] = down
      t[s]!["timer"] = down.union([s])
    }
    t[.connecting]!["transport_opened"] = [.awaitingHello]
    t[.awaitingHello]!["frame"] = down.union([.awaitingHello, .awaitingConnected])
    t[.awaitingConnected]!["frame"] = down.union([.awaitingConnected, .ready])
    t[.ready]!["frame"] = down.union([.ready])
    // A channel of authenticated frames that used its last sequence number while sending closes the
    // connection (STANDARDS.md#negotiation-and-auth).
    t[.ready]!["send"] = down.union([.ready])
    // Not ready but on the way: a request with a request id waits in the outbox
    // (``ClientConfiguration/outboxCapacity``); one without is refused by the engine.
    for s in [ClientState.connecting, .awaitingHello, .awaitingConnected, .backingOff] { t[s]!["send"] = [s] }
    t[.ready]!["subscribe"] = down.union([.ready])
    t[.ready]!["unsubscribe"] = down.union([.ready])
    for s in parked {
      t[s]!["start"] = [.connecting]
      t[s]!["frame"] = [s]
    }
    t[.backingOff]!["resume"] = [.connecting]
    t[.backingOff]!["timer"] = [.backingOff, .connecting]
    t[.stopped]!["resume"] = [.connecting]
    t[.reauthRequired]!["resume"] = [.reauthRequired]
    t[.upgradeRequired]!["resume"] = [.upgradeRequired]
    return t
  }()

  /// The only frames a client sends before it is authenticated: the catalog's client-to-server types
  /// that do not ``MessageSpec/requiresAuthentication`` (`connect`, `ping`).
  public static let framesBeforeAuthentication: Set<String> = EngineFacts.clientFramesBeforeAuthentication

  /// The states `event` may lead to from `state`, or `nil` when the event is illegal there.
  public static func targets(from state: ClientState, on event: String) -> Set<ClientState>? {
    table[state]?[event]
  }

  /// The event names in ``ClientEvent/kind`` order.
  static let eventNames = [
    "start", "resume", "stop", "transport_opened", "transport_closed", "frame", "timer", "subscribe", "unsubscribe",
    "send",
  ]

  /// ``table`` as a flat array for the engine's per-event check: entry `state.ordinal * eventNames.count +
  /// event.kind` is a bit mask of the target states (bit `ordinal`), 0 when the event is illegal. Built
  /// from ``table``, so the two cannot disagree.
  static let flat = FlatTransitionTable.build(table, eventNames: eventNames, ordinal: \.ordinal, as: UInt16.self)

  /// The target mask of `kind` in `state` (0: illegal).
  @inline(__always)
  static func mask(_ state: ClientState, _ kind: Int) -> UInt16 { flat[state.ordinal * eventNames.count + kind] }
}

extension ClientState {
  /// The state's index in ``allCases`` (the row of ``ClientTransitions/flat``).
  var ordinal: Int {
    switch self {
    case .idle: return 0
    case .connecting: return 1
    case .awaitingHello: return 2
    case .awaitingConnected: return 3
    case .ready: return 4
    case .backingOff: return 5
    case .reauthRequired: return 6
    case .upgradeRequired: return 7
    case .stopped: return 8
    }
  }
}
