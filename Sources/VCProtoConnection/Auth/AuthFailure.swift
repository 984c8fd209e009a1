import VCProtoCore
import VCProtoJSON

/// Why the server refused a `connect`. On the wire every case is the same generic
/// `{"type":"auth_error","message":"Authentication failed"}`; the reason is for the server's own
/// logs and never contains key material.
public enum AuthFailure: Error, Sendable, Hashable {
  /// Neither an API key nor an auth v2 answer.
  case noCredentials
  /// An API key was sent but auth v1 is not accepted.
  case authV1Refused
  /// The API key is wrong.
  case wrongKey
  /// The challenge is unknown, already used, or expired.
  case challengeNotValid
  /// `client_nonce` is missing or not 32-128 lowercase hex characters.
  case badNonce
  /// The HMAC answer does not match.
  case wrongResponse

  /// The frame the server sends for every failure, before closing.
  public static let wireMessage = AuthErrorMessage(message: "Authentication failed")
}
