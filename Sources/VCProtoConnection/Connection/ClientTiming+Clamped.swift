import VCProtoCore
import VCProtoJSON

extension ClientTiming {
  /// These values held to their valid ranges, as a ``ClientEngine`` uses them (see
  /// ``ClientTiming``): every timer duration at least 1 ms, the backoff base, cap and floor at least
  /// 0, the jitter within 0...1 (NaN gives 0), and a negative attempt limit as 0. In range, a value is
  /// kept as it is.
  var clamped: ClientTiming {
    var t = self
    t.pingIntervalMs = max(1, pingIntervalMs)
    t.pongTimeoutMs = max(1, pongTimeoutMs)
    t.heartbeatTimeoutMs = max(1, heartbeatTimeoutMs)
    t.connectTimeoutMs = max(1, connectTimeoutMs)
    t.handshakeTimeoutMs = max(1, handshakeTimeoutMs)
    t.continuationRetryMs = max(1, continuationRetryMs)
    t.requestTimeoutMs = max(1, requestTimeoutMs)
    t.slowRequestTimeoutMs = max(1, slowRequestTimeoutMs)
    t.backoffBaseMs = max(0, backoffBaseMs)
    t.backoffCapMs = max(0, backoffCapMs)
    t.backoffFloorMs = max(0, backoffFloorMs)
    t.jitter = jitter.isNaN ? 0 : min(max(jitter, 0), 1)
    t.maxReconnectAttempts = maxReconnectAttempts.map { max(0, $0) }
    return t
  }
}
