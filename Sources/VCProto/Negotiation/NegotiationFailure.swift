/// No common protocol version.
public struct NegotiationFailure: Error, Sendable, Hashable {
  /// The machine-readable code.
  public static let code = "unsupported_protocol_version"
  /// The human-readable text: the real backend's `Client is too old; upgrade required` when every
  /// version the client named is below the server's minimum, else `No common protocol version`.
  public var message: String
  /// The server's minimum supported version (the real backend's `required`); never empty.
  public var required: String
  /// The version the client announced (its `protocol_version` as sent, or the highest of its list).
  public var received: String
  /// Every version the server supports, ascending.
  public var supported: [String]
  /// Every version the client offered, as sent.
  public var requested: [String]

  /// The `error` frame the server sends before closing.
  public var errorMessage: ErrorMessage {
    ErrorMessage(
      message: message, code: Self.code, required: required, received: received, supported: supported,
      requested: requested)
  }
}
