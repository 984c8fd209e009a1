import VCProtoCore
import VCProtoJSON

extension ConnectionTimer {
  /// Equal when the same timer: a continuation timer's session id compared by its exact scalars, not
  /// by canonical equivalence as `String`'s `==` is (STANDARDS.md#encoding, identifiers a peer
  /// chooses), so two sessions whose ids are canonically equivalent have two timers, in the engine and
  /// in a host's dictionary.
  public static func == (a: ConnectionTimer, b: ConnectionTimer) -> Bool {
    switch (a, b) {
    case (.continuation(let x), .continuation(let y)): return x.hasSameScalars(as: y)
    case (.continuation, _), (_, .continuation): return false
    default: return a.ordinal == b.ordinal
    }
  }

  /// Hashes the case and, for a continuation timer, the session id's UTF-8 bytes (`ExactString`).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ordinal)
    if case .continuation(let id) = self { ExactString(id).hash(into: &hasher) }
  }

  /// The case's position in the declaration.
  private var ordinal: Int {
    switch self {
    case .handshakeDeadline: return 0
    case .reconnect: return 1
    case .ping: return 2
    case .pongDeadline: return 3
    case .heartbeatDeadline: return 4
    case .continuation: return 5
    case .requestDeadline: return 6
    case .heartbeat: return 7
    case .authDeadline: return 8
    case .connectDeadline: return 9
    case .outboxDeadline: return 10
    }
  }
}
