import VCProtoJSON

/// Refusal to send a message that uses an extension the peer did not accept.
public struct ExtensionNotNegotiated: Error, Sendable, Hashable, CustomStringConvertible {
  /// The message type.
  public var messageType: String
  /// The capabilities it needs that were not negotiated.
  public var missingCapabilities: [String]

  /// Creates the error.
  public init(messageType: String, missingCapabilities: [String]) {
    self.messageType = messageType
    self.missingCapabilities = missingCapabilities
  }

  /// `heartbeat needs the capability "heartbeat", which was not negotiated`.
  public var description: String {
    "\(messageType) needs " + missingCapabilities.map { "\"\($0)\"" }.joined(separator: ", ")
      + ", which the peer did not accept"
  }
}
