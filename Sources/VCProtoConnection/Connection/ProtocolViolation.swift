import VCProtoCore
import VCProtoJSON

/// A frame the peer sent that broke the protocol, as an engine reports it to its application
/// instead of delivering the frame (in the manner of h11's `RemoteProtocolError`): the frame is
/// never handed over as if it were fine.
///
/// What the engine did about it is ``disposition``: a violation in an ordinary frame is dropped and
/// reported, and the connection goes on; a violation during the handshake or authentication, or in
/// a sealed frame, closes the connection (STANDARDS.md, "Conversation state machine").
public struct ProtocolViolation: Sendable, Hashable, CustomStringConvertible {
  /// What the engine did with the frame and the connection.
  public enum Disposition: Sendable, Hashable {
    /// The frame was dropped; the connection stays open.
    case dropped
    /// The frame was dropped and the connection closed with this reason.
    case closed(CloseReason)
  }

  /// The frame's `type` as shown in findings (cut as ``Finding/messageType`` is), or
  /// `nil` when the frame had none (not JSON, not an object, or no string `type`).
  public var messageType: String?
  /// Every problem found, each naming its member by JSON Pointer; at least one is an error.
  /// Secrets are redacted and peer text is cut, as in every ``Finding``.
  public var findings: [Finding]
  /// What the engine did.
  public var disposition: Disposition

  /// Creates a violation report.
  public init(messageType: String?, findings: [Finding], disposition: Disposition) {
    self.messageType = messageType
    self.findings = findings
    self.disposition = disposition
  }

  /// One line for logs: the type, what was done, and the first error.
  public var description: String {
    let type = messageType ?? "(no type)"
    let done: String
    switch disposition {
    case .dropped: done = "dropped"
    case .closed(let reason): done = "closed (\(reason))"
    }
    let first = findings.first { $0.severity == .error } ?? findings.first
    return "\(type): \(done)" + (first.map { ": \($0)" } ?? "")
  }
}
