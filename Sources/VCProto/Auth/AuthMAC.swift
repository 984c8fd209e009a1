/// The exact bytes auth v2 authenticates (STANDARDS.md section 8): a domain-separating label, a 0x00
/// byte, then each field as a 4-byte big-endian length and its UTF-8 bytes.
public enum AuthMAC {
  /// The client's label.
  public static let clientLabel = "vcproto/auth/v2/client"
  /// The server's label (a different label, so a client MAC can never pass as a server proof).
  public static let serverLabel = "vcproto/auth/v2/server"

  static func message(label: String, fields: [String]) -> [UInt8] {
    var out = Array(label.utf8)
    out.append(0)
    for field in fields {
      let bytes = Array(field.utf8)
      let n = UInt32(bytes.count)
      out += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
      out += bytes
    }
    return out
  }

  /// The bytes the client MACs: challenge, client nonce, session id, protocol version, protocol versions
  /// (joined with `,`) and requested capabilities (joined with `,`), all as sent.
  public static func clientInput(
    challenge: String, clientNonce: String, sessionId: String?, protocolVersion: String?,
    protocolVersions: [String], capabilities: [String]
  ) -> [UInt8] {
    message(
      label: clientLabel,
      fields: [
        challenge, clientNonce, sessionId ?? "", protocolVersion ?? "", protocolVersions.joined(separator: ","),
        capabilities.joined(separator: ","),
      ])
  }

  /// The bytes the server MACs: challenge, client nonce, session id, negotiated version, accepted
  /// capabilities (sorted, joined with `,`) and the client's `auth_response`.
  public static func serverInput(
    challenge: String, clientNonce: String, sessionId: String?, negotiatedVersion: String,
    acceptedCapabilities: [String], authResponse: String
  ) -> [UInt8] {
    message(
      label: serverLabel,
      fields: [
        challenge, clientNonce, sessionId ?? "", negotiatedVersion,
        acceptedCapabilities.sorted().joined(separator: ","),
        authResponse,
      ])
  }

  /// Lowercase hex HMAC-SHA256 of `input` under the API key's UTF-8 bytes.
  public static func mac(apiKey: String, input: [UInt8]) -> String {
    Hex.encode(HMACSHA256.authenticationCode(key: Array(apiKey.utf8), message: input))
  }
}
