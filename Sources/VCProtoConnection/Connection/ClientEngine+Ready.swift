import VCProtoCore
import VCProtoJSON

extension ClientEngine {
  /// A frame on an authenticated connection, as its typed message (consumed: it moves into the
  /// action that delivers it).
  mutating func onReady(_ typed: consuming ServerMessage, now: Int64, _ out: inout ClientActions) {
    switch typed {
    case .pong:
      pingSentAt = nil
      cancel(.pongDeadline, &out)
      return
    case .heartbeat:
      return  // liveness only (noted in lastFrameAt); ignored without the capability too
    case .draining(let draining):
      guard capabilityFlags.contains(.draining) else { break }
      drainRetryAfterMs = min(max(0, Int64(draining.retryAfterMs)), 3_600_000)
      connectionLost(.draining, now: now, close: true, &out)
      return
    case .authError:
      // An authenticated connection never gets one from a correct server; treat it as a refusal.
      authFailures += 1
      connectionLost(.authFailed, now: now, close: true, &out)
      return
    case .sessionHistory:
      onHistory(typed, now: now, &out)
      return
    case .sessionUpdated(let updated):
      if family == .messageId, onUpdated(updated, now: now, &out) { return }
    case .sessionReady, .sessionCreated, .turnComplete:
      if let id = typed.sessionIdMember { pendingNewSessions.removeAll { $0.hasSameScalars(as: id) } }
    default: break
    }
    if capabilityFlags.contains(.messageAck), let id = typed.messageIdMember {
      emit(.messageAck(MessageAckMessage(messageId: id)), &out)
      guard seenMessageIds.insert(id) else { return }  // a `replay` of a frame already delivered
    }
    if let requestId = resolvePending(typed)?.id {
      out.append(.deliver(.answered(requestId: requestId, message: typed)))
      return
    }
    out.append(.deliver(.received(typed)))
  }
}
