import VCProtoCore
import VCProtoJSON

/// The two keys of authenticated frames (capability `authenticated_frames`, STANDARDS.md#authenticated-frames),
/// derived with HKDF-SHA256 from a verified auth v2 handshake, one per direction.
///
/// ```
/// PRK  = HKDF-Extract(salt, IKM)         IKM  = the API key's UTF-8 bytes
/// salt = layout("vcproto/auth/v2/frames/salt"; challenge, client_nonce)
/// info = layout("vcproto/auth/v2/frames/key"; direction, negotiated_protocol_version,
///               capabilities, auth_version, auth_response, server_proof)
/// key  = HKDF-Expand(PRK, info, 32)      direction: "client_to_server" or "server_to_client"
/// ```
///
/// `layout` is ``AuthMAC/message(label:fields:)``; the connected members are as the `connected`
/// carried them (the client derives the keys only after its proof verified). Both nonces make every
/// connection's keys fresh; `auth_response` and `server_proof` bind them to everything the handshake
/// authenticated. The keys are secret: descriptions show neither.
public struct FrameKeys: Sendable, Hashable {
  /// The key of frames the client sends.
  package let clientToServer: [UInt8]
  /// The key of frames the server sends.
  package let serverToClient: [UInt8]

  /// The salt's label.
  public static let saltLabel = "vcproto/auth/v2/frames/salt"
  /// The info's label.
  public static let keyLabel = "vcproto/auth/v2/frames/key"

  package init(clientToServer: [UInt8], serverToClient: [UInt8]) {
    self.clientToServer = clientToServer
    self.serverToClient = serverToClient
  }

  /// The HKDF salt: the challenge and the client's nonce.
  public static func salt(challenge: String, clientNonce: String) -> [UInt8] {
    AuthMAC.message(
      label: saltLabel, fields: [("challenge", .string(challenge)), ("client_nonce", .string(clientNonce))])
  }

  /// The HKDF info for one direction (`"client_to_server"` or `"server_to_client"`).
  public static func info(direction: String, authResponse: String, connected: ConnectedMessage) -> [UInt8] {
    AuthMAC.message(
      label: keyLabel,
      fields: [
        ("direction", .string(direction)),
        ("negotiated_protocol_version", .optional(connected.negotiatedProtocolVersion)),
        ("capabilities", .optional(connected.capabilities)), ("auth_version", .optional(connected.authVersion)),
        ("auth_response", .string(authResponse)), ("server_proof", .optional(connected.serverProof)),
      ])
  }

  /// Derives both keys for the handshake: `challenge` and `clientNonce` as in the `connect`,
  /// `authResponse` the client's answer, `connected` the frame the server sent (with its proof).
  public static func derive(
    apiKey: String, challenge: String, clientNonce: String, authResponse: String, connected: ConnectedMessage
  )
    -> FrameKeys
  {
    let ikm = Array(apiKey.utf8)
    let salt = salt(challenge: challenge, clientNonce: clientNonce)
    func key(_ direction: String) -> [UInt8] {
      HKDFSHA256.derive(
        inputKeyMaterial: ikm, salt: salt,
        info: info(direction: direction, authResponse: authResponse, connected: connected),
        length: 32)
    }
    return FrameKeys(clientToServer: key("client_to_server"), serverToClient: key("server_to_client"))
  }
}

extension FrameKeys: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// Never the keys.
  public var description: String { "FrameKeys(«redacted»)" }
  /// Never the keys.
  public var debugDescription: String { description }
  /// No children, so `dump` shows no key byte either.
  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
