/// What the host feeds a ``ServerEngine``.
public enum ServerEvent: Sendable, Hashable {
  /// Transport: the socket is open. `challenge`: 256 fresh random bits, lowercase hex, when auth v2
  /// is offered (else `nil`). `connectionId`: the host's name for this connection, sent as
  /// `connected.session_id` only on a 0.2.0 connection whose `connect` carries none (0.2.0's
  /// `connected` requires a string there, so a host serving 0.2.0 gives one); from 0.3.0 on the
  /// member is the `connect`'s `session_id` or `null`, as the real server sends it.
  case transportOpened(challenge: String?, connectionId: String? = nil)
  /// Transport: a frame from the client, parsed.
  case frameReceived(JSONObject)
  /// Transport: a frame that is not JSON (`detail`: the parser's message, of which the answer quotes
  /// at most 200 Unicode scalars). Answered with `error`; the socket stays open, before or after
  /// authentication, as in the real server.
  case malformedFrame(detail: String)
  /// Transport: the socket closed.
  case transportClosed
  /// A timer the engine armed has expired.
  case timerFired(ConnectionTimer)
  /// Application: send a frame to this client (only once authenticated).
  case send(JSONObject)
  /// Application: the server is shutting down; clients should come back after `retryAfterMs`.
  case drain(retryAfterMs: Int, message: String)
  /// Application: close this connection.
  case close

  /// The name used in errors and vectors.
  public var name: String {
    switch self {
    case .transportOpened: return "transport_opened"
    case .frameReceived: return "frame"
    case .malformedFrame: return "malformed_frame"
    case .transportClosed: return "transport_closed"
    case .timerFired: return "timer"
    case .send: return "send"
    case .drain: return "drain"
    case .close: return "close"
    }
  }

  /// The event's column in ``ServerTransitions/flat`` (its index in ``ServerTransitions/eventNames``).
  var kind: Int {
    switch self {
    case .transportOpened: return 0
    case .frameReceived: return 1
    case .malformedFrame: return 2
    case .transportClosed: return 3
    case .timerFired: return 4
    case .send: return 5
    case .drain: return 6
    case .close: return 7
    }
  }
}
