import VCProtoJSON

/// The JSON type of a field, as the catalog declares it.
public indirect enum FieldType: Sendable, Hashable {
  /// A string, optionally with a checked format.
  case string(StringFormat)
  /// An integer literal (no fraction, no exponent) within 64 bits, at least `minimum` when given.
  case integer(minimum: Int64?)
  /// Any finite number.
  case number
  /// `true` or `false`.
  case boolean
  /// Any JSON value, kept as ``JSONValue`` (e.g. a tool result inside a raw Claude record).
  case any
  /// Any JSON object, its members unconstrained (free-form), kept as ``JSONObject``: the real system
  /// declares an object but no shape for it (e.g. a canvas component's `props`). Any other JSON type is
  /// `wrong_type`, as for every declared type.
  case object
  /// An object of a named shape declared in the catalog (shapes may be recursive).
  case shape(String)
  /// An array whose elements all have the given type.
  case array(FieldType)
  /// One of several types (first match wins), e.g. Claude message content: a string or an array of blocks.
  case oneOf([FieldType])

  /// A plain string.
  public static let text = FieldType.string(.plain)
  /// An unbounded integer (within 64 bits).
  public static let int = FieldType.integer(minimum: nil)
}

/// A string format the validator checks (`invalid_value` when the value does not match).
public enum StringFormat: String, Sendable, Hashable, CaseIterable {
  /// Any string.
  case plain
  /// An RFC 3339 / ISO-8601 UTC date-time such as `2026-01-11T17:25:32Z` or `...32.123Z`
  /// (fraction optional, `Z` or a numeric offset).
  case dateTime = "date-time"
  /// A UUID in the canonical 8-4-4-4-12 hex form (vcproto writes lowercase; either case is accepted).
  case uuid
  /// Lowercase hexadecimal, even length.
  case hex
  /// A protocol version `MAJOR.MINOR.PATCH`.
  case version
}
