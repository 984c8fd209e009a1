/// The exact bytes auth v2 authenticates (STANDARDS.md section 8).
///
/// An input is a domain-separating ASCII label, one 0x00 byte, then a fixed sequence of fields. Each
/// field is its name (4-byte big-endian length + ASCII bytes) followed by a value:
///
/// - `0x00`: the member is absent (or JSON `null`);
/// - `0x01`, then a 4-byte big-endian length and the UTF-8 bytes: a string;
/// - `0x02`, then a 4-byte big-endian element count and each element as a 4-byte big-endian length
///   and its UTF-8 bytes: a list of strings, in the order sent.
///
/// Every length is explicit, so no two different sets of members give the same bytes: a list of two
/// strings never equals a list of one string containing a comma, and an absent list never equals an
/// empty one.
public enum AuthMAC {
  /// The client's label.
  public static let clientLabel = "vcproto/auth/v2/client"
  /// The server's label (a different label, so a client MAC can never pass as a server proof).
  public static let serverLabel = "vcproto/auth/v2/server"

  /// The value of one field in a MAC input.
  public enum Value: Sendable, Hashable {
    /// The member is absent (tag 0x00).
    case absent
    /// A string (tag 0x01).
    case string(String)
    /// A list of strings (tag 0x02).
    case list([String])

    /// `.absent` for `nil`, else `.string`.
    public static func optional(_ s: String?) -> Value { s.map(Value.string) ?? .absent }
    /// `.absent` for `nil`, else `.list`.
    public static func optional(_ l: [String]?) -> Value { l.map(Value.list) ?? .absent }
  }

  static func appendLength(_ n: Int, to out: inout [UInt8]) {
    precondition(n >= 0 && n <= Int(UInt32.max), "a MAC input field is longer than 4 GiB")
    let u = UInt32(n)
    out += [UInt8(u >> 24), UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)]
  }

  static func appendBytes(_ s: String, to out: inout [UInt8]) {
    let bytes = Array(s.utf8)
    appendLength(bytes.count, to: &out)
    out += bytes
  }

  /// The MAC input for `label` and `fields` (name, value), in the layout described above.
  public static func message(label: String, fields: [(name: String, value: Value)]) -> [UInt8] {
    var out = Array(label.utf8)
    out.append(0)
    for (name, value) in fields {
      appendBytes(name, to: &out)
      switch value {
      case .absent:
        out.append(0x00)
      case .string(let s):
        out.append(0x01)
        appendBytes(s, to: &out)
      case .list(let elements):
        out.append(0x02)
        appendLength(elements.count, to: &out)
        for element in elements { appendBytes(element, to: &out) }
      }
    }
    return out
  }

  /// The bytes the client MACs, with the members of its `connect` as sent (`nil` = absent):
  /// `challenge`, `client_nonce`, `session_id`, `protocol_version`, `protocol_versions`,
  /// `capabilities`.
  public static func clientInput(
    challenge: String, clientNonce: String, sessionId: String?, protocolVersion: String?,
    protocolVersions: [String]?, capabilities: [String]?
  ) -> [UInt8] {
    message(
      label: clientLabel,
      fields: [
        ("challenge", .string(challenge)), ("client_nonce", .string(clientNonce)),
        ("session_id", .optional(sessionId)), ("protocol_version", .optional(protocolVersion)),
        ("protocol_versions", .optional(protocolVersions)), ("capabilities", .optional(capabilities)),
      ])
  }

  /// The client input for a `connect` as sent or received.
  public static func clientInput(challenge: String, clientNonce: String, connect: ConnectMessage) -> [UInt8] {
    clientInput(
      challenge: challenge, clientNonce: clientNonce, sessionId: connect.sessionId,
      protocolVersion: connect.protocolVersion, protocolVersions: connect.protocolVersions,
      capabilities: connect.capabilities)
  }

  /// The bytes the server MACs: `challenge`, `client_nonce` and `session_id` from the `connect`, the
  /// `negotiated_protocol_version` and `capabilities` of the `connected` (as sent, `nil` = absent) and
  /// the client's `auth_response`.
  public static func serverInput(
    challenge: String, clientNonce: String, sessionId: String?, negotiatedVersion: String?,
    acceptedCapabilities: [String]?, authResponse: String
  ) -> [UInt8] {
    message(
      label: serverLabel,
      fields: [
        ("challenge", .string(challenge)), ("client_nonce", .string(clientNonce)),
        ("session_id", .optional(sessionId)), ("negotiated_protocol_version", .optional(negotiatedVersion)),
        ("capabilities", .optional(acceptedCapabilities)), ("auth_response", .string(authResponse)),
      ])
  }

  /// Lowercase hex HMAC-SHA256 of `input` under the API key's UTF-8 bytes.
  public static func mac(apiKey: String, input: [UInt8]) -> String {
    Hex.encode(HMACSHA256.authenticationCode(key: Array(apiKey.utf8), message: input))
  }
}
