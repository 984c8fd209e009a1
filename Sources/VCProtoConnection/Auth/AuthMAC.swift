import VCProtoCore
import VCProtoJSON

/// The exact bytes auth v2 authenticates (STANDARDS.md#auth-v2).
///
/// An input is a domain-separating ASCII label, one 0x00 byte, then a fixed sequence of fields. Each
/// field is its name (4-byte big-endian length + ASCII bytes) followed by a value:
///
/// - `0x00`: the member is absent (or JSON `null`);
/// - `0x01`, then a 4-byte big-endian length and the UTF-8 bytes: a string;
/// - `0x02`, then a 4-byte big-endian element count and each element as a 4-byte big-endian length
///   and its UTF-8 bytes: a list of strings, in the order sent;
/// - `0x03`, then 8 bytes: an integer, 64-bit two's complement, big-endian;
/// - `0x04`, then a 4-byte big-endian element count and each element as 8 bytes (as `0x03`): a list
///   of integers, in the order sent.
///
/// Every length is explicit, so no two different sets of members give the same bytes: a list of two
/// strings never equals a list of one string containing a comma, an absent list never equals an
/// empty one, and an integer never equals a string of its digits.
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
    /// An integer (tag 0x03).
    case integer(Int64)
    /// A list of integers (tag 0x04).
    case integerList([Int64])

    /// `.absent` for `nil`, else `.string`.
    public static func optional(_ s: String?) -> Value { s.map(Value.string) ?? .absent }
    /// `.absent` for `nil`, else `.list`.
    public static func optional(_ l: [String]?) -> Value { l.map(Value.list) ?? .absent }
    /// `.absent` for `nil`, else `.integer`.
    public static func optional(_ n: Int?) -> Value { n.map { .integer(Int64($0)) } ?? .absent }
    /// `.absent` for `nil`, else `.integerList`.
    public static func optional(_ l: [Int]?) -> Value { l.map { .integerList($0.map(Int64.init)) } ?? .absent }
  }

  static func appendLength(_ n: Int, to out: inout [UInt8]) {
    precondition(n >= 0 && n <= Int(UInt32.max), "a MAC input field is longer than 4 GiB")
    let u = UInt32(n)
    out += [UInt8(u >> 24), UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)]
  }

  static func appendInteger(_ n: Int64, to out: inout [UInt8]) {
    let u = UInt64(bitPattern: n)
    for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: u >> UInt64(shift))) }
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
      case .integer(let n):
        out.append(0x03)
        appendInteger(n, to: &out)
      case .integerList(let elements):
        out.append(0x04)
        appendLength(elements.count, to: &out)
        for element in elements { appendInteger(element, to: &out) }
      }
    }
    return out
  }

  /// The fields of the client input, in order: `challenge`, `client_nonce`, then every member of
  /// `connect` that auth v2 binds (`session_id`, `recent_sessions_limit`, `protocol_version`,
  /// `protocol_versions`, `capabilities`, `auth_version`, as sent), then the offer of the `hello` the
  /// client answered (`hello.message`, `hello.version`, `hello.auth_version`, `hello.instructions`,
  /// `hello.protocol_versions`, `hello.auth_versions`, `hello.capabilities`).
  ///
  /// Not bound: `api_key` (absent in v2), `client_nonce` and `auth_response` themselves (the nonce is
  /// the second field; the response is the MAC), and members the catalog does not declare, which
  /// receivers ignore (STANDARDS.md#negotiation-and-auth says why).
  public static func clientFields(challenge: String, clientNonce: String, connect: ConnectMessage, hello: HelloMessage)
    -> [(name: String, value: Value)]
  {
    [
      ("challenge", .string(challenge)), ("client_nonce", .string(clientNonce)),
      ("session_id", .optional(connect.sessionId)), ("recent_sessions_limit", .optional(connect.recentSessionsLimit)),
      ("protocol_version", .optional(connect.protocolVersion)),
      ("protocol_versions", .optional(connect.protocolVersions)), ("capabilities", .optional(connect.capabilities)),
      ("auth_version", .optional(connect.authVersion)), ("hello.message", .string(hello.message)),
      ("hello.version", .string(hello.version)), ("hello.auth_version", .integer(Int64(hello.authVersion))),
      ("hello.instructions", .string(hello.instructions)),
      ("hello.protocol_versions", .optional(hello.protocolVersions)),
      ("hello.auth_versions", .optional(hello.authVersions)), ("hello.capabilities", .optional(hello.capabilities)),
    ]
  }

  /// The bytes the client MACs for `connect` answering `hello` (as the client saw it; the server uses
  /// the hello it sent and the connect it received), under the challenge and nonce given.
  public static func clientInput(
    challenge: String, clientNonce: String, connect: ConnectMessage, hello: HelloMessage
  ) -> [UInt8] {
    message(
      label: clientLabel,
      fields: clientFields(challenge: challenge, clientNonce: clientNonce, connect: connect, hello: hello))
  }

  /// The bytes the server MACs: `challenge`, `client_nonce`, the client's `auth_response` (which
  /// binds the whole `connect` and `hello`), then every member of `connected` but `server_proof`:
  /// `message`, `session_id` (null from 0.3.0 on when connect had none: absent), `negotiated_protocol_version`,
  /// `capabilities` (as sent: sorted),
  /// `auth_version` (`nil` = absent).
  public static func serverInput(
    challenge: String, clientNonce: String, authResponse: String, connected: ConnectedMessage
  ) -> [UInt8] {
    message(
      label: serverLabel,
      fields: [
        ("challenge", .string(challenge)), ("client_nonce", .string(clientNonce)),
        ("auth_response", .string(authResponse)), ("message", .string(connected.message)),
        ("session_id", .optional(connected.sessionId)),
        ("negotiated_protocol_version", .optional(connected.negotiatedProtocolVersion)),
        ("capabilities", .optional(connected.capabilities)), ("auth_version", .optional(connected.authVersion)),
      ])
  }

  /// Lowercase hex HMAC-SHA256 of `input` under the API key's UTF-8 bytes.
  public static func mac(apiKey: String, input: [UInt8]) -> String {
    Hex.encode(HMACSHA256.authenticationCode(key: Array(apiKey.utf8), message: input))
  }
}
