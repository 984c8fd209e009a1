extension ClientEngine {
  /// A frame on an authenticated connection.
  mutating func onReady(
    _ frame: JSONObject, typed: ServerMessage, type: String, now: Int64, _ out: inout [ClientAction]
  ) {
    switch FrameType(type) {
    case .pong:
      pingSentAt = nil
      cancel(.pongDeadline, &out)
      return
    case .heartbeat:
      return  // liveness only (noted in lastFrameAt); ignored without the capability too
    case .draining:
      guard capabilityFlags.contains(.draining) else { break }
      let wait = frame["retry_after_ms"]?.int64Value ?? 0
      drainRetryAfterMs = min(max(0, wait), 3_600_000)
      connectionLost(.draining, now: now, close: true, &out)
      return
    case .authError:
      // An authenticated connection never gets one from a correct server; treat it as a refusal.
      authFailures += 1
      connectionLost(.authFailed, now: now, close: true, &out)
      return
    case .sessionHistory:
      if onHistory(frame, typed: typed, now: now, &out) { return }
    case .sessionUpdated:
      if family == .messageId, onHistory(frame, typed: typed, now: now, &out) { return }
    case .sessionReady, .sessionCreated, .turnComplete:
      if let id = frame["session_id"]?.stringValue { pendingNewSessions.removeAll { $0.hasSameScalars(as: id) } }
    default: break
    }
    if capabilityFlags.contains(.messageAck), let id = frame["message_id"]?.stringValue {
      emit(.frame("message_ack", "message_id", .string(id)), &out)
      guard seenMessageIds.insert(id) else { return }  // a `replay` of a frame already delivered
    }
    if let requestId = resolvePending(frame, type: type)?.id {
      out.append(.deliver(.answered(requestId: requestId, message: typed)))
      return
    }
    out.append(.deliver(.received(typed)))
  }
}
