import VCProtoCore
import VCProtoJSON

extension ServerConfiguration {
  /// This configuration held to its valid ranges, as a ``ServerEngine`` uses it (see
  /// ``ServerConfiguration``): the heartbeat period and authentication timeout at least 1 ms, the
  /// subscription limit, session id length and replay budget at least 0, and the offer without the
  /// compression capabilities ``envelopes`` cannot open. In range, a value is kept.
  var clamped: ServerConfiguration {
    var c = self
    c.offer.capabilities = Capability.negotiable(offer.capabilities, envelopes: envelopes)
    c.heartbeatIntervalMs = max(1, heartbeatIntervalMs)
    c.authTimeoutMs = max(1, authTimeoutMs)
    c.maxSubscriptions = max(0, maxSubscriptions)
    c.maxSessionIdBytes = max(0, maxSessionIdBytes)
    c.replayBufferBytes = max(0, replayBufferBytes)
    return c
  }
}
