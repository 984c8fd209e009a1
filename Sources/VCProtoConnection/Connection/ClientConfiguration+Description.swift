import VCProtoCore
import VCProtoJSON

extension ClientConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The configuration with ``apiKey`` masked: `ClientConfiguration(apiKey: «redacted», ...)`.
  public var description: String { customMirror.structDescription(of: "ClientConfiguration") }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// For `dump` and debuggers: every member, the key masked. Only the members listed here are
  /// shown, so a member added later stays hidden until it is listed.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "apiKey": Redaction.mask, "minimumVersion": minimumVersion, "maximumVersion": maximumVersion,
        "capabilities": capabilities, "allowAuthV1": allowAuthV1, "sessionId": sessionId as Any,
        "recentSessionsLimit": recentSessionsLimit as Any, "maxMessageSizeKB": maxMessageSizeKB as Any,
        "timing": timing, "randomSeed": randomSeed, "maxPendingRequests": maxPendingRequests,
        "maxSubscriptions": maxSubscriptions, "dedupWindow": dedupWindow, "outboxCapacity": outboxCapacity,
        "envelopes": envelopes as Any,
      ], displayStyle: .struct)
  }
}
