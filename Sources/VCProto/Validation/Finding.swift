/// One thing wrong with a frame: what, where (an RFC 6901 JSON Pointer), how bad, and a sentence for people.
///
/// Findings never contain secret values: the validator redacts members the catalog marks secret, and
/// every finding masks text shaped like an API key in its pointer, type and message, wherever it came
/// from (a member name, an unknown `type`, a duplicate key).
public struct Finding: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Error or warning.
  public var severity: Severity
  /// The stable code.
  public var code: FindingCode
  /// Where: an RFC 6901 pointer into the frame (`""` is the whole frame). For a missing member it
  /// names the member that should be there, e.g. `/sessions/2/last_modified`.
  public var pointer: String
  /// The message `type`, when known.
  public var messageType: String?
  /// A sentence for people.
  public var message: String
  /// The byte offset into the frame, for frame-level findings such as `invalid_json`.
  public var offset: Int?

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

  /// `error invalid_value /size_kb: ...`
  public var description: String {
    "\(severity.rawValue) \(code.rawValue) \(pointer.isEmpty ? "/" : pointer): \(message)"
  }
}
