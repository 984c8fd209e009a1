import VCProtoCore
import VCProtoJSON

/// Why an engine closes (or lost) the connection: a stable machine-readable `code` and an optional
/// detail for logs. Details never contain key material, and an engine's detail quotes at most 60
/// Unicode scalars of any text the peer sent (then `…`), so a megabyte version or capability name
/// never reaches a log whole.
public struct CloseReason: Sendable, Hashable, CustomStringConvertible {
  /// The stable code (`pong_timeout`, `auth_failed`, ...).
  public var code: String
  /// Extra words for logs, or `nil`.
  public var detail: String?

  /// Creates a reason.
  public init(code: String, detail: String? = nil) {
    self.code = code
    self.detail = detail
  }

  /// `code`, then `: detail` when there is one.
  public var description: String { detail.map { "\(code): \($0)" } ?? code }

  /// The server refused the credentials (`auth_error`).
  public static let authFailed = CloseReason(code: "auth_failed")
  /// The client sent something other than `ping`/`connect` before authenticating.
  public static let notAuthenticated = CloseReason(code: "not_authenticated")
  /// The client did not authenticate within the server's deadline.
  public static let authTimeout = CloseReason(code: "auth_timeout")
  /// No common protocol version (the too-old refusal).
  public static let unsupportedVersion = CloseReason(code: "unsupported_protocol_version")
  /// The server's auth v2 proof is missing or wrong.
  public static let serverProofInvalid = CloseReason(code: "server_proof_invalid")
  /// The client refuses to send its key to a server that offers no auth v2 (downgrade protection).
  public static let downgradeRefused = CloseReason(code: "downgrade_refused")
  /// No frame arrived within the pong deadline after a `ping`.
  public static let pongTimeout = CloseReason(code: "pong_timeout")
  /// No frame arrived within the heartbeat timeout.
  public static let heartbeatTimeout = CloseReason(code: "heartbeat_timeout")
  /// The transport did not open (connect and WebSocket upgrade) in time.
  public static let connectTimeout = CloseReason(code: "connect_timeout")
  /// The handshake did not finish in time.
  public static let handshakeTimeout = CloseReason(code: "handshake_timeout")
  /// The server announced `draining`.
  public static let draining = CloseReason(code: "draining")
  /// The application closed on purpose.
  public static let clientDisconnect = CloseReason(code: "client_disconnect")
  /// The application (server side) closed.
  public static let serverClose = CloseReason(code: "server_close")
  /// The socket closed or failed under the engine.
  public static let transportClosed = CloseReason(code: "transport_closed")

  /// The peer broke a rule of the conversation.
  public static func protocolViolation(_ detail: String) -> CloseReason {
    CloseReason(code: "protocol_violation", detail: detail)
  }
}
