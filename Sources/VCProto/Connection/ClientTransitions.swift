/// The client's transition table, as data: for each state, the events it accepts and the states each
/// may lead to. An event with no entry is an ``IllegalEvent``; the engine never moves to a state the
/// table does not list (the tests and the fuzz target check it).
///
/// Events that are legal everywhere but change nothing in some states (a frame still in flight after
/// the client closed, a timer that raced its cancellation) are listed with their own state as target.
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
    t[.ready]!["send"] = [.ready]
    for s in parked {
      t[s]!["start"] = [.connecting]
      t[s]!["transport_closed"] = [s]
      t[s]!["frame"] = [s]
    }
    t[.backingOff]!["resume"] = [.connecting]
    t[.backingOff]!["timer"] = [.backingOff, .connecting]
    t[.stopped]!["resume"] = [.connecting]
    t[.reauthRequired]!["resume"] = [.reauthRequired]
    t[.upgradeRequired]!["resume"] = [.upgradeRequired]
    return t
  }()

  /// The only frames a client sends before it is authenticated.
  public static let framesBeforeAuthentication: Set<String> = ["connect", "ping"]

  /// The states `event` may lead to from `state`, or `nil` when the event is illegal there.
  public static func targets(from state: ClientState, on event: String) -> Set<ClientState>? {
    table[state]?[event]
  }
}
