import VCProtoCore
import VCProtoJSON

/// The client's transition table, as data: for each state, the events it accepts and the states each
/// may lead to. An event with no entry is an ``IllegalEvent``; the engine never moves to a state the
/// table does not list (the tests and the fuzz target check it).
///
/// Events that are legal everywhere but change nothing in some states (a frame still in flight after
/// the client closed, a timer that raced its cancellation) are listed with their own state as target.
/// The transport events are those of the engine's current transport: one naming another
/// (``ClientEngine/currentTransport``) is ignored before the table is consulted, in every state, and
/// only a live state has a current transport.
package enum ClientTransitions {
  /// `table[state][kind]` = the states the event may lead to; every (state, kind) pair is present,
  /// an empty set meaning illegal.
  package static let table: [ClientState: [ClientEventKind: Set<ClientState>]] = {
    let down: Set<ClientState> = [.backingOff, .stopped, .reauthRequired, .upgradeRequired]
    let live: [ClientState] = [.connecting, .awaitingHello, .awaitingConnected, .ready]
    let parked: [ClientState] = [.backingOff, .reauthRequired, .upgradeRequired, .stopped]
    var t = FlatTransitionTable.empty(ClientState.self, ClientEventKind.self)
    for s in ClientState.allCases {
      t[s]![.subscribe] = [s]
      t[s]![.unsubscribe] = [s]
      t[s]![.stop] = [.stopped]
      t[s]![.timer] = [s]
    }
    t[.idle]![.start] = [.connecting]
    t[.idle]![.resume] = [.idle]
    for s in live {
      t[s]![.start] = [s]
      t[s]![.resume] = [s]
      t[s]![.transportClosed] = down
      t[s]![.timer] = down.union([s])
    }
    t[.connecting]![.transportOpened] = [.awaitingHello]
    t[.awaitingHello]![.frame] = down.union([.awaitingHello, .awaitingConnected])
    t[.awaitingConnected]![.frame] = down.union([.awaitingConnected, .ready])
    t[.ready]![.frame] = down.union([.ready])
    // A channel of authenticated frames that used its last sequence number while sending closes the
    // connection (STANDARDS.md#negotiation-and-auth).
    t[.ready]![.send] = down.union([.ready])
    // Not ready but on the way: a request with a request id waits in the outbox
    // (``ClientConfiguration/outboxCapacity``); one without is refused by the engine.
    for s in [ClientState.connecting, .awaitingHello, .awaitingConnected, .backingOff] { t[s]![.send] = [s] }
    t[.ready]![.subscribe] = down.union([.ready])
    t[.ready]![.unsubscribe] = down.union([.ready])
    for s in parked {
      t[s]![.start] = [.connecting]
      t[s]![.frame] = [s]
    }
    t[.backingOff]![.resume] = [.connecting]
    t[.backingOff]![.timer] = [.backingOff, .connecting]
    t[.stopped]![.resume] = [.connecting]
    t[.reauthRequired]![.resume] = [.reauthRequired]
    t[.upgradeRequired]![.resume] = [.upgradeRequired]
    return t
  }()

  /// The only frames a client sends before it is authenticated: the catalog's client-to-server types
  /// that do not ``MessageSpec/requiresAuthentication`` (`connect`, `ping`).
  package static let framesBeforeAuthentication: Set<String> = EngineFacts
    .clientFramesBeforeAuthentication

  /// The states an event of `kind` may lead to from `state`, or `nil` when it is illegal there.
  package static func targets(from state: ClientState, on kind: ClientEventKind) -> Set<ClientState>? {
    table[state].flatMap { $0[kind] }.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The same for the event kind named `name` (``ClientEvent/name``); `nil` for a name no kind has.
  package static func targets(from state: ClientState, on name: String) -> Set<ClientState>? {
    ClientEventKind(rawValue: name).flatMap { targets(from: state, on: $0) }
  }

  /// ``table`` as a flat array for the engine's per-event check (``FlatTransitionTable``): entry
  /// `state.ordinal * ClientEventKind.allCases.count + kind.ordinal` is a bit mask of the target
  /// states, 0 when the event is illegal. Built from ``table``, so the two cannot disagree.
  static let flat = FlatTransitionTable.build(table, as: UInt16.self)

  /// The target mask of `kind` in `state` (0: illegal).
  @inline(__always)
  static func mask(_ state: ClientState, _ kind: ClientEventKind) -> UInt16 {
    flat[state.ordinal &* ClientEventKind.allCases.count &+ kind.ordinal]
  }
}

extension ClientState: TransitionIndexed {
  /// The state's index in ``allCases`` (the row of `ClientTransitions.flat`).
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
