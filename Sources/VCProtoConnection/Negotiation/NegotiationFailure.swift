import VCProtoCore
import VCProtoJSON

/// The real backend's refusal of a client that announced a version below 0.4.0: the server sends
/// ``errorMessage`` and closes the connection, before it looks at any credential.
public struct NegotiationFailure: Error, Sendable, Hashable {
  /// The machine-readable code.
  public static let code = "unsupported_protocol_version"
  /// The human-readable text, the real backend's.
  public var message: String { "Client is too old; upgrade required" }
  /// The oldest version the server accepts: always `"0.4.0"`, also when the floor is 0.5.0, as in
  /// the real backend.
  public var required: String
  /// The client's `protocol_version` exactly as sent (a suffix such as `-rc1` included).
  public var received: String

  /// Creates a refusal.
  public init(required: String = ProtocolVersion.v0_4_0.rawValue, received: String) {
    self.required = required
    self.received = received
  }

  /// The `error` frame to send before closing, exactly the real backend's:
  /// `{"type":"error","code":"unsupported_protocol_version","required":"0.4.0","received":...,
  /// "message":"Client is too old; upgrade required"}`.
  public var errorMessage: ErrorMessage {
    ErrorMessage(message: message, code: Self.code, required: required, received: received)
  }
}
