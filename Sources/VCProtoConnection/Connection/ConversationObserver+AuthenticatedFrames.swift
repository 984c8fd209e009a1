import VCProtoCore
import VCProtoJSON

extension ConversationObserver {
  /// A frame on a connection whose `connected` granted `authenticated_frames` (STANDARDS.md#authenticated-frames):
  /// it must be an authenticated frame. Without the keys the observer checks what the wire shows:
  /// the frame is wrapped (``FindingCode/unauthenticatedFrame``), the wrapper's form, and its `seq`,
  /// the next of its direction (``FindingCode/frameSequence``). `frame` becomes the frame inside when
  /// there is one, so the other checks see what the peer's application would; `false` when there is
  /// nothing more to check (the wrapper could not be read).
  mutating func openAuthenticated(_ frame: inout Frame, into findings: inout [Finding]) -> Bool {
    let parts: (sequence: UInt64, mac: String, frame: String)
    do {
      parts = try AuthenticatedChannel.parts(of: frame.message)
    } catch .notAuthenticated {
      findings.append(
        Finding(
          .error, .unauthenticatedFrame, pointer: "/type", messageType: frame.type,
          message: "plain \(Self.shown(frame.type)) where an authenticated frame is due: authenticated_frames is in "
            + "force on this connection (the receiver closes it: not_authenticated)"))
      return true  // checked as it stands, the frame the receiver would have refused
    } catch {
      let reason: String
      if case .malformed(let why) = error { reason = why } else { reason = "\(error)" }
      findings.append(
        Finding(
          .error, .unauthenticatedFrame, pointer: "", messageType: AuthenticatedChannel.type,
          message: "malformed authenticated frame: \(reason) (the receiver closes the connection: malformed)"))
      return false
    }
    let expected =
      frame.direction == .clientToServer ? nextSequence.clientToServer : nextSequence.serverToClient
    if parts.sequence != expected {
      let what =
        parts.sequence < expected ? "a replayed frame (replayed)" : "frames dropped or reordered (sequence_gap)"
      findings.append(
        Finding(
          .error, .frameSequence, pointer: "/seq", messageType: AuthenticatedChannel.type,
          message: "seq \(parts.sequence) where \(expected) is due: \(what); the receiver closes the connection"))
    }
    let next = max(expected, parts.sequence &+ 1)
    if frame.direction == .clientToServer {
      nextSequence.clientToServer = next
    } else {
      nextSequence.serverToClient = next
    }
    guard case .object(let inner)? = try? JSONReader(knownKeys: .protocolNames).parse(Array(parts.frame.utf8)) else {
      findings.append(
        Finding(
          .error, .unauthenticatedFrame, pointer: "/frame", messageType: AuthenticatedChannel.type,
          message: "the authenticated frame holds no JSON object"))
      return false
    }
    frame.message = inner
    return true
  }
}
