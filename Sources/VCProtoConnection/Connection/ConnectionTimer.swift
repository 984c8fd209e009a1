import VCProtoCore
import VCProtoJSON

/// A timer an engine asks its host to run. The host arms it with ``ClientAction/armTimer(_:at:)`` or
/// ``ServerAction/armTimer(_:at:)`` and, when the deadline passes, feeds it back as a timer event.
/// Arming a timer that is already armed replaces its deadline. A fire the engine no longer expects
/// (cancelled, re-armed later) is ignored, so hosts need not worry about races.
public enum ConnectionTimer: Sendable, Hashable, CustomStringConvertible {
  /// Client: the transport asked for did not open (connect and WebSocket upgrade) in time
  /// (``ClientTiming/connectTimeoutMs``).
  case connectDeadline
  /// Client: the socket opened but the handshake did not finish (``ClientTiming/handshakeTimeoutMs``).
  case handshakeDeadline
  /// Client: next reconnect attempt.
  case reconnect
  /// Client: next keepalive `ping`.
  case ping
  /// Client: no frame arrived since the last `ping` within ``ClientTiming/pongTimeoutMs``.
  case pongDeadline
  /// Client (heartbeat extension): no frame for ``ClientTiming/heartbeatTimeoutMs``.
  case heartbeatDeadline
  /// Client: retry a continuation that did not advance (a half-written last line).
  case continuation(sessionId: String)
  /// Client: the earliest answer deadline of the requests waiting (``ClientTiming/requestTimeoutMs``).
  case requestDeadline
  /// Client: the earliest deadline of the requests in the outbox (made while not ready), which then
  /// fail with ``RequestFailure/timeout``. It survives a lost connection, unlike the other timers.
  case outboxDeadline
  /// Server (heartbeat extension): send the next `heartbeat`.
  case heartbeat
  /// Server: the client did not authenticate in time.
  case authDeadline

  /// The name used in conversation vectors: `ping`, `continuation:<session id>`, ...
  public var description: String {
    switch self {
    case .connectDeadline: return "connect_deadline"
    case .handshakeDeadline: return "handshake_deadline"
    case .reconnect: return "reconnect"
    case .ping: return "ping"
    case .pongDeadline: return "pong_deadline"
    case .heartbeatDeadline: return "heartbeat_deadline"
    case .continuation(let id): return "continuation:" + id
    case .requestDeadline: return "request_deadline"
    case .outboxDeadline: return "outbox_deadline"
    case .heartbeat: return "heartbeat"
    case .authDeadline: return "auth_deadline"
    }
  }

  /// The timer named `name` (the inverse of ``description``), or `nil`.
  public init?(name: String) {
    switch name {
    case "connect_deadline": self = .connectDeadline
    case "handshake_deadline": self = .handshakeDeadline
    case "reconnect": self = .reconnect
    case "ping": self = .ping
    case "pong_deadline": self = .pongDeadline
    case "heartbeat_deadline": self = .heartbeatDeadline
    case "request_deadline": self = .requestDeadline
    case "outbox_deadline": self = .outboxDeadline
    case "heartbeat": self = .heartbeat
    case "auth_deadline": self = .authDeadline
    default:
      guard name.hasPrefix("continuation:") else { return nil }
      self = .continuation(sessionId: String(name.dropFirst("continuation:".count)))
    }
  }
}
