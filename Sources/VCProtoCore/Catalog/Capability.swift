import VCProtoJSON

/// The capabilities vcproto defines (STANDARDS.md#extensions). The set is open: peers ignore names they
/// do not know, so a capability is a plain string on the wire.
public enum Capability {
  /// Server heartbeat every 45 s.
  public static let heartbeat = "heartbeat"
  /// Server `draining` before shutdown.
  public static let draining = "draining"
  /// Client `disconnect` before a deliberate close.
  public static let disconnect = "disconnect"
  /// `message_id` + `message_ack` delivery.
  public static let messageAck = "message_ack"
  /// `prompt.idempotency_key`.
  public static let idempotentPrompt = "idempotent_prompt"
  /// Text-form compression envelopes.
  public static let compressionText = "compression_text"
  /// Binary-form compression envelopes.
  public static let compressionBinary = "compression_binary"
  /// Every frame after `connected` carries a sequence number and a MAC under keys derived from the
  /// auth v2 handshake (``AuthenticatedChannel``); granted only with auth v2.
  public static let authenticatedFrames = "authenticated_frames"

  /// Every capability vcproto defines.
  public static let all: [String] = [
    heartbeat, draining, disconnect, messageAck, idempotentPrompt, compressionText, compressionBinary,
    authenticatedFrames,
  ]
}
