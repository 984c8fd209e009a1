import VCProtoJSON

/// A stable, snake_case identifier of a kind of finding. Programs match on it; it never changes meaning.
public struct FindingCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
  /// The code as written in findings, vectors and CLI output.
  public var rawValue: String

  /// Wraps a code string.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// The code string.
  public var description: String { rawValue }
}

extension FindingCode {
  // Frame level: the bytes are not one acceptable JSON object.
  /// Not RFC 8259 JSON; the finding carries the byte offset.
  public static let invalidJSON = FindingCode(rawValue: "invalid_json")
  /// Not valid UTF-8.
  public static let invalidUTF8 = FindingCode(rawValue: "invalid_utf8")
  /// An object repeats a key.
  public static let duplicateKey = FindingCode(rawValue: "duplicate_key")
  /// Over ``JSONLimits/maxFrameBytes``.
  public static let frameTooLarge = FindingCode(rawValue: "frame_too_large")
  /// Over ``JSONLimits/maxDepth``.
  public static let nestingTooDeep = FindingCode(rawValue: "nesting_too_deep")
  /// Over ``JSONLimits/maxStringBytes``.
  public static let stringTooLong = FindingCode(rawValue: "string_too_long")
  /// Over ``JSONLimits/maxArrayElements``.
  public static let arrayTooLong = FindingCode(rawValue: "array_too_long")
  /// Over ``JSONLimits/maxObjectMembers``.
  public static let objectTooLarge = FindingCode(rawValue: "object_too_large")
  /// Over ``JSONLimits/maxNumberLength``.
  public static let numberTooLong = FindingCode(rawValue: "number_too_long")
  /// Over ``JSONLimits/maxValues``.
  public static let tooManyValues = FindingCode(rawValue: "too_many_values")
  /// The frame is JSON but not an object.
  public static let notAnObject = FindingCode(rawValue: "not_an_object")

  // Message level.
  /// No `type` member.
  public static let missingType = FindingCode(rawValue: "missing_type")
  /// A `type` no version of the protocol defines (a warning unless strict).
  public static let unknownType = FindingCode(rawValue: "unknown_type")
  /// A type that exists, but not in the protocol version being checked.
  public static let notInVersion = FindingCode(rawValue: "not_in_version")
  /// A type sent by the wrong peer.
  public static let wrongDirection = FindingCode(rawValue: "wrong_direction")
  /// A required member is absent; the pointer names the missing member.
  public static let missingField = FindingCode(rawValue: "missing_field")
  /// A member has the wrong JSON type.
  public static let wrongType = FindingCode(rawValue: "wrong_type")
  /// `null` where the member is not nullable.
  public static let nullNotAllowed = FindingCode(rawValue: "null_not_allowed")
  /// The right type but a wrong value: outside a closed set, out of range, or a bad format.
  public static let invalidValue = FindingCode(rawValue: "invalid_value")
  /// A member the catalog does not declare (a warning; kept for the round trip).
  public static let unexpectedField = FindingCode(rawValue: "unexpected_field")
  /// A rule across members is broken (e.g. both `new_session_id` and `resume_session_id`).
  public static let constraintViolation = FindingCode(rawValue: "constraint_violation")
  /// An extension message or member the peers did not negotiate.
  public static let extensionNotNegotiated = FindingCode(rawValue: "extension_not_negotiated")
  /// A list in a handshake message (`hello`, `connect`, `connected`) longer than
  /// ``ValidationOptions/maxHandshakeListItems``.
  public static let handshakeListTooLong = FindingCode(rawValue: "handshake_list_too_long")
  /// The last finding of a frame that had more than ``ValidationOptions/maxFindings``: how many more
  /// were left out (an error when any of them was one).
  public static let findingsSuppressed = FindingCode(rawValue: "findings_suppressed")

  /// Every frame- and message-level code, in documentation order.
  public static let frameAndMessageCodes: [FindingCode] = [
    .invalidJSON, .invalidUTF8, .duplicateKey, .frameTooLarge, .nestingTooDeep, .stringTooLong,
    .arrayTooLong, .objectTooLarge, .numberTooLong, .tooManyValues, .notAnObject, .missingType, .unknownType,
    .notInVersion, .wrongDirection, .missingField, .wrongType, .nullNotAllowed, .invalidValue,
    .unexpectedField, .constraintViolation, .extensionNotNegotiated, .handshakeListTooLong, .findingsSuppressed,
  ]
}
