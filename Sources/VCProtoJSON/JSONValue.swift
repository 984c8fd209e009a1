/// A JSON value, kept losslessly: object members keep their order and numbers keep their literal text.
///
/// vcproto parses every frame into this tree once (see ``JSONReader``); the validator and the typed
/// model both read the same tree, so a frame is never parsed twice.
public enum JSONValue: Sendable, Hashable {
  /// JSON `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, with its literal text preserved.
  case number(JSONNumber)
  /// A string (always valid Unicode).
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object whose members keep their wire order.
  case object(JSONObject)
}

extension JSONValue {
  /// The JSON type name used in findings and schemas: `null`, `boolean`, `integer`, `number`, `string`,
  /// `array` or `object`. A number literal without fraction or exponent reports `integer`.
  public var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .number(let n): return n.isIntegerLiteral ? "integer" : "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }

  /// The string payload, or `nil` for any other kind of value.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The boolean payload, or `nil`.
  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  /// The value as a 64-bit integer when it is an integer literal in range, else `nil`.
  public var int64Value: Int64? {
    if case .number(let n) = self { return n.int64Value }
    return nil
  }

  /// The value as `Int` when it is an integer literal in range, else `nil`.
  public var intValue: Int? {
    if case .number(let n) = self, let v = n.int64Value { return Int(exactly: v) }
    return nil
  }

  /// The value as a finite `Double`, or `nil`.
  public var doubleValue: Double? {
    if case .number(let n) = self { return n.doubleValue }
    return nil
  }

  /// The array payload, or `nil`.
  public var arrayValue: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The object payload, or `nil`.
  public var objectValue: JSONObject? {
    if case .object(let o) = self { return o }
    return nil
  }

  /// `true` for JSON `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// Looks up a member when this value is an object.
  public subscript(key: String) -> JSONValue? {
    objectValue?[key]
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// Creates a string value.
  public init(stringLiteral value: String) { self = .string(value) }
  /// Creates a boolean value.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// Creates an integer value.
  public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
  /// Creates `null`.
  public init(nilLiteral: ()) { self = .null }
  /// Creates an array value.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// Creates an object value; members keep the literal's order.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
  }
}
