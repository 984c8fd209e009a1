/// The server's transition table, as data (see ``ClientTransitions``).
public enum ServerTransitions {
  /// `table[state][event name]` = the states the event may lead to.
  public static let table: [ServerState: [String: Set<ServerState>]] = [
    .idle: ["transport_opened": [.awaitingConnect], "close": [.closed], "transport_closed": [.closed]],
    .awaitingConnect: [
      "received": [.awaitingConnect, .authenticated, .closed],
      "timer": [.awaitingConnect, .closed], "close": [.closed], "drain": [.closed], "transport_closed": [.closed],
    ],
    .authenticated: [
      // A frame may close (a violation the policy closes on, a sealed frame refused, `disconnect`),
      // and so may a channel that used its last sequence number while sending (STANDARDS.md#negotiation-and-auth).
      "received": [.authenticated, .closed],
      "timer": [.authenticated, .closed], "send": [.authenticated, .closed], "close": [.closed], "drain": [.closed],
      "transport_closed": [.closed],
    ],
    .closed: [
      "received": [.closed], "timer": [.closed], "close": [.closed], "drain": [.closed],
      "transport_closed": [.closed],
    ],
  ]

  /// The only frames a server sends to a client that is not authenticated (`connected` as the
  /// handshake's verdict): the catalog's server-to-client types that do not
  /// ``MessageSpec/requiresAuthentication`` (`hello`, `pong`, `auth_error`, `error`, `connected`).
  public static let framesBeforeAuthentication: Set<String> = EngineFacts.serverFramesBeforeAuthentication

  /// The states `event` may lead to from `state`, or `nil` when it is illegal there.
  public static func targets(from state: ServerState, on event: String) -> Set<ServerState>? {
    table[state]?[event]
  }

  /// The event names in ``ServerEvent/kind`` order.
  static let eventNames = [
    "transport_opened", "received", "transport_closed", "timer", "send", "drain", "close",
  ]

  /// ``table`` as a flat array (see ``ClientTransitions/flat``): entry `state.ordinal * eventNames.count
  /// + event.kind` is a bit mask of the target states, 0 when the event is illegal.
  static let flat = FlatTransitionTable.build(table, eventNames: eventNames, ordinal: \.ordinal, as: UInt8.self)

  /// The target mask of `kind` in `state` (0: illegal).
  @inline(__always)
  static func mask(_ state: ServerState, _ kind: Int) -> UInt8 { flat[state.ordinal * eventNames.count + kind] }
}

extension ServerState {
  /// The state's index in ``allCases`` (the row of ``ServerTransitions/flat``).
  var ordinal: Int {
    switch self {
    case .idle: return 0
    case .awaitingConnect: return 1
    case .authenticated: return 2
    case .closed: return 3
    }
  }
}
