import VCProtoCore
import VCProtoJSON

/// What a ``ClientEngine`` tells the application.
public enum ClientApplicationEvent: Sendable, Hashable {
  /// Authenticated (and, for auth v2, the server proved it knows the key).
  case connected(version: ProtocolVersion, capabilities: [String], authVersion: Int)
  /// The connection is down (`reason`); reconnecting follows unless stopped.
  case disconnected(CloseReason)
  /// The next attempt is `attempt` (1-based), due at `at`.
  case reconnectScheduled(attempt: Int, at: Int64)
  /// Reconnecting stopped after `attempts` attempts (``ClientTiming/maxReconnectAttempts``).
  case gaveUp(attempts: Int)
  /// The host stopped the client (``ClientEvent/stop(reason:)``) with `reason`, its own words: nothing
  /// more happens until ``ClientEvent/start`` or ``ClientEvent/resume``. After a live connection it
  /// follows ``disconnected(_:)``; while backing off it is how the host ends reconnecting (say, on a
  /// failure it judges permanent) and the application learns why.
  case stopped(reason: String)
  /// The credentials were refused (or the client refused the server): the user must act, then
  /// ``ClientEvent/start``.
  case reauthRequired(CloseReason)
  /// No common protocol version. `required` is the server's minimum when it said so, cut like
  /// ``Finding/messageType`` (a real one is a short version; at most 64 Unicode scalars, a longer one
  /// marked with its length in UTF-8 bytes, `0.4.0XXXX… (1000005 bytes)`).
  case upgradeRequired(required: String?)
  /// Messages of a subscribed session to insert, replace or purge. (Stored inline: boxing it cost an
  /// allocation and a copy of every member per history frame, more than the larger actions cost.)
  case sessionUpdate(SessionUpdate)
  /// The answer to a tracked request. It may be a refusal: a request-specific error frame
  /// (`command_error`, `infer_name_error`, ...) or an `error` the engine attributed to this request
  /// (STANDARDS.md#requests); either way the request is over.
  case answered(requestId: String, message: ServerMessage)
  /// A tracked request will never be answered.
  case requestFailed(requestId: String, reason: RequestFailure)
  /// Any other server message, for the application to handle: validated against the connection's
  /// version (a type from a newer peer arrives as ``ServerMessage/unknown(_:)``).
  case received(ServerMessage)
  /// A frame from the server that broke the protocol, never delivered: the validator's findings and
  /// what the engine did about it (``ProtocolViolation/Disposition``). An ordinary frame is dropped
  /// and the connection goes on; a violation during the handshake or authentication closes it
  /// (``CloseReason/protocolViolation(_:)``, then ``disconnected(_:)``). A sealed frame that does not
  /// open closes the connection as ``CloseReason/authenticatedFrame(_:)`` without this event.
  case violation(ProtocolViolation)
}

/// Why a tracked request failed.
public enum RequestFailure: String, Sendable, Hashable {
  /// The connection dropped before the answer came (the real client's `executeCommand` hung here).
  case connectionLost = "connection_lost"
  /// The application stopped the connection.
  case stopped
  /// Too many requests were already waiting (``ClientConfiguration/maxPendingRequests``).
  case tooManyPending = "too_many_pending"
  /// No answer within the request's timeout (``ClientTiming/requestTimeoutMs``, or
  /// ``ClientTiming/slowRequestTimeoutMs`` for the slow types), counted from the application's
  /// ``ClientEvent/send(_:requestId:)``: for example an `error` that could not be tied to the request
  /// refused it, and nothing else will end it before the connection drops; or the request was still
  /// in the outbox, the connection not ready in time.
  case timeout
  /// Made while the client was not ready, the request found the outbox full
  /// (``ClientConfiguration/outboxCapacity``): it was not queued and will never be sent.
  case outboxFull = "outbox_full"
  /// The request was in the outbox when the client stopped reconnecting by itself (the credentials
  /// were refused, no common version, or reconnecting gave up): it was never sent.
  case notReconnecting = "not_reconnecting"
}
