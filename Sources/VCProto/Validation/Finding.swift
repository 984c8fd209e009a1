/// One thing wrong with a frame: what, where (an RFC 6901 JSON Pointer), how bad, and a sentence for people.
///
/// Findings never contain secret values: the validator redacts members the catalog marks secret, and
/// every finding masks text shaped like an API key in its pointer, type and message, wherever it came
/// from (a member name, an unknown `type`, a duplicate key).
public struct Finding: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Error or warning.
  public let severity: Severity
  /// The stable code.
  public let code: FindingCode
  /// Where: an RFC 6901 pointer into the frame (`""` is the whole frame). For a missing member it
  /// names the member that should be there, e.g. `/sessions/2/last_modified`.
  public let pointer: String
  /// The message `type`, when known.
  public let messageType: String?
  /// A sentence for people.
  public let message: String
  /// The byte offset into the frame, for frame-level findings such as `invalid_json`.
  public let offset: Int?

  /// Creates a finding.
  public init(
    _ severity: Severity, _ code: FindingCode, pointer: String, messageType: String? = nil, message: String,
    offset: Int? = nil
  ) {
    self.severity = severity
    self.code = code
    self.pointer = Redaction.maskingKeyShapedText(pointer)
    self.messageType = messageType.map(Redaction.maskingKeyShapedText)
    self.message = Redaction.maskingKeyShapedText(message)
    self.offset = offset
  }

  /// The same finding with another severity (strict checking turns warnings into errors).
  public func with(severity: Severity) -> Finding {
    Finding(severity, code, pointer: pointer, messageType: messageType, message: message, offset: offset)
  }

  /// Decodes a finding (for example one a tool wrote as JSON), masking key-shaped text exactly as
  /// ``init(_:_:pointer:messageType:message:offset:)`` does: a finding is redacted however it was made.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      try c.decode(Severity.self, forKey: .severity), try c.decode(FindingCode.self, forKey: .code),
      pointer: try c.decode(String.self, forKey: .pointer),
      messageType: try c.decodeIfPresent(String.self, forKey: .messageType),
      message: try c.decode(String.self, forKey: .message), offset: try c.decodeIfPresent(Int.self, forKey: .offset))
  }

  /// `error invalid_value /size_kb: ...`; the whole frame (the empty pointer) prints as `(root)`, since
  /// the pointer `/` would name the member `""` (RFC 6901).
  public var description: String {
    "\(severity.rawValue) \(code.rawValue) \(pointer.isEmpty ? "(root)" : pointer): \(message)"
  }
}
