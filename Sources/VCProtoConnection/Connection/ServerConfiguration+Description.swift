import VCProtoCore
import VCProtoJSON

extension ServerConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The configuration with ``apiKey`` masked: `ServerConfiguration(offer: ..., apiKey: «redacted», ...)`.
  public var description: String { customMirror.structDescription(of: "ServerConfiguration") }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// For `dump` and debuggers: every member, the key masked. Only the members listed here are
  /// shown, so a member added later stays hidden until it is listed.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "offer": offer, "apiKey": Redaction.mask, "heartbeatIntervalMs": heartbeatIntervalMs,
        "authTimeoutMs": authTimeoutMs, "maxSubscriptions": maxSubscriptions,
        "maxSessionIdBytes": maxSessionIdBytes, "replayBufferBytes": replayBufferBytes,
        "envelopes": envelopes as Any,
      ], displayStyle: .struct)
  }
}
