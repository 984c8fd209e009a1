/// Why a frame is not acceptable JSON, with the byte offset where the reader stopped.
public struct JSONReadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong. The raw value is the stable finding code.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// Not RFC 8259 JSON (syntax error, trailing data, byte-order mark, lone surrogate escape, ...).
    case invalidJSON = "invalid_json"
    /// The bytes are not valid UTF-8 (overlong form, surrogate, truncated sequence, stray continuation byte).
    case invalidUTF8 = "invalid_utf8"
    /// An object repeats a key. vcproto rejects duplicates rather than picking one, so two peers can
    /// never read the same frame differently.
    case duplicateKey = "duplicate_key"
    /// The frame exceeds ``JSONLimits/maxFrameBytes``.
    case frameTooLarge = "frame_too_large"
    /// Nesting exceeds ``JSONLimits/maxDepth``.
    case nestingTooDeep = "nesting_too_deep"
    /// A string exceeds ``JSONLimits/maxStringBytes``.
    case stringTooLong = "string_too_long"
    /// An array exceeds ``JSONLimits/maxArrayElements``.
    case arrayTooLong = "array_too_long"
    /// An object exceeds ``JSONLimits/maxObjectMembers``.
    case objectTooLarge = "object_too_large"
    /// A number literal exceeds ``JSONLimits/maxNumberLength``.
    case numberTooLong = "number_too_long"
    /// The frame holds more values than ``JSONLimits/maxValues``.
    case tooManyValues = "too_many_values"
  }

  /// The kind of failure.
  public var kind: Kind
  /// Zero-based byte offset into the frame where the problem was detected.
  public var offset: Int
  /// A human-readable explanation (never contains frame content beyond a duplicate key's name).
  public var detail: String

  /// Creates an error.
  public init(_ kind: Kind, offset: Int, _ detail: String) {
    self.kind = kind
    self.offset = offset
    self.detail = detail
  }

  /// `detail at byte N`.
  public var description: String { "\(detail) at byte \(offset)" }
}
