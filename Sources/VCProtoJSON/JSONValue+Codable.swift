/// A JSON value through `Codable`: the same JSON value, whatever the encoder (objects as keyed
/// containers, arrays as unkeyed ones, numbers as ``JSONNumber`` writes them).
///
/// Member order does not survive `Codable` (a keyed container has none): decoding gives an object's
/// members in the order of their names' UTF-8 bytes, so the value is deterministic. Foundation's
/// `JSONEncoder` and `JSONDecoder` key their objects by `String`, which compares canonically
/// equivalent names as equal (`"é"` and `"e\u{301}"`): encoding an object with two such members
/// throws `EncodingError.invalidValue` rather than dropping one.
extension JSONValue: Codable {
  /// Nesting deeper than this (arrays and objects) is refused while decoding: twice
  /// ``JSONLimits/maxDepth``'s default, so the decoder's own finding names anything in between.
  package static let maxCodableDepth = 2 * JSONLimits.default.maxDepth

  /// Writes the value: `null`, a `Bool`, a ``JSONNumber``, a `String`, an unkeyed container or a
  /// keyed container (``JSONObject``).
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .number(let value): try value.encode(to: encoder)
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(element) }
    case .object(let object): try object.encode(to: encoder)
    }
  }

  /// Reads any JSON value; nesting deeper than 256 throws `DecodingError.dataCorrupted`.
  public init(from decoder: any Decoder) throws {
    try self.init(from: decoder, depth: 0)
  }

  /// Reads a value `depth` containers below the first one read.
  package init(from decoder: any Decoder, depth: Int) throws {
    if let container = try? decoder.singleValueContainer() {
      if container.decodeNil() {
        self = .null
        return
      }
      if let value = try? container.decode(String.self) {
        self = .string(value)
        return
      }
      if let value = try? container.decode(Bool.self) {
        self = .bool(value)
        return
      }
      if let value = try? container.decode(JSONNumber.self) {
        self = .number(value)
        return
      }
    }
    if let container = try? decoder.container(keyedBy: JSONCodingKey.self) {
      try Self.checkDepth(depth, decoder)
      self = .object(try JSONObject(container, depth: depth + 1))
      return
    }
    if var container = try? decoder.unkeyedContainer() {
      try Self.checkDepth(depth, decoder)
      var elements: [JSONValue] = []
      if let count = container.count { elements.reserveCapacity(count) }
      while !container.isAtEnd {
        elements.append(try JSONValue(from: container.superDecoder(), depth: depth + 1))
      }
      self = .array(elements)
      return
    }
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: decoder.codingPath,
        debugDescription: "not a JSON value (null, a boolean, a finite number, a string, an array or an object)"))
  }

  /// Throws when a container `depth` containers deep would nest too deep.
  private static func checkDepth(_ depth: Int, _ decoder: any Decoder) throws {
    guard depth >= maxCodableDepth else { return }
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: decoder.codingPath,
        debugDescription: "arrays and objects nested more than \(maxCodableDepth) deep"))
  }
}

extension JSONObject: Codable {
  /// Writes the members into a keyed container. Throws `EncodingError.invalidValue` when two member
  /// names are canonically equivalent: a `String`-keyed container would keep only one of them.
  public func encode(to encoder: any Encoder) throws {
    if members.count > 1, Set(keys).count != members.count {
      throw EncodingError.invalidValue(
        self,
        EncodingError.Context(
          codingPath: encoder.codingPath,
          debugDescription: "two member names are canonically equivalent; a keyed container would merge them"))
    }
    var container = encoder.container(keyedBy: JSONCodingKey.self)
    for member in members { try container.encode(member.value, forKey: JSONCodingKey(member.key)) }
  }

  /// Reads an object; its members come in the order of their names' UTF-8 bytes.
  public init(from decoder: any Decoder) throws {
    try self.init(decoder.container(keyedBy: JSONCodingKey.self), depth: 1)
  }

  /// Reads the members of `container`, itself `depth` containers deep.
  package init(_ container: KeyedDecodingContainer<JSONCodingKey>, depth: Int) throws {
    let keys = container.allKeys.sorted { $0.stringValue.utf8.lexicographicallyPrecedes($1.stringValue.utf8) }
    var members: [Member] = []
    members.reserveCapacity(keys.count)
    for key in keys {
      members.append(
        Member(key: key.stringValue, value: try JSONValue(from: container.superDecoder(forKey: key), depth: depth)))
    }
    self.init(members)
  }
}

/// Any member name or array index, as a coding key.
package struct JSONCodingKey: CodingKey, Sendable {
  package var stringValue: String
  package var intValue: Int?

  package init(_ name: String) {
    stringValue = name
    intValue = nil
  }

  package init(stringValue: String) { self.init(stringValue) }

  package init(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }
}
