/// The server's transition table, as data (see ``ClientTransitions``).
public enum ServerTransitions {
  /// `table[state][event name]` = the states the event may lead to.
  public static let table: [ServerState: [String: Set<ServerState>]] = [
    .idle: ["transport_opened": [.awaitingConnect], "close": [.closed], "transport_closed": [.closed]],
    .awaitingConnect: [
      "frame": [.awaitingConnect, .authenticated, .closed], "malformed_frame": [.awaitingConnect],
      "timer": [.awaitingConnect, .closed], "close": [.closed], "drain": [.closed], "transport_closed": [.closed],
    ],
    .authenticated: [
      "frame": [.authenticated, .closed], "malformed_frame": [.authenticated], "timer": [.authenticated],
      "send": [.authenticated], "close": [.closed], "drain": [.closed], "transport_closed": [.closed],
    ],
    .closed: [
      "frame": [.closed], "malformed_frame": [.closed], "timer": [.closed], "close": [.closed], "drain": [.closed],
      "transport_closed": [.closed],
    ],
  ]

  /// The only frames a server sends to a client that is not authenticated (`connected` as the
  /// handshake's verdict).
  public static let framesBeforeAuthentication: Set<String> = ["hello", "pong", "auth_error", "error", "connected"]

  /// The states `event` may lead to from `state`, or `nil` when it is illegal there.
  public static func targets(from state: ServerState, on event: String) -> Set<ServerState>? {
    table[state]?[event]
  }
}
