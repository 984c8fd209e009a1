import VCProtoCore
import VCProtoJSON

extension ServerConfiguration {
  /// This configuration held to its valid ranges, as a ``ServerEngine`` uses it (see
  /// ``ServerConfiguration``): the heartbeat period and authentication timeout at least 1 ms, the
  /// replay budget at least 0, the session id length from 0 to ``maxSessionIdBytesBound``, the
  /// subscription limit from 0 to as many ids of that length as ``subscribedIdBytesBound`` holds,
  /// and the offer without the compression capabilities ``envelopes`` cannot open. In range, a value
  /// is kept.
  var clamped: ServerConfiguration {
    var c = self
    c.offer.capabilities = Capability.negotiable(offer.capabilities, envelopes: envelopes)
    c.heartbeatIntervalMs = max(1, heartbeatIntervalMs)
    c.authTimeoutMs = max(1, authTimeoutMs)
    c.maxSessionIdBytes = min(max(0, maxSessionIdBytes), Self.maxSessionIdBytesBound)
    // Each subscribed id is a record of at most its bytes plus 16 (``SessionIDSet``), whose offsets
    // must stay below 2^31: the product is held under ``subscribedIdBytesBound``.
    c.maxSubscriptions = min(max(0, maxSubscriptions), Self.subscribedIdBytesBound / (c.maxSessionIdBytes + 16))
    c.replayBufferBytes = max(0, replayBufferBytes)
    return c
  }

  /// The largest ``maxSessionIdBytes`` an engine uses: 1 MiB.
  static let maxSessionIdBytesBound = 1 << 20

  /// The most bytes the subscribed ids of one connection may take as records (512 MiB): with the
  /// removed records a set keeps until it compacts, its offsets stay below 2^31.
  static let subscribedIdBytesBound = 1 << 29
}
