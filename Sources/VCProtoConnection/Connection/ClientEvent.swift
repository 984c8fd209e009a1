import VCProtoCore
import VCProtoJSON

/// What the host feeds a ``ClientEngine``: things that happened on the socket, timers, and requests
/// from the application. Time is not here: every call passes `now`.
public enum ClientEvent: Sendable, Hashable {
  /// Application: connect (also after `reauth_required`/`upgrade_required`, once the user acted).
  case start
  /// Application: the app came to the foreground or the user forced a reconnect: reset the backoff
  /// and reconnect now if the connection is down.
  case resume
  /// Application or host: close on purpose (sends `disconnect {reason}` when negotiated), or end
  /// reconnecting while backing off; no reconnect. The application gets
  /// ``ClientApplicationEvent/stopped(reason:)`` with `reason` (unless the client was stopped already).
  case stop(reason: String)
  /// Transport: the socket ``ClientAction/openTransport(_:)`` asked for is open. `clientNonce` is 128
  /// fresh random bits, lowercase hex, for auth v2. Ignored unless it names the engine's current
  /// transport (``ClientEngine/currentTransport``).
  case transportOpened(TransportID, clientNonce: String)
  /// Transport: the socket closed or failed by itself (or could not be opened). Ignored unless it
  /// names the engine's current transport: after ``ClientAction/closeTransport(_:_:)`` the engine is
  /// done with that socket, and a late report of its close cannot end the connection that replaced it.
  case transportClosed(TransportID, detail: String)
  /// Transport: a WebSocket data message from the server, its bytes exactly as they arrived. The
  /// engine opens a compression envelope (when negotiated) and a sealed frame (when authenticated
  /// frames are in force), then decodes the frame once, with the connection's negotiated version
  /// (before negotiation: as a handshake message). A frame that fails validation is never delivered
  /// as if it were fine: the application gets ``ClientApplicationEvent/violation(_:)`` instead.
  case received(WebSocketMessage)
  /// A timer the engine armed has expired.
  case timerFired(ConnectionTimer)
  /// Application: keep this session subscribed (now and after every reconnect), resuming from
  /// `cursor` (the position the app has stored) or from the start. A negative `last_seq` or
  /// offset is no position: the session is fetched from the start (the server refuses a negative one).
  case subscribe(sessionId: String, cursor: SubscriptionCursor?)
  /// Application: stop following this session.
  case unsubscribe(sessionId: String)
  /// Application: send a message (the engine encodes it once, ``MessageEncoder``). A `requestId`
  /// makes the engine track the answer: the app gets
  /// ``ClientApplicationEvent/answered(requestId:message:)`` (the answer, or an `error` refusing the
  /// request) or, if the connection drops first, ``ClientApplicationEvent/requestFailed(requestId:reason:)``;
  /// only types with a known answer (``ClientEngine/answerTypes``) are tracked. Without a `requestId`
  /// such a request still takes its place in the answer order and its answer is delivered as
  /// ``ClientApplicationEvent/received(_:)``.
  ///
  /// When ready, the message goes out at once. While connecting, handshaking or backing off, a
  /// message with a `requestId` waits in the outbox (at most ``ClientConfiguration/outboxCapacity``,
  /// oldest first) and is sent once the connection is ready, after the `subscribe`s; it fails with
  /// ``ClientApplicationEvent/requestFailed(requestId:reason:)`` instead when the outbox is full
  /// (``RequestFailure/outboxFull``), at its request timeout counted from this event
  /// (``RequestFailure/timeout``; the deadline stays the same once sent), when the client is stopped
  /// (``RequestFailure/stopped``) or stops reconnecting by itself (``RequestFailure/notReconnecting``).
  /// A message without a `requestId` is refused then (``IllegalEvent``), as is any send in the other
  /// states (``ClientEngine/acceptsRequests``).
  case send(ClientMessage, requestId: String?)

  /// The name used in errors and vectors (the kind's raw value).
  public var name: String { kind.rawValue }

  /// The event's kind: its column in `ClientTransitions.table`.
  public var kind: ClientEventKind {
    switch self {
    case .start: return .start
    case .resume: return .resume
    case .stop: return .stop
    case .transportOpened: return .transportOpened
    case .transportClosed: return .transportClosed
    case .received: return .frame
    case .timerFired: return .timer
    case .subscribe: return .subscribe
    case .unsubscribe: return .unsubscribe
    case .send: return .send
    }
  }
}
