import VCProtoCore
import VCProtoJSON

/// A request the application made while the client was not ready, waiting in the outbox to be sent
/// once the connection is ready (``ClientConfiguration/outboxCapacity``).
struct QueuedRequest: Sendable {
  /// The message, encoded when it is sent.
  var message: ClientMessage
  /// The application's request id: how a failure is reported.
  var requestId: String
  /// When the request fails with ``RequestFailure/timeout`` (host milliseconds): its request
  /// timeout counted from the application's call. It keeps this deadline once sent.
  var deadline: Int64
}

extension ClientEngine {
  /// Whether a ``ClientEvent/send(_:requestId:)`` with a request id is taken now: sent when
  /// ``ClientState/ready``, queued in the outbox while connecting, handshaking or backing off. In the
  /// other states (``ClientState/idle``, and parked until the application acts:
  /// ``ClientState/reauthRequired``, ``ClientState/upgradeRequired``, ``ClientState/stopped``) a send
  /// is an ``IllegalEvent``.
  public var acceptsRequests: Bool { state == .ready || Self.queueing(state) }

  /// The states in which a request with a request id waits in the outbox instead of being sent.
  static func queueing(_ state: ClientState) -> Bool {
    switch state {
    case .connecting, .awaitingHello, .awaitingConnected, .backingOff: return true
    case .idle, .ready, .reauthRequired, .upgradeRequired, .stopped: return false
    }
  }

  /// The request's timeout: ``ClientTiming/slowRequestTimeoutMs`` for the slow types, else
  /// ``ClientTiming/requestTimeoutMs``.
  func requestTimeout(_ type: String) -> Int64 {
    let timing = configuration.timing
    return Self.slowRequestTypes.contains(type) ? timing.slowRequestTimeoutMs : timing.requestTimeoutMs
  }

  /// Queues `message` (the client is not ready): it fails at once with ``RequestFailure/outboxFull``
  /// when the outbox is full; else it waits, and `outbox_deadline` moves to its deadline when that is
  /// the earliest.
  mutating func enqueue(_ message: ClientMessage, requestId: String, now: Int64, _ out: inout ClientActions) {
    guard outbox.count < configuration.outboxCapacity else {
      out.append(.deliver(.requestFailed(requestId: requestId, reason: .outboxFull)))
      return
    }
    let deadline = now.addingSaturating(requestTimeout(message.type))
    outbox.append(QueuedRequest(message: message, requestId: requestId, deadline: deadline))
    if armed[.outboxDeadline].map({ deadline < $0 }) ?? true {
      arm(.outboxDeadline, at: deadline, &out)
    }
  }

  /// The connection is ready: every queued request is sent, oldest first, with the deadline it was
  /// given when queued; then `outbox_deadline` is cancelled.
  mutating func flushOutbox(now: Int64, _ out: inout ClientActions) {
    guard !outbox.isEmpty else { return }
    let queued = outbox
    outbox = []
    for request in queued {
      send(request.message, requestId: request.requestId, now: now, deadline: request.deadline, &out)
    }
    cancel(.outboxDeadline, &out)
  }

  /// `outbox_deadline` fired: every queued request due by `now` fails with
  /// ``RequestFailure/timeout``, oldest first, and the timer moves to the earliest deadline left.
  mutating func expireOutbox(now: Int64, _ out: inout ClientActions) {
    var next: Int64?
    outbox.removeAll { request in
      guard request.deadline <= now else {
        next = min(next ?? request.deadline, request.deadline)
        return false
      }
      out.append(.deliver(.requestFailed(requestId: request.requestId, reason: .timeout)))
      return true
    }
    if let next { arm(.outboxDeadline, at: next, &out) }
  }

  /// Every queued request fails with `reason`, oldest first, and `outbox_deadline` is cancelled.
  mutating func failOutbox(_ reason: RequestFailure, _ out: inout ClientActions) {
    guard !outbox.isEmpty else { return }
    for request in outbox { out.append(.deliver(.requestFailed(requestId: request.requestId, reason: reason))) }
    outbox = []
    cancel(.outboxDeadline, &out)
  }
}
