import VCProtoCore
import VCProtoJSON

/// The server's transition table, as data (see `ClientTransitions`).
package enum ServerTransitions {
  /// `table[state][kind]` = the states the event may lead to; every (state, kind) pair is present,
  /// an empty set meaning illegal.
  package static let table: [ServerState: [ServerEventKind: Set<ServerState>]] = {
    var t = FlatTransitionTable.empty(ServerState.self, ServerEventKind.self)
    t[.idle]![.transportOpened] = [.awaitingConnect]
    t[.idle]![.close] = [.closed]
    t[.idle]![.transportClosed] = [.closed]
    t[.awaitingConnect]![.received] = [.awaitingConnect, .authenticated, .closed]
    t[.awaitingConnect]![.timer] = [.awaitingConnect, .closed]
    // A frame may close (a violation the policy closes on, a sealed frame refused, `disconnect`),
    // and so may a channel that used its last sequence number while sending
    // (STANDARDS.md#negotiation-and-auth).
    t[.authenticated]![.received] = [.authenticated, .closed]
    t[.authenticated]![.timer] = [.authenticated, .closed]
    t[.authenticated]![.send] = [.authenticated, .closed]
    t[.closed]![.received] = [.closed]
    t[.closed]![.timer] = [.closed]
    for s in [ServerState.awaitingConnect, .authenticated, .closed] {
      t[s]![.close] = [.closed]
      t[s]![.drain] = [.closed]
      t[s]![.transportClosed] = [.closed]
    }
    return t
  }()

  /// The only frames a server sends to a client that is not authenticated (`connected` as the
  /// handshake's verdict): the catalog's server-to-client types that do not
  /// ``MessageSpec/requiresAuthentication`` (`hello`, `pong`, `auth_error`, `error`, `connected`).
  package static let framesBeforeAuthentication: Set<String> = EngineFacts
    .serverFramesBeforeAuthentication

  /// The states an event of `kind` may lead to from `state`, or `nil` when it is illegal there.
  package static func targets(from state: ServerState, on kind: ServerEventKind) -> Set<ServerState>? {
    table[state].flatMap { $0[kind] }.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The same for the event kind named `name` (``ServerEvent/name``); `nil` for a name no kind has.
  package static func targets(from state: ServerState, on name: String) -> Set<ServerState>? {
    ServerEventKind(rawValue: name).flatMap { targets(from: state, on: $0) }
  }

  /// ``table`` as a flat array (see `ClientTransitions.flat`): entry `state.ordinal *
  /// ServerEventKind.allCases.count + kind.ordinal` is a bit mask of the target states, 0 when the
  /// event is illegal.
  static let flat = FlatTransitionTable.build(table, as: UInt8.self)

  /// The target mask of `kind` in `state` (0: illegal).
  @inline(__always)
  static func mask(_ state: ServerState, _ kind: ServerEventKind) -> UInt8 {
    flat[state.ordinal &* ServerEventKind.allCases.count &+ kind.ordinal]
  }
}

extension ServerState: TransitionIndexed {
  /// The state's index in ``allCases`` (the row of `ServerTransitions.flat`).
  var ordinal: Int {
    switch self {
    case .idle: return 0
    case .awaitingConnect: return 1
    case .authenticated: return 2
    case .closed: return 3
    }
  }
}
