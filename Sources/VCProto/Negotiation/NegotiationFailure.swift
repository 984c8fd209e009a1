/// No common protocol version.
public struct NegotiationFailure: Error, Sendable, Hashable {
  /// The machine-readable code.
  public static let code = "unsupported_protocol_version"
  /// The server's minimum version (the real backend's `required`).
  public var required: String
  /// The version the client announced (its `protocol_version`, or the highest of its list).
  public var received: String
  /// Every version the server supports.
  public var supported: [String]
  /// Every version the client offered.
  public var requested: [String]

  /// The `error` frame the server sends before closing.
  public var errorMessage: ErrorMessage {
    ErrorMessage(
      message: "Unsupported protocol version", code: Self.code, required: required, received: received,
      supported: supported, requested: requested)
  }
}
