import VCProtoJSON

/// One thing wrong with a frame: what, where (an RFC 6901 JSON Pointer), how bad, and a sentence for people.
///
/// Findings never contain secret values: the validator redacts members the catalog marks secret, and
/// every finding masks text shaped like an API key in its pointer, type and message, wherever it came
/// from (a member name, an unknown `type`, a duplicate key).
///
/// Bounded for logging: ``messageType`` holds at most ``maxMessageTypeLength`` Unicode scalars (a
/// longer type is cut, marked with its length), and ``description`` shows at most
/// ``maxDescribedPointerLength`` scalars of the pointer. ``pointer`` itself is always exact, since
/// tools locate the value with it; a long member name appears there once per finding that names it.
public struct Finding: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Error or warning.
  public let severity: Severity
  /// The stable code.
  public let code: FindingCode
  /// Where: an RFC 6901 pointer into the frame (`""` is the whole frame). For a missing member it
  /// names the member that should be there, e.g. `/sessions/2/last_modified`.
  public let pointer: String
  /// The message `type`, when known: key-shaped text masked, then at most ``maxMessageTypeLength``
  /// Unicode scalars. A longer type (only an unknown one can be: every catalog type is shorter) is
  /// kept as a prefix followed by `…` and its length in UTF-8 bytes, e.g. `TTTT… (1000000 bytes)`;
  /// ``ValidationReport/messageType`` has the whole type.
  public let messageType: String?
  /// A sentence for people.
  public let message: String
  /// The byte offset into the frame, for frame-level findings such as `invalid_json`.
  public let offset: Int?

  /// Most Unicode scalars of ``messageType`` (64, the length the CLI shows), cut mark included.
  public static let maxMessageTypeLength = 64
  /// Most Unicode scalars of the pointer shown by ``description`` (160, as in the CLI's text
  /// output), cut mark included; ``ProtocolLogger`` cuts pointers the same way.
  public static let maxDescribedPointerLength = 160

  /// Creates a finding. `messageType` is masked and cut to ``maxMessageTypeLength`` scalars.
  public init(
    _ severity: Severity, _ code: FindingCode, pointer: String, messageType: String? = nil, message: String,
    offset: Int? = nil
  ) {
    self.severity = severity
    self.code = code
    self.pointer = Redaction.maskingKeyShapedText(pointer)
    self.messageType = messageType.map(Self.shownType)
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

  /// A message type (or another peer-chosen identifier, such as an `error` code) as ``messageType``
  /// holds it: key-shaped text masked, then at most ``maxMessageTypeLength`` scalars, cut mark
  /// included. Cutting a shown type again changes nothing.
  package static func shownType(_ type: String) -> String {
    Redaction.cutMarkingLength(Redaction.maskingKeyShapedText(type), limit: maxMessageTypeLength)
  }

  /// A pointer as ``description`` and ``ProtocolLogger`` show it: at most
  /// ``maxDescribedPointerLength`` scalars, cut mark included.
  package static func shownPointer(_ pointer: String) -> String {
    Redaction.cutMarkingLength(pointer, limit: maxDescribedPointerLength)
  }

  /// `error invalid_value /size_kb: ...`; the whole frame (the empty pointer) prints as `(root)`, since
  /// the pointer `/` would name the member `""` (RFC 6901). A pointer longer than
  /// ``maxDescribedPointerLength`` scalars is shown cut, e.g. `/MMMM… (1000001 bytes)`.
  public var description: String {
    "\(severity.rawValue) \(code.rawValue) \(pointer.isEmpty ? "(root)" : Self.shownPointer(pointer)): \(message)"
  }
}
